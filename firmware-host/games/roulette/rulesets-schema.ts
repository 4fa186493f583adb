/**
 * The roulette ruleset schema. Roulette has no cards, so it does not spread
 * `rulesetCommon` (decks, backs, burn, shoe end, misdeal) and lives beside
 * the card union of schema.ts in a registry of its own (index.ts
 * `getRouletteRuleset`). Like the card rulesets, objects are strict and
 * every rule point carries a `source`: a seed article, or `practice:` where
 * the texts are silent.
 *
 * Bets are named as `tableside hand` writes them (`split:17-20`,
 * `corner:25-29`, `street:0-2-3`); `parseRouletteRuleset` (index.ts)
 * checks every name in a series against the layout
 * (games/roulette/engine/call-bets.ts `checkCallBets`).
 */
import { z } from 'zod';
import { rulesetName, source } from '../../engine/rulesets/base.ts';

const pocket = z.number().int().min(0).max(36);
/** A payout "to one", in whole multiples of the stake. */
const pays = z.number().int().min(0).max(1000);
const chips = z.number().int().min(1).max(1_000_000);

/** One chip position of a call bet: a layout bet and how many chips go on it per unit. */
const placement = z.strictObject({
  bet: z.string().regex(/^[a-z-]+(:[0-9]+(-[0-9]+)*)?$/, 'expected a layout bet like "split:4-7"'),
  chips: z.number().int().min(1).max(10),
});

/**
 * A series ("Серия", 004): a wheel sector covered by a fixed number of chips
 * on standard bets. `chips` is the count a unit takes; it must equal the
 * placements' sum.
 */
const series = z
  .strictObject({
    offered: z.boolean(),
    chips: z.number().int().min(1).max(20),
    placements: z.array(placement).min(1),
    /** Where the bet is offered, or why it is not. */
    source,
    /** Where the chip placements come from. */
    placementsSource: source,
  })
  .refine((s) => s.placements.reduce((sum, p) => sum + p.chips, 0) === s.chips, {
    message: "a series' chips must equal the sum of its placements' chips",
  });

const flag = z.strictObject({ value: z.boolean(), source });

export const rouletteRuleset = z.strictObject({
  name: rulesetName,
  title: z.string().min(1).max(80),
  jurisdiction: z.string().min(1).max(80),
  game: z.literal('roulette'),
  wheel: z
    .strictObject({
      /** Single zero: 37 pockets, 0-36. */
      pockets: z.literal(37),
      /** The pockets clockwise from zero, as seen from above. */
      order: z.array(pocket).length(37),
      /** The red numbers; the other numbers but zero are black, zero is green. */
      red: z.array(pocket.min(1)).length(18),
      source,
    })
    .refine((w) => w.order[0] === 0 && new Set(w.order).size === 37, {
      message: 'the wheel order must start at 0 and hold each of 0-36 once',
    })
    .refine((w) => new Set(w.red).size === 18, { message: 'the 18 red numbers must differ' }),
  /** Bets on the layout that touch zero beyond the 0 splits: the trios 0-1-2, 0-2-3 and the first four 0-1-2-3. */
  layout: z.strictObject({ trios: z.boolean(), firstFour: z.boolean(), source }),
  payouts: z.strictObject({
    straight: pays,
    split: pays,
    street: pays,
    corner: pays,
    sixline: pays,
    dozen: pays,
    column: pays,
    /** Red, black, even, odd, 1-18, 19-36. */
    evenChance: pays,
    source,
  }),
  /**
   * What zero does to the outside bets (dozens, columns, even chances).
   * `lose`: they lose (004; 003 § 12(2)). `la_partage`: an even chance
   * gets half its stake back (a named practice option; dozens and columns
   * still lose).
   */
  zero: z.strictObject({ outsideBets: z.enum(['lose', 'la_partage']), source }),
  /** A number and `eachSide` numbers either side on the wheel, a chip on each as a straight. */
  neighbours: z.strictObject({
    offered: z.boolean(),
    eachSide: z.number().int().min(1).max(9),
    source,
  }),
  voisins: series,
  tiers: series,
  orphelins: series,
  zeroSpiel: series,
  /** Every inside bet touching a number, each with as many chips as numbers it covers (40 for 17). */
  complete: z.strictObject({ offered: z.boolean(), source }),
  limits: z.strictObject({
    /** The smallest stake on any one layout bet, in chips. */
    minimum: chips,
    /** The largest stake on one layout bet of each kind, in chips (trios count as streets, the first four as a corner). */
    maximum: z.strictObject({
      straight: chips,
      split: chips,
      street: chips,
      corner: chips,
      sixline: chips,
      dozen: chips,
      column: chips,
      evenChance: chips,
    }),
    /**
     * A stake over its maximum: `pay_to_maximum` plays the maximum and
     * returns the rest (004); `refuse` rejects the bet.
     */
    overMaximum: z.enum(['pay_to_maximum', 'refuse']),
    source,
    overMaximumSource: source,
  }),
  /** What the table session checks on each spin (the wheel device's reports). */
  spin: z.strictObject({
    /** Betting is closed ("no more bets") before the ball drops. */
    noMoreBets: flag,
    /** The ball is thrown against the rotor's direction. */
    ballAgainstRotor: flag,
    /** Each spin turns the rotor the other way from the previous one. */
    alternateRotor: flag,
    /** Fewer ball revolutions than this and the spin is alarmed. */
    minBallRevolutions: z.strictObject({ value: z.number().int().min(1).max(50), source }),
    /** A chip or object in the wheel, or the ball dropped without a spin, voids the game and a new one is declared. */
    noSpinVoids: flag,
  }),
  /** Closing time: the last `lastGames` games are announced and counted down. */
  closing: z.strictObject({
    lastGames: z.number().int().min(0).max(10),
    source,
    /** What opens a closed table again: a new gaming day, a supervisor (the article, or practice). */
    reopen: source,
  }),
  sources: z.record(z.string(), source),
  notes: z.array(z.string()).default([]),
});

export type RouletteRuleset = z.infer<typeof rouletteRuleset>;
export type RouletteRulesetInput = z.input<typeof rouletteRuleset>;
