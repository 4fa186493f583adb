/**
 * Issue 34, item 10: after a console void the simulated dealer dealt the
 * voided round's next card anyway (it had read the table's expectation before
 * its dealer's pause), and the table, with no round in play, raised
 * `wrong_card_count`. A void on request closes the round and sends its cards
 * to the discard (practice: TABLE_PRACTICE.supervisorVoid); the next card is
 * the next round's, after the round is started (a shoe game) or after a new
 * deck (a deck-per-round game, 000 § 7). The dealer now asks the table again
 * after its pause.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

function events(records: readonly JournalRecord[]): DomainEvent[] {
  return records.filter((record) => record.kind === 'event').map((r) => r.data as DomainEvent);
}

async function bench(ruleset: string) {
  const state = await mkdtemp(join(tmpdir(), 'tableside-void-bench-'));
  cleanup.push(() => rm(state, { recursive: true, force: true }));
  // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
  const dir = join(state, 'journal');
  const { config } = resolveConfig(
    {
      table: 'bench',
      ruleset,
      devices: { shoe: { kind: 'shoe', transport: 'simulate' } },
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir, rotateDaily: false },
      // A dealer's pause between cards long enough for the void to land in it.
      simulation: { cardIntervalMs: 150, roundIntervalMs: 0, seed: 34 },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config });
  const journaled: JournalRecord[] = [];
  daemon.on('journaled', (records) => journaled.push(...records));
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return { daemon, journaled };
}

describe('a simulated table voided from a request', () => {
  for (const ruleset of ['tdc-baccarat-no-commission', 'tdc-blackjack', 'peru-triple-shot']) {
    it(`deals on with no alarm (${ruleset})`, async () => {
      const { daemon, journaled } = await bench(ruleset);
      const cardsDealt = () =>
        events(journaled).filter((event) => event.type === 'card' && event.to !== 'discard').length;
      // Mid-round, a card due: the dealer is in its pause before dealing it.
      await until(
        () => cardsDealt() >= 2 && daemon.expecting().kind === 'card',
        'a round in play with a card due',
        20_000,
      );
      await daemon.handleRequest({ op: 'void_hand', reason: 'spilled drink' });
      const voidedAt = journaled.length;
      await until(
        () =>
          events(journaled.slice(voidedAt)).filter((event) => event.type === 'result').length >=
            2 || events(journaled).some((event) => event.type === 'alarm'),
        'two rounds settled after the void, or an alarm',
        90_000,
        () =>
          `expecting ${daemon.expecting().text}; ${journaled.length - voidedAt} records since the void`,
      );
      const all = events(journaled);
      expect(all.filter((event) => event.type === 'hand_voided')).toHaveLength(1);
      expect(all.filter((event) => event.type === 'alarm')).toEqual([]);
    }, 150_000);
  }
});
