// (page.evaluate callbacks run in the browser)
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { utcDay } from '../../firmware-host/journal/record.ts';
import { skipReason, until } from '../e2e/helpers/environment.ts';
import { USERS, WebTable } from '../e2e/helpers/web-table.ts';
import { chromiumMissing, launchBrowser, logIn, type TestBrowser } from './helpers/browser.ts';

const skip = skipReason(chromiumMissing());

type Event = Record<string, unknown> & { type: string };
type Counts = Record<string, Record<string, number>>;

/** The day's events up to `asOf` that are results of the table's game, read from the journal. */
function resultsUpTo(records: readonly JournalRecord[], asOf: number, type: string): Event[] {
  const today = utcDay(records.at(-1)!.ts);
  return records
    .filter(
      (record) => record.kind === 'event' && record.seq <= asOf && utcDay(record.ts) === today,
    )
    .map((record) => record.data as Event)
    .filter((event) => event.type === type);
}

const count = <T>(items: readonly T[], test: (item: T) => boolean) => items.filter(test).length;
/** The parts of the games' outcomes this test reads (each game has its own). */
interface Outcome {
  dealer: { blackjack: boolean; bust: boolean; total: number };
  qualifier: { dealerQualifies: boolean | null };
  boxes: { result: string }[];
  positions: { position: number; war: string }[];
}
const outcomeOf = (event: Event) => event.outcome as Outcome;

/** What the journal says a few rows of each board are: counted here from the events, not by the board's code. */
const CASES: {
  ruleset: string;
  type: string;
  expected: (results: Event[]) => Counts;
  devices?: Record<string, unknown>;
}[] = [
  {
    ruleset: 'tdc-blackjack',
    type: 'result',
    expected: (results) => {
      const dealers = results.map((event) => outcomeOf(event).dealer);
      return {
        "Dealer's hands": {
          Blackjack: count(dealers, (dealer) => dealer.blackjack),
          Bust: count(dealers, (dealer) => dealer.bust),
          '20': count(
            dealers,
            (dealer) => !dealer.blackjack && !dealer.bust && dealer.total === 20,
          ),
        },
      };
    },
  },
  {
    ruleset: 'tdc-casino-holdem',
    type: 'result',
    expected: (results) => {
      const qualifiers = results.map((event) => outcomeOf(event).qualifier.dealerQualifies);
      const boxes = results.flatMap((event) => outcomeOf(event).boxes);
      return {
        "Dealer's qualifying": {
          Qualifies: count(qualifiers, (q) => q === true),
          'Does not qualify': count(qualifiers, (q) => q === false),
        },
        Boxes: {
          Win: count(boxes, (box) => box.result === 'win'),
          Fold: count(boxes, (box) => box.result === 'fold'),
        },
      };
    },
  },
  {
    ruleset: 'peru-triple-shot',
    type: 'result',
    expected: (results) => {
      const positions = results.flatMap((event) => outcomeOf(event).positions);
      return {
        War: {
          Win: count(positions, (p) => p.war === 'win'),
          Tie: count(positions, (p) => p.war === 'tie'),
          Lose: count(positions, (p) => p.war === 'lose'),
        },
        'Box 1': { 'War won': count(positions, (p) => p.position === 1 && p.war === 'win') },
      };
    },
  },
  {
    ruleset: 'tdc-roulette',
    type: 'spin',
    devices: { wheel: { kind: 'wheel', transport: 'simulate' } },
    expected: (spins) => {
      const numbers = spins.map((spin) => spin.number as number);
      return {
        Colours: {
          Red: count(spins, (spin) => spin.colour === 'red'),
          Black: count(spins, (spin) => spin.colour === 'black'),
          Zero: count(spins, (spin) => spin.colour === 'green'),
        },
        Dozens: { '1st 12': count(numbers, (n) => n >= 1 && n <= 12) },
        'Odd or even': { Even: count(numbers, (n) => n > 0 && n % 2 === 0) },
      };
    },
  },
];

/** The board as drawn: its rounds, rate, latest results, and each tally's counts. */
function readBoard() {
  const board = document.querySelector<HTMLElement>('#scoreboard .board');
  if (!board) return null;
  const tallies: Record<string, Record<string, number>> = {};
  for (const table of Array.from(document.querySelectorAll<HTMLElement>('#scoreboard .tally'))) {
    tallies[table.dataset.tally!] = Object.fromEntries(
      Array.from(table.querySelectorAll<HTMLElement>('tr[data-label]')).map((row) => [
        row.dataset.label!,
        Number(row.dataset.count),
      ]),
    );
  }
  return {
    seq: Number(document.getElementById('scoreboard')!.dataset.seq),
    rounds: Number(board.dataset.rounds),
    perHour: board.dataset.perHour,
    recent: document.querySelectorAll('#scoreboard .recent li').length,
    summary: board.querySelector('.board-summary')!.textContent!,
    tallies,
  };
}

describe.skipIf(skip)(
  "the scoreboard of blackjack, poker, Triple Shot and roulette counts the table's results",
  () => {
    let table: WebTable | undefined;
    let browser: TestBrowser | undefined;
    afterEach(async () => {
      await browser?.close();
      await table?.stop();
      browser = table = undefined;
    });

    for (const { ruleset, type, expected, devices } of CASES) {
      it(`${ruleset}: the tab shows, and its counts are the journal's`, async () => {
        table = await WebTable.start(`board-${ruleset}`, {
          ruleset,
          cardIntervalMs: 20,
          roundIntervalMs: 60,
          seed: 5,
          ...(devices ? { devices } : {}),
        });
        browser = await launchBrowser();
        const { page } = browser;
        await logIn(page, table.url, 'bob', USERS.bob.password);
        expect(await page.locator('#nav a[data-page=scoreboard]').isVisible()).toBe(true);
        await page.goto(`${table.url}/#scoreboard`);
        await until(
          async () => ((await page.evaluate(readBoard))?.rounds ?? 0) >= 4,
          `four results on the ${ruleset} scoreboard`,
          60_000,
          () => table!.daemon.describe(),
        );
        // One read of the page, then the journal (which holds everything the page saw).
        const board = (await page.evaluate(readBoard))!;
        const results = resultsUpTo(await table.journal(), board.seq, type);
        expect(board.rounds).toBe(results.length);
        expect(board.recent).toBe(Math.min(results.length, 12));
        expect(Number(board.perHour)).toBeGreaterThan(0);
        expect(board.summary).toMatch(
          /^\d+ (rounds|spins) today \(UTC\) · \d+ (rounds|spins) an hour$/,
        );
        for (const [title, rows] of Object.entries(expected(results))) {
          expect(
            board.tallies[title],
            `${title} in ${JSON.stringify(board.tallies)}`,
          ).toMatchObject(rows);
        }
      });
    }
  },
);
