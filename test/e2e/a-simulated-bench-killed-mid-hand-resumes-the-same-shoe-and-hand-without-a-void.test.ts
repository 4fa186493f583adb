/**
 * Issue 25, item 7: a restart of `npm start` did not resume at the exact
 * card: the simulated dealer, starting with no simulators, loaded a new
 * shoe, and the table voided the hand in progress (`hand_voided`). The
 * dealer now puts the shoe the journal holds back in and deals on.
 *
 * `tableside run` on the simulator bench's defaults (no seed, as `npm
 * start`) is killed with SIGKILL mid-hand (the journal shows a round started
 * with a card and no result), then started again on the same journal. The
 * events after the restart: no `hand_voided`, no new shoe, no alarm; the next
 * card continues the shoe (its index follows the last one) and the round in
 * progress gets its result.
 */
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { freePort } from '../helpers/ports.ts';
import { CliProcess, tempDir, writeConfig } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';
import { journalSoFar } from './helpers/journal.ts';

const eventsOf = (records: readonly JournalRecord[]) =>
  records
    .filter((record) => record.kind === 'event')
    .map((record) => ({ seq: record.seq, event: record.data as DomainEvent }));

/** The round in progress at the end of `records`: started, a card dealt, not settled or voided. */
function roundInProgress(records: readonly JournalRecord[]): number | undefined {
  let round: number | undefined;
  let cards = 0;
  for (const { event } of eventsOf(records)) {
    if (event.type === 'round_start') {
      round = event.round;
      cards = 0;
    } else if (event.type === 'card' && round !== undefined) cards++;
    else if (event.type === 'result' || event.type === 'hand_voided' || event.type === 'shoe_start')
      round = undefined;
  }
  return cards > 0 ? round : undefined;
}

// The cases share nothing (a folder, a journal and a port each) and mostly wait on the dealer's
// pace: side by side, the file takes as long as its slower case instead of the sum of both.
describe.concurrent('a simulated bench killed mid-hand resumes the same shoe and hand without a void', () => {
  const CASES = [
    { name: 'the default bench (baccarat, a shoe)', table: {} },
    {
      // A deck per round, checked card by card against the order its shuffler reported.
      name: 'a Triple Shot bench with a card-reading shuffler',
      table: {
        ruleset: 'peru-triple-shot',
        devices: {
          shoe: { kind: 'shoe', transport: 'simulate' },
          shuffler: { kind: 'shuffler', transport: 'simulate' },
        },
      },
    },
  ];

  it.for(CASES)(
    '$name: the next card of the same shoe, the hand settled, after a kill -9',
    { timeout: 300_000 },
    async ({ table }, { onTestFinished }) => {
      const daemons: CliProcess[] = [];
      onTestFinished(async () => {
        for (const daemon of daemons) await daemon.kill('SIGKILL');
      });
      const dir = tempDir('resume-mid-hand');
      const journal = `${dir}/journal`;
      const config = writeConfig(dir, {
        ...table,
        mqtt: { port: await freePort() },
        journal: { dir: journal },
        // A dealer's pace slow enough to stop between two cards of a hand; no seed, as `npm start`.
        simulation: { cardIntervalMs: 1000, roundIntervalMs: 50 },
      });
      const start = () => {
        const daemon = new CliProcess(['run', '--config', config, '--no-view'], {
          env: { TABLESIDE_LOG_LEVEL: 'warn' },
        });
        daemons.push(daemon);
        return daemon;
      };

      // Killed as soon as a hand has its first card; again if the kill came too late for that.
      let before: JournalRecord[] = [];
      let round: number | undefined;
      for (let attempt = 1; attempt <= 4 && round === undefined; attempt++) {
        const first = start();
        const from = before.at(-1)?.seq ?? 0;
        await until(
          async () =>
            roundInProgress((await journalSoFar(journal)).filter((r) => r.seq > from)) !==
            undefined,
          'a hand with its first card',
          60_000,
          () => first.describe(),
        );
        await first.kill('SIGKILL');
        before = await journalSoFar(journal);
        round = roundInProgress(before);
      }
      expect(round, 'a kill mid-hand').toBeDefined();
      const lastSeq = before.at(-1)!.seq;
      const lastCard = eventsOf(before)
        .map(({ event }) => event)
        .filter((event) => event.type === 'card')
        .at(-1) as Extract<DomainEvent, { type: 'card' }>;

      const second = start();
      const sinceRestart = async () =>
        eventsOf((await journalSoFar(journal)).filter((record) => record.seq > lastSeq));
      await until(
        async () => (await sinceRestart()).some(({ event }) => event.type === 'result'),
        'the hand in progress settled',
        60_000,
        () => second.describe(),
      );
      await second.kill('SIGINT');

      const events = (await sinceRestart()).map(({ event }) => event);
      const settled = events.findIndex((event) => event.type === 'result');
      const upToResult = events.slice(0, settled + 1);
      expect(upToResult.filter((event) => event.type === 'hand_voided')).toEqual([]);
      expect(upToResult.filter((event) => event.type === 'shoe_start')).toEqual([]);
      expect(upToResult.filter((event) => event.type === 'alarm')).toEqual([]);
      const next = upToResult.find((event) => event.type === 'card') as
        | Extract<DomainEvent, { type: 'card' }>
        | undefined;
      expect(next?.index, 'the next card of the same shoe').toBe((lastCard.index ?? -2) + 1);
      expect(upToResult[settled]).toMatchObject({ type: 'result', round });
    },
  );
});
