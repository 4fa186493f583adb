/**
 * In a deck-per-round game (Triple Shot 000 § 7: shuffle before every round)
 * every round starts a "shoe" of one deck. The journal still rotates per day,
 * not per round (hundreds of files a day otherwise), and the ruleset may
 * change between decks, when the table asks for a shuffle.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { freePort } from '../../helpers/ports.ts';

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function bench(ruleset: string) {
  const state = await mkdtemp(join(tmpdir(), 'tableside-per-round-'));
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
      simulation: { cardIntervalMs: 0, roundIntervalMs: 0, seed: 5 },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return { daemon, dir };
}

async function playRound(
  daemon: TableDaemon,
  back: string,
  deck: readonly string[],
): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  const listener = (records: readonly { kind: string; data: unknown }[]) => {
    for (const record of records)
      if (record.kind === 'event') events.push(record.data as DomainEvent);
  };
  daemon.on('journaled', listener);
  await daemon.newShoe('test');
  await daemon.ingest({ t: 'round', boxes: [1] });
  for (const card of deck.slice(0, 4))
    await daemon.ingest({ t: 'card', card: card as 'AS', back, face: 'down' });
  await daemon.ingest({ t: 'action', box: 1, action: 'stand' });
  for (const card of deck.slice(4)) {
    if (daemon.expecting().kind !== 'card') break;
    await daemon.ingest({ t: 'card', card: card as 'AS', back, face: 'down' });
  }
  daemon.off('journaled', listener);
  return events;
}

const RED_DECK = [
  'KH',
  '7D',
  '9H',
  'TC',
  '2C',
  '3C',
  '4C',
  '5D',
  '6D',
  '8S',
  '9S',
  'JD',
  'QD',
  'KD',
];
const BLUE_DECK = [
  'QS',
  '4H',
  'TH',
  '8D',
  'AC',
  '6C',
  '2H',
  'JS',
  '5S',
  '3H',
  '7C',
  '9D',
  'KC',
  'JH',
];

describe('a deck-per-round table', () => {
  it('keeps its rounds in one journal file, not one file per deck', async () => {
    const { daemon, dir } = await bench('peru-triple-shot');
    const first = await playRound(daemon, 'red', RED_DECK);
    // Another order: the same order twice is a shuffle the anomaly detector rightly flags.
    const second = await playRound(daemon, 'blue', BLUE_DECK);
    for (const events of [first, second]) {
      expect(events.filter((event) => event.type === 'result')).toHaveLength(1);
      expect(events.filter((event) => event.type === 'alarm')).toEqual([]);
    }
    const files = (await readdir(dir)).filter((name) => name.endsWith('.jsonl'));
    expect(files).toHaveLength(1);
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });

  it('changes ruleset between decks, never while a deck is in play, and never to another game', async () => {
    const { daemon } = await bench('peru-triple-shot');
    await daemon.newShoe('test');
    await expect(
      daemon.handleRequest({ op: 'set_ruleset', ruleset: 'peru-triple-shot' }),
    ).rejects.toMatchObject({ code: 'shoe_in_play' });
    await daemon.ingest({ t: 'void', reason: 'test' }).catch(() => undefined);
    const { daemon: other } = await bench('peru-triple-shot');
    await playRound(other, 'red', RED_DECK);
    expect(other.expecting().kind).toBe('shuffle');
    await expect(
      other.handleRequest({ op: 'set_ruleset', ruleset: 'peru-triple-shot' }),
    ).resolves.toEqual({ ruleset: 'peru-triple-shot' });
    // Blackjack is another game, though dealt from cards too: a table keeps its game.
    await expect(
      other.handleRequest({ op: 'set_ruleset', ruleset: 'tdc-blackjack' }),
    ).rejects.toMatchObject({
      code: 'other_game',
      message: expect.stringContaining(
        'tdc-blackjack is a ruleset of blackjack; this card table plays peru-triple-shot (triple-shot)',
      ),
    });
    expect(other.ruleset).toBe('peru-triple-shot');
  });
});
