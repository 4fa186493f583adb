/**
 * The long enumerations split into parts for worker threads (issue 16 item
 * 6): the parts add up to the same exact counts as one pass, whatever the
 * number of parts, and the tables the faster paths read agree with the
 * evaluator hand for hand.
 */
import { describe, expect, it } from 'vitest';
import {
  holdemShowdownOfParts,
  holdemShowdownPart,
} from '../../../firmware-host/games/cards/poker/analysis/holdem-showdown.ts';
import {
  sixCardShowdown,
  sixCardShowdownOfParts,
  sixCardShowdownPart,
} from '../../../firmware-host/games/cards/poker/analysis/six-card-showdown.ts';
import {
  evaluate6Ints,
  evaluate7Ints,
} from '../../../firmware-host/games/cards/poker/evaluator.ts';
import {
  nonFlush6Table,
  rankStateTable,
  strengthTables,
} from '../../../firmware-host/games/cards/poker/evaluator-tables.ts';
import { createRandom } from '../../../simulators/random.ts';

/** A-5 in four suits: flushes, straight flushes and the wheel all occur. */
const SMALL_DECK = [12, 0, 1, 2, 3].flatMap((rank) => [0, 1, 2, 3].map((suit) => rank * 4 + suit));

const seeded = (seed: number): (() => number) => createRandom(seed).float;

function randomHand(random: () => number, size: number): number[] {
  const hand = new Set<number>();
  while (hand.size < size) hand.add(Math.floor(random() * 52));
  return [...hand];
}

describe('enumerations split into parts add up to the whole', () => {
  it.each([2, 3, 7])('the six-card showdown on a 20-card deck in %i parts', (parts) => {
    const whole = sixCardShowdown(SMALL_DECK);
    const pieces = Array.from({ length: parts }, (_, part) =>
      sixCardShowdownPart(SMALL_DECK, part, parts),
    );
    // Exactly one part holds the empty shared set (the hands per category).
    expect(pieces.filter((piece) => piece.hands !== undefined)).toHaveLength(1);
    expect(sixCardShowdownOfParts(SMALL_DECK, pieces)).toEqual(whole);
  });

  it('the hold\u2019em showdown parts cover every board once, whatever the split', () => {
    // A few boards' worth: parts 0 and 1 of 4000, against the same boards as parts 0..1 of 2 of 2000.
    const boards = (counts: Float64Array) => counts.reduce((sum, count) => sum + count, 0);
    const a = holdemShowdownPart(1, 0, 4000);
    const b = holdemShowdownPart(1, 2000, 4000);
    const joined = holdemShowdownPart(1, 0, 2000);
    expect(Array.from(a.map((count, i) => count + b[i]!))).toEqual(Array.from(joined));
    // Every deal of those boards is counted once: C(47,2) * C(45,2) per board, weighted.
    expect(boards(joined)).toBeGreaterThan(0);
    const counts = holdemShowdownOfParts([a, b]);
    expect(counts.wins.reduce((x, y) => x + y, 0n)).toBe(
      BigInt(joined.filter((_, i) => i % 4 === 1).reduce((x, y) => x + y, 0)),
    );
  });

  it('the six-card non-flush table and the rank state table agree with the evaluator', () => {
    const { flush } = strengthTables();
    const six = nonFlush6Table();
    const states = rankStateTable();
    const key7 = strengthTables().cardKey7;
    const random = seeded(16);
    for (let i = 0; i < 20_000; i++) {
      const hand = randomHand(random, 7);
      const suits = [0, 0, 0, 0];
      for (const card of hand) suits[card & 3]!++;
      const flushSuit = suits.findIndex((count) => count >= 5);
      let row = 0;
      for (const card of hand) row = states[row + (card >> 2)]!;
      const expected7 = evaluate7Ints(
        ...(hand as [number, number, number, number, number, number, number]),
      );
      if (flushSuit < 0) expect(row).toBe(expected7);
      else {
        let mask = 0;
        for (const card of hand) if ((card & 3) === flushSuit) mask |= 1 << (card >> 2);
        expect(flush[mask]).toBe(expected7);
      }
      const first6 = hand.slice(0, 6);
      const suits6 = [0, 0, 0, 0];
      for (const card of first6) suits6[card & 3]!++;
      if (suits6.every((count) => count < 5)) {
        const sum = first6.reduce((total, card) => total + key7[card]!, 0);
        expect(six[sum]).toBe(
          evaluate6Ints(...(first6 as [number, number, number, number, number, number])),
        );
      }
    }
  });
});
