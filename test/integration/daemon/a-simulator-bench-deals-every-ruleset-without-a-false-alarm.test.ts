/**
 * `tableside run` on a bench (`transport: simulate`) for every shipped
 * ruleset: the simulated dealer deals round after round through the same
 * doors a real table uses (the simulators' wires, `ingest()`), and the table
 * finds nothing wrong with a legal deal. In the deck-per-round games (Triple
 * Shot 000 § 2.c / § 7, the poker games) this takes a fresh deck every round,
 * in Triple Shot and Hold'em Bonus with the back colours alternating; in the
 * games with decisions (blackjack, Triple Shot, the poker games) every round
 * reaches its result. Triple Shot and Hold'em Bonus also run with a
 * card-reading shuffler, as their tables do (the Triple Shot example config;
 * 001 "Barajador Automatico").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { rulesetNames } from '../../../firmware-host/games/rulesets.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const ROUNDS = 3;
const TIMEOUT_MS = 20_000;

interface Bench {
  ruleset: string;
  shuffler: boolean;
}

const benches: Bench[] = [
  ...rulesetNames().map((ruleset) => ({ ruleset, shuffler: false })),
  { ruleset: 'peru-triple-shot', shuffler: true },
  { ruleset: 'spain-holdem-bonus', shuffler: true },
];

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function eventsOf(records: readonly JournalRecord[], type: string): DomainEvent[] {
  return records
    .filter((record) => record.kind === 'event')
    .map((record) => record.data as DomainEvent)
    .filter((event) => event.type === type);
}

/** Runs a bench until ROUNDS results (or an alarm, or the time is up); returns what it journaled. */
async function deal(bench: Bench, seed: number) {
  const state = await mkdtemp(join(tmpdir(), `tableside-bench-${bench.ruleset}-`));
  cleanup.push(() => rm(state, { recursive: true, force: true }));
  // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
  const dir = join(state, 'journal');
  const { config } = resolveConfig(
    {
      table: 'bench',
      ruleset: bench.ruleset,
      devices: {
        shoe: { kind: 'shoe', transport: 'simulate' },
        ...(bench.shuffler ? { shuffler: { kind: 'shuffler', transport: 'simulate' } } : {}),
      },
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir, rotateDaily: false },
      simulation: { cardIntervalMs: 0, roundIntervalMs: 0, seed },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config });
  const journaled: JournalRecord[] = [];
  daemon.on('journaled', (records) => journaled.push(...records));
  await daemon.start();
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await daemon.stop();
  };
  cleanup.push(stop);
  await until(
    () => eventsOf(journaled, 'result').length >= ROUNDS || eventsOf(journaled, 'alarm').length > 0,
    `${ROUNDS} results or an alarm`,
    TIMEOUT_MS,
    () => `${eventsOf(journaled, 'result').length} results`,
  );
  await stop();
  // Every durable record was told on the bus: the last one is the journal's end.
  const lastSeq = Math.max(0, ...journaled.map((record) => record.seq));
  return { journaled, dir, lastSeq };
}

describe.concurrent('a simulator bench deals every ruleset without a false alarm', () => {
  it('covers every shipped ruleset', () => {
    expect(new Set(benches.map((bench) => bench.ruleset))).toEqual(new Set(rulesetNames()));
    expect(rulesetNames()).toHaveLength(11);
  });

  for (const [index, bench] of benches.entries()) {
    const name = `${bench.ruleset}${bench.shuffler ? ' with a card-reading shuffler' : ''}`;
    it(`deals ${ROUNDS} rounds of ${name} with no alarm, and the journal verifies`, async () => {
      const { journaled, dir, lastSeq } = await deal(bench, 1000 + index * 17);

      const alarms = eventsOf(journaled, 'alarm');
      expect(alarms, JSON.stringify(alarms, null, 1)).toEqual([]);
      expect(eventsOf(journaled, 'hand_voided')).toEqual([]);
      const results = eventsOf(journaled, 'result');
      expect(results.length).toBeGreaterThanOrEqual(ROUNDS);

      const report = await verifyJournalDir(dir, { expectLastSeq: lastSeq });
      expect(report.findings).toEqual([]);
      expect(report.ok).toBe(true);
      expect(report.lastSeq).toBe(lastSeq);
    });
  }
});
