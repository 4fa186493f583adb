/**
 * Issue 27 item 2: whole link endpoints fuzzed on virtual time
 * (link-endpoints/: the endpoints' adapter, the line, one run). A shoe
 * behind its outbox file deals to a host over a line that corrupts, loses,
 * cuts, doubles, holds back and splits lines and whose cable is pulled,
 * while either side restarts, with authentication on (a paired 1.4 key, and
 * a forger writing frames without a MAC, with a rogue key's MAC, tampered
 * with and replayed) and off (the 1.2 window, 1.1 stop and wait).
 *
 * Properties, for every seed:
 * - every event the shoe accepted (in its outbox) is journaled exactly once,
 *   in the shoe's order, and the pair settles within SETTLE_BOUND_MS of the
 *   line turning clean (the shoe holds nothing, its outbox is empty);
 * - no seq is delivered twice by the host's link between two HELLOs;
 * - on a paired line no frame without the session's MAC is delivered;
 * - no event is sent again more often than `resendBound` allows (run.ts
 *   says why each term is there): no retransmission storm.
 *
 * Each seed is one run; a failure prints the line replaying it with its
 * trace (`FUZZ_LINK_SEED=<n>`). `FUZZ_LINK_RUNS` and `FUZZ_LINK_FIRST_SEED`
 * run other seeds.
 *
 * Left out, and why: lines overtaking one another. PROTOCOL.md § 1 rules it
 * out (a byte stream keeps its order) and the link relies on it: a HELLO
 * overtaken by the events after it (a late copy, or one of the shoe's
 * previous run) reads to the host as a restart, and its receive ledger,
 * which tells a resend from a new frame by the seq of the latest HELLO,
 * takes the shoe's resends for new events: a card journaled twice.
 * `FUZZ_LINK_OVERTAKE=1 FUZZ_LINK_SEED=1073` shows it. HELLO carries no MAC,
 * so a forger on a paired line can replay one to the same effect.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Outcome, runScenario, type ShoeKey, shoeKey } from './link-endpoints/run.ts';
import { SETTLE_BOUND_MS, scenarioOf } from './link-endpoints/scenario.ts';

const ONE_SEED = process.env.FUZZ_LINK_SEED;
const OVERTAKE = process.env.FUZZ_LINK_OVERTAKE === '1';
const RUNS = Number(process.env.FUZZ_LINK_RUNS ?? 2000);
const FIRST_SEED = Number(process.env.FUZZ_LINK_FIRST_SEED ?? 1);
const FILE =
  'test/fuzz/whole-link-endpoints-deliver-every-event-once-in-order-over-a-hostile-line.fuzz.test.ts';

/** What is wrong with an outcome, or an empty list. */
function violations(outcome: Outcome): string[] {
  const wrong: string[] = [];
  const { accepted, journaled } = outcome;
  if (JSON.stringify(journaled) !== JSON.stringify(accepted)) {
    const at = accepted.findIndex((event, index) => journaled[index] !== event);
    wrong.push(
      `journal differs from the events the shoe accepted at #${at === -1 ? accepted.length : at}: accepted ${accepted.length} [${accepted.join(' ')}], journaled ${journaled.length} [${journaled.join(' ')}]`,
    );
  }
  if (outcome.settledAfterMs === undefined) {
    wrong.push(`not settled ${SETTLE_BOUND_MS} ms after the line turned clean`);
  }
  if (outcome.unauthenticated.length > 0) {
    wrong.push(`unauthenticated frames delivered: ${outcome.unauthenticated.join('; ')}`);
  }
  if (outcome.redelivered.length > 0) {
    wrong.push(`seqs delivered twice between two HELLOs: ${outcome.redelivered.join('; ')}`);
  }
  for (const { event, resends, allowed } of outcome.resends) {
    if (resends > allowed) wrong.push(`${event} sent again ${resends} times, bound ${allowed}`);
  }
  return wrong;
}

let key: ShoeKey;
let folder: string;
beforeAll(async () => {
  key = await shoeKey();
  // The outbox is fsynced at every event: on tmpfs that costs no disk.
  folder = mkdtempSync(join('/dev/shm', 'tableside-link-fuzz-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('whole link endpoints over a hostile line, on virtual time', () => {
  // FUZZ_LINK_SEED names one seed: then replaying it with its trace is the file's one test.
  if (ONE_SEED !== undefined) {
    it('replays one seed with its trace', () => {
      const outcome = runScenario(scenarioOf(Number(ONE_SEED)), key, folder, true, OVERTAKE);
      process.stdout.write(`${JSON.stringify(outcome.scenario)}\n${outcome.trace!.join('\n')}\n`);
      expect(violations(outcome)).toEqual([]);
    });
    return;
  }

  it(`every accepted event is journaled once, in order, with bounded resends and no forged frame delivered (${RUNS} seeds)`, () => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const failures: string[] = [];
    let slowestSettle = 0;
    let mostResends = { event: '', resends: 0, allowed: 0 };
    for (let seed = FIRST_SEED; seed < FIRST_SEED + RUNS && failures.length < 5; seed++) {
      const outcome = runScenario(scenarioOf(seed), key, folder, false, OVERTAKE);
      const wrong = violations(outcome);
      if (wrong.length > 0) {
        failures.push(
          `seed ${seed} ${JSON.stringify(outcome.scenario)}:\n  ${wrong.join('\n  ')}\n  replay with its trace: FUZZ_LINK_SEED=${seed} npx vitest run ${FILE}`,
        );
      }
      slowestSettle = Math.max(slowestSettle, outcome.settledAfterMs ?? 0);
      for (const resend of outcome.resends) {
        if (resend.resends > mostResends.resends) mostResends = resend;
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const cpuSeconds = (used.user + used.system) / 1e6;
    process.stdout.write(
      `link endpoint fuzz: ${RUNS} seeds in ${seconds.toFixed(1)} s (${Math.round(RUNS / seconds)} seeds/s; ${Math.round(RUNS / cpuSeconds)} per CPU second); slowest settle ${slowestSettle} ms; most resends of one event ${mostResends.resends} (bound ${mostResends.allowed})\n`,
    );
    expect(failures.join('\n')).toBe('');
  }, 300_000);
});
