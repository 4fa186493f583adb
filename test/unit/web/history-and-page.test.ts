/** The History page's day, the roads follower, and the page's size budget. */
import { readdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { RoadsFold } from '../../../firmware-host/games/cards/baccarat/roads-fold.ts';
import { cardDayHistory } from '../../../firmware-host/games/cards/history.ts';
import { GAME_PLUGINS } from '../../../firmware-host/games/registry.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { parseDay, readHistoryDay } from '../../../firmware-host/web/history.ts';
import { gameModuleUrl, PUBLIC_DIR, staticFiles } from '../../../firmware-host/web/static-files.ts';

const DAY = Date.parse('2026-11-24T10:00:00Z');
const hash = '0'.repeat(64);
let seq = 0;
const at = (
  ts: number,
  kind: JournalRecord['kind'],
  data: Record<string, unknown>,
): JournalRecord => ({ seq: ++seq, ts, prev: hash, kind, data }) as JournalRecord;
const outcome = (winner: string, bankerPair = false) => ({
  game: 'punto-banco',
  winner,
  announcement: `${winner} wins`,
  player: { cards: [], total: 0, natural: false, pair: false },
  banker: { cards: [], total: 0, natural: false, pair: bankerPair },
});

function journalOf(records: JournalRecord[]) {
  return {
    lastSeq: records.at(-1)!.seq,
    readRange: async (from: number, max: number) =>
      records.filter((r) => r.seq >= from).slice(0, max),
    onDurable: () => () => undefined,
  };
}

describe('readHistoryDay', () => {
  it("groups the day's shoes and hands, screens face-down cards, and names who voided", async () => {
    seq = 0;
    const records = [
      at(DAY - 86_400_000, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
      at(DAY, 'input', { t: 'shuffle', src: 'simulator' }),
      at(DAY, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
      at(DAY + 1, 'event', { type: 'card', card: '5H', to: 'burn', face: 'up' }),
      at(DAY + 2, 'event', { type: 'card', card: 'KS', to: 'burn', face: 'down' }),
      at(DAY + 3, 'event', { type: 'round_start', round: 1 }),
      at(DAY + 4, 'event', { type: 'card', card: '9H', to: 'player', face: 'up' }),
      at(DAY + 5, 'event', { type: 'result', round: 1, outcome: outcome('player') }),
      at(DAY + 6, 'event', { type: 'round_start', round: 2 }),
      at(DAY + 7, 'input', { t: 'void', src: 'web:alice', reason: 'card flashed' }),
      at(DAY + 8, 'event', { type: 'hand_voided', reason: 'card flashed', boxes: 'all' }),
      at(DAY + 9, 'meta', { type: 'ruleset', ruleset: 'tdc-blackjack', src: 'web:alice' }),
    ];
    const day = await readHistoryDay(journalOf(records), '2026-11-24', cardDayHistory());
    expect(day.error).toBeUndefined();
    expect(day.shoes).toHaveLength(1);
    const [shoe] = day.shoes;
    expect(shoe!.events.map((e) => ('card' in e ? e.card : e.type))).toEqual([
      'shoe_start',
      '5H',
      null,
    ]);
    expect(JSON.stringify(day)).not.toContain('KS');
    expect(
      shoe!.hands.map((hand) => [
        hand.round,
        hand.result?.announcement ?? null,
        hand.voided ?? null,
      ]),
    ).toEqual([
      [1, 'player wins', null],
      [2, null, { reason: 'card flashed', by: 'web:alice' }],
    ]);
    expect(day.requests).toEqual([
      { seq: 10, ts: DAY + 7, what: 'void', by: 'alice', reason: 'card flashed' },
      { seq: 12, ts: DAY + 9, what: 'ruleset tdc-blackjack', by: 'alice' },
    ]);
    expect(
      (await readHistoryDay(journalOf(records), '2026-11-23', cardDayHistory())).shoes,
    ).toHaveLength(1);
  });

  it('lists a console new shoe with who asked and puts the coup it voided down to them (issue 34 item 7)', async () => {
    seq = 0;
    const reason = 'a new shuffle came before round 16 was complete';
    const records = [
      at(DAY, 'input', { t: 'shuffle', src: 'shuffler' }),
      at(DAY, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
      at(DAY + 1, 'event', { type: 'round_start', round: 15 }),
      at(DAY + 2, 'event', { type: 'result', round: 15, outcome: outcome('banker') }),
      at(DAY + 3, 'event', { type: 'round_start', round: 16 }),
      at(DAY + 4, 'input', { t: 'shuffle', decks: 8, backs: ['red'], src: 'web:bench' }),
      at(DAY + 4, 'event', { type: 'hand_voided', reason, boxes: 'all' }),
      at(DAY + 4, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
    ];
    const day = await readHistoryDay(journalOf(records), '2026-11-24', cardDayHistory());
    // A shuffler's own shuffle is no request; the console's is, by name.
    expect(day.requests).toEqual([{ seq: 6, ts: DAY + 4, what: 'new shoe', by: 'bench' }]);
    const [hand15, hand16] = day.shoes[0]!.hands;
    expect(hand16!.voided).toEqual({ reason, by: 'web:bench' });
    // The result in the game's words, as the Table page has it.
    expect(hand15!.result!.words).toEqual(['Banker wins.']);
  });

  it('says so when the journal cannot be read to the end, keeping what it read', async () => {
    seq = 0;
    const records = [
      at(DAY, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
    ];
    const broken = {
      ...journalOf(records),
      lastSeq: 5,
      readRange: async (from: number) => {
        if (from > 1) throw new Error('hash chain broken at journal-000001.jsonl line 2');
        return records;
      },
    };
    const day = await readHistoryDay(broken, '2026-11-24', cardDayHistory());
    expect(day.shoes).toHaveLength(1);
    expect(day.error).toBe(
      'the journal could not be read to the end: hash chain broken at journal-000001.jsonl line 2',
    );
  });

  it('reads a day as YYYY-MM-DD, today when absent', () => {
    expect(parseDay(null, DAY)).toBe('2026-11-24');
    expect(parseDay('2026-01-31', DAY)).toBe('2026-01-31');
    expect(() => parseDay('2026-13-45', DAY)).toThrow('expected a date as YYYY-MM-DD');
    expect(() => parseDay('today', DAY)).toThrow('day "today"');
  });
});

describe('RoadsFold', () => {
  it('keeps the roads of the shoe in play with pairs, cleared by a new shoe', () => {
    seq = 0;
    const follower = new RoadsFold(() => true);
    expect(
      follower.follow([
        at(DAY, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
        at(DAY, 'event', { type: 'result', round: 1, outcome: outcome('banker', true) }),
        at(DAY, 'event', { type: 'result', round: 2, outcome: outcome('tie') }),
      ]),
    ).toBe(true);
    expect(follower.payload('any')).toMatchObject({
      seq: 3,
      big_road: [{ col: 0, row: 0, result: 'B', ties: 1, banker_pair: true }],
      counts: { coups: 2, banker_pairs: 1 },
    });
    expect(follower.follow([at(DAY, 'event', { type: 'card', card: '2C', to: 'player' })])).toBe(
      false,
    );
    follower.follow([
      at(DAY, 'event', { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 }),
    ]);
    expect(follower.payload('any')).toMatchObject({ seq: 5, bead_plate: [], counts: { coups: 0 } });
    // Another game's results draw nothing.
    follower.follow([
      at(DAY, 'event', { type: 'result', round: 1, outcome: { game: 'blackjack', bets: {} } }),
    ]);
    expect(follower.roads().bead_plate).toEqual([]);
  });

  it('publishes nothing at a table whose ruleset keeps no roads', () => {
    seq = 0;
    const fold = new RoadsFold((ruleset) => ruleset === 'with-roads');
    fold.follow([at(DAY, 'event', { type: 'result', round: 1, outcome: outcome('player') })]);
    expect(fold.payload('with-roads')).toMatchObject({ seq: 1, counts: { coups: 1 } });
    expect(fold.payload('without-roads')).toBeUndefined();
  });
});

describe("the console's page", () => {
  it('is under 150 kB compressed, served as written (no build step)', () => {
    // The page's own files and every game's modules, by the URL the page asks for.
    const files = new Map(
      Object.entries(staticFiles())
        .filter(([url]) => /\.(html|js|css)$/.test(url))
        .map(([url, path]) => [url, readFileSync(path, 'utf8')]),
    );
    expect(files.size).toBeGreaterThan(readdirSync(PUBLIC_DIR).length - 2);
    const compressed = [...files.values()].reduce(
      (sum, text) => sum + gzipSync(text, { level: 9 }).length,
      0,
    );
    expect(compressed).toBeLessThan(150 * 1024);
    // Nothing to build: browser modules importing each other by path, no bundler, no TypeScript.
    expect(files.get('/index.html')).toContain('<script type="module" src="/app.js"></script>');
    for (const [url, text] of files) {
      if (!url.endsWith('.js')) continue;
      const game = url.startsWith('/games/');
      for (const [, specifier] of text.matchAll(/^import .* from '([^']+)';$/gm)) {
        // The console's own modules import each other; a game's module imports the console's by
        // its absolute path (never another game's): the console names no game.
        expect(specifier, `${url} imports ${specifier}`).toMatch(
          game ? /^\/[a-z-]+\.js$/ : /^\.\/[a-z-]+\.js$/,
        );
        const target = game ? specifier! : `/${specifier!.slice(2)}`;
        expect(files.has(target), `${url} imports ${specifier}`).toBe(true);
      }
      if (!game) {
        expect(text, `${url} names a game's module`).not.toMatch(/['"`]\/games\//);
      }
    }
  });

  it("serves each game's declared modules from its folder's web/public, and nothing else of it", () => {
    const gameUrls = Object.keys(staticFiles()).filter((url) => url.startsWith('/games/'));
    const declared = GAME_PLUGINS.flatMap((plugin) =>
      plugin.webModules.map((file) => gameModuleUrl(plugin.id, file)),
    );
    expect(gameUrls.sort()).toEqual(declared.sort());
    for (const url of gameUrls) {
      expect(staticFiles()[url]).toMatch(/firmware-host\/games\/[a-z]+\/web\/public\/[a-z-]+\.js$/);
    }
    for (const plugin of GAME_PLUGINS) {
      for (const name of plugin.rulesetNames()) {
        for (const file of Object.values(plugin.webViews(name))) {
          expect(plugin.webModules, `${name}'s view ${file}`).toContain(file);
        }
      }
    }
  });
});
