/**
 * The faster showdown counts of issue 16 item 6 against slower ones that
 * visit every card: hold'em by card classes on board classes against the
 * card-by-card sweep (itself checked against brute force in
 * poker-ruleset-studies.test.ts), and the five-card showdown on a small deck
 * against every pair of hands.
 */
import { describe, expect, it } from 'vitest';
import { fullDeckSuitPatterns } from '../../../firmware-host/analysis/suit-patterns.ts';
import type { CasinoHoldemRuleset } from '../../../firmware-host/engine/rulesets/poker.ts';
import { fiveCardShowdown } from '../../../firmware-host/games/cards/poker/analysis/five-card-showdown.ts';
import {
  boardClassKey,
  ClassScratch,
  countHoldemBoardByClasses,
  holdemBoardClasses,
} from '../../../firmware-host/games/cards/poker/analysis/holdem-board-classes.ts';
import {
  BoardScratch,
  countHoldemBoard,
} from '../../../firmware-host/games/cards/poker/analysis/holdem-showdown.ts';
import { classifyShowdown } from '../../../firmware-host/games/cards/poker/analysis/showdown-outcome.ts';
import { qualifierStrength } from '../../../firmware-host/games/cards/poker/analysis/study.ts';
import { evaluate5Ints } from '../../../firmware-host/games/cards/poker/evaluator.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { createRandom } from '../../../simulators/random.ts';

const seeded = (seed: number): (() => number) => createRandom(seed).float;

/** A board of five distinct cards; half its cards drawn from one suit, so flush boards are common. */
function randomBoard(random: () => number): number[] {
  const suit = Math.floor(random() * 4);
  const board = new Set<number>();
  while (board.size < 5)
    board.add(random() < 0.5 ? Math.floor(random() * 13) * 4 + suit : Math.floor(random() * 52));
  return [...board];
}

const casino = getRuleset('tdc-casino-holdem') as CasinoHoldemRuleset;

describe("hold'em by card classes", () => {
  it('counts every board as the card-by-card sweep does, with and without a dealer qualifier', () => {
    const random = seeded(16);
    const qualifiers = [1, qualifierStrength(casino.dealerQualifier)];
    let flushBoards = 0;
    for (let i = 0; i < 300; i++) {
      const board = randomBoard(random);
      const suits = [0, 0, 0, 0];
      for (const card of board) suits[card & 3]!++;
      if (Math.max(...suits) >= 3) flushBoards++;
      for (const qualifier of qualifiers) {
        const bySweep = new Float64Array(40);
        const byClasses = new Float64Array(40);
        countHoldemBoard(board, qualifier, bySweep, 3, new BoardScratch());
        countHoldemBoardByClasses(board, qualifier, byClasses, 3, new ClassScratch());
        expect([...byClasses], `board ${board.join(',')}, qualifier ${qualifier}`).toEqual([
          ...bySweep,
        ]);
      }
    }
    // Both kinds of board were tried.
    expect(flushBoards).toBeGreaterThan(50);
    expect(flushBoards).toBeLessThan(250);
  });

  it('lists each board class once, with as many boards as the suit patterns of that class hold', () => {
    const classes = holdemBoardClasses();
    expect(classes.reduce((sum, c) => sum + c.weight, 0)).toBe(2_598_960);
    const listed = new Map(classes.map((c) => [boardClassKey(c.board), c.weight]));
    expect(listed.size).toBe(classes.length);
    const fromPatterns = new Map<number, number>();
    for (const { representative, multiplicity } of fullDeckSuitPatterns(5)) {
      const key = boardClassKey(representative);
      fromPatterns.set(key, (fromPatterns.get(key) ?? 0) + multiplicity);
    }
    expect(listed).toEqual(fromPatterns);
  });
});

describe('five cards against five on a small deck', () => {
  it('counts every ordered pair of disjoint hands as visiting each pair does', () => {
    // A-5 in four suits: flushes, straight flushes and the wheel all occur.
    const deck = [12, 0, 1, 2, 3].flatMap((rank) => [0, 1, 2, 3].map((suit) => rank * 4 + suit));
    const hands: { mask: number; strength: number }[] = [];
    for (let a = 0; a < 20; a++)
      for (let b = a + 1; b < 20; b++)
        for (let c = b + 1; c < 20; c++)
          for (let d = c + 1; d < 20; d++)
            for (let e = d + 1; e < 20; e++)
              hands.push({
                mask: (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e),
                strength: evaluate5Ints(deck[a]!, deck[b]!, deck[c]!, deck[d]!, deck[e]!),
              });
    // A qualifier in the middle of this deck's strengths: some hands miss it, some make it.
    const sortedStrengths = hands.map((h) => h.strength).sort((x, y) => x - y);
    const qualifier = sortedStrengths[Math.floor(sortedStrengths.length / 3)]!;
    const slot = { dealer_not_qualified: 0, win: 1, tie: 2, lose: 3 };
    const strengthOfMask = new Int32Array(1 << 20);
    for (const hand of hands) strengthOfMask[hand.mask] = hand.strength;
    const brute = new Map<number, number[]>();
    for (const player of hands) {
      const row = brute.get(player.strength) ?? [0, 0, 0, 0, 0];
      row[4]!++;
      // Every dealer hand from the other 15 cards.
      const rest = [...Array(20).keys()].filter((i) => (player.mask & (1 << i)) === 0);
      for (let a = 0; a < 15; a++)
        for (let b = a + 1; b < 15; b++)
          for (let c = b + 1; c < 15; c++)
            for (let d = c + 1; d < 15; d++)
              for (let e = d + 1; e < 15; e++) {
                const mask =
                  (1 << rest[a]!) |
                  (1 << rest[b]!) |
                  (1 << rest[c]!) |
                  (1 << rest[d]!) |
                  (1 << rest[e]!);
                const theirs = strengthOfMask[mask]!;
                row[slot[classifyShowdown(player.strength, theirs, qualifier)]]!++;
              }
      brute.set(player.strength, row);
    }
    const counts = fiveCardShowdown(qualifier, deck);
    expect(counts.total).toBe(15_504n * 3_003n);
    for (let v = 1; v < counts.hands.length; v++) {
      const row = brute.get(v) ?? [0, 0, 0, 0, 0];
      expect(
        [
          counts.dealerNotQualified[v],
          counts.wins[v],
          counts.ties[v],
          counts.losses[v],
          counts.hands[v],
        ],
        `strength ${v}`,
      ).toEqual(row.map(BigInt));
    }
  });
});
