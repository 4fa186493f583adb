/**
 * Issue 34, item 4: on the Triple Shot bench (a shoe and a card-reading
 * shuffler; the two decks alternate their back colours, 000 § 2.c.2) the
 * deck after a restart was journaled in the colour of the deck before it,
 * while the shoe dealt the other: `deck_not_alternated`, `wrong_back_colour`
 * on every card, `sequence_mismatch`. The driver guessed the colour of a
 * plain SHUFFLED from a count of shuffles it kept since the process
 * started, and a seeded bench dealt its first decks again after a restart
 * (`shuffle_suspect`). What the table expects now comes from the journal.
 *
 * A seeded `tableside run` is killed with SIGKILL between two decks (a round
 * settled, the next deck not yet shuffled) or mid-hand, then started again on
 * the same journal and left to deal three more decks. Every deck journaled
 * has the other colour than the one before it, and no alarm is raised.
 */
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { freePort } from '../helpers/ports.ts';
import { CliProcess, tempDir, writeConfig } from './helpers/daemon.ts';
import { until } from './helpers/environment.ts';
import { journalSoFar } from './helpers/journal.ts';

const eventsOf = (records: readonly JournalRecord[]) =>
  records.filter((record) => record.kind === 'event').map((record) => record.data as DomainEvent);

/** The back colour of each shuffle journaled, in order. */
const deckColours = (records: readonly JournalRecord[]) =>
  records
    .filter((record) => record.kind === 'input' && record.data.t === 'shuffle')
    .map((record) => (record.data as { backs: string[] }).backs.join('+'));

/** Where the table stands at the end of `records`: between decks, mid-hand, or neither. */
function standing(records: readonly JournalRecord[]): 'between decks' | 'mid-hand' | undefined {
  let at: 'between decks' | 'mid-hand' | undefined;
  for (const event of eventsOf(records)) {
    if (event.type === 'result') at = 'between decks';
    else if (event.type === 'shoe_start' || event.type === 'round_start') at = undefined;
    else if (event.type === 'card' && event.to !== 'burn') at = 'mid-hand';
  }
  return at;
}

// The cases share nothing (a folder, a journal and a port each) and mostly wait on the dealer's
// pace: side by side, the file takes as long as its slower case instead of the sum of both.
describe.concurrent('a Triple Shot bench restarted between or during decks brings in the other colour next with no alarm', () => {
  it.for(['between decks', 'mid-hand'] as const)(
    'killed %s: each deck after the restart has the other colour, and nothing is alarmed',
    { timeout: 300_000 },
    async (killAt, { onTestFinished }) => {
      const daemons: CliProcess[] = [];
      onTestFinished(async () => {
        for (const daemon of daemons) await daemon.kill('SIGKILL');
      });
      const dir = tempDir('triple-shot-restart');
      const journal = `${dir}/journal`;
      const config = writeConfig(dir, {
        ruleset: 'peru-triple-shot',
        devices: {
          shoe: { kind: 'shoe', transport: 'simulate' },
          shuffler: { kind: 'shuffler', transport: 'simulate' },
        },
        mqtt: { port: await freePort() },
        journal: { dir: journal },
        // Seeded, as a bench that repeats a run; a pause between rounds long enough to stop in.
        simulation: { seed: 34, cardIntervalMs: 150, roundIntervalMs: 1500 },
      });
      const start = () => {
        const daemon = new CliProcess(['run', '--config', config, '--no-view'], {
          env: { TABLESIDE_LOG_LEVEL: 'warn' },
        });
        daemons.push(daemon);
        return daemon;
      };

      let before: JournalRecord[] = [];
      for (let attempt = 1; attempt <= 4 && standing(before) !== killAt; attempt++) {
        const first = start();
        const from = before.at(-1)?.seq ?? 0;
        await until(
          async () => {
            const records = await journalSoFar(journal);
            return records.some((r) => r.seq > from) && standing(records) === killAt;
          },
          `the table ${killAt}`,
          60_000,
          () => first.describe(),
          1,
        );
        await first.kill('SIGKILL');
        before = await journalSoFar(journal);
      }
      expect(standing(before), `killed ${killAt}`).toBe(killAt);
      const lastSeq = before.at(-1)!.seq;
      const decksBefore = deckColours(before).length;

      const second = start();
      await until(
        async () => deckColours(await journalSoFar(journal)).length >= decksBefore + 3,
        'three decks brought in after the restart',
        90_000,
        () => second.describe(),
      );
      await second.kill('SIGINT');

      const records = await journalSoFar(journal);
      const colours = deckColours(records);
      for (let i = 1; i < colours.length; i++) {
        expect(
          colours[i],
          `deck ${i + 1} after a ${colours[i - 1]} one (${colours.join(', ')})`,
        ).not.toBe(colours[i - 1]);
      }
      const alarms = eventsOf(records.filter((record) => record.seq > lastSeq)).filter(
        (event) => event.type === 'alarm' || event.type === 'hand_voided',
      );
      expect(alarms).toEqual([]);
    },
  );
});
