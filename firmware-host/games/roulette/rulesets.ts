/**
 * The roulette rulesets: 003 § 4, § 10-13 ("American roulette" with one
 * zero) and 004 ("American roulette", 37 pockets). Both texts call the game
 * American, yet both describe the single-zero wheel (004: "37 pockets";
 * 003 § 12(2): zero is one number), so both use the European wheel.
 */
import type { RouletteRulesetInput } from './rulesets-schema.ts';

/** The single-zero wheel clockwise from zero (the standard European order). */
const EUROPEAN_ORDER = [
  0, 32, 15, 19, 4, 21, 2, 25, 17, 34, 6, 27, 13, 36, 11, 30, 8, 23, 10, 5, 24, 16, 33, 1, 20, 14,
  31, 9, 22, 18, 29, 7, 28, 12, 35, 3, 26,
];
const RED = [1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36];

/** The usual chip placements of the call bets (racetrack), one unit each. */
const VOISINS = [
  { bet: 'street:0-2-3', chips: 2 },
  { bet: 'split:4-7', chips: 1 },
  { bet: 'split:12-15', chips: 1 },
  { bet: 'split:18-21', chips: 1 },
  { bet: 'split:19-22', chips: 1 },
  { bet: 'corner:25-29', chips: 2 },
  { bet: 'split:32-35', chips: 1 },
];
const TIERS = ['5-8', '10-11', '13-16', '23-24', '27-30', '33-36'].map((pair) => ({
  bet: `split:${pair}`,
  chips: 1,
}));
const ORPHELINS = [
  { bet: 'straight:1', chips: 1 },
  { bet: 'split:6-9', chips: 1 },
  { bet: 'split:14-17', chips: 1 },
  { bet: 'split:17-20', chips: 1 },
  { bet: 'split:31-34', chips: 1 },
];
const ZERO_SPIEL = [
  { bet: 'split:0-3', chips: 1 },
  { bet: 'split:12-15', chips: 1 },
  { bet: 'straight:26', chips: 1 },
  { bet: 'split:32-35', chips: 1 },
];
const PLACEMENTS_PRACTICE = 'practice: the usual racetrack chip placements; the text gives none';

/** Table limits are the casino's; these are placeholders in proportion (a straight's maximum times the numbers covered). */
const LIMITS_PRACTICE = {
  minimum: 1,
  maximum: {
    straight: 100,
    split: 200,
    street: 300,
    corner: 400,
    sixline: 600,
    dozen: 1000,
    column: 1000,
    evenChance: 2000,
  },
};

const SPIN_CHECKS = {
  minBallRevolutions: {
    value: 4,
    source: 'practice: the texts set no minimum; four revolutions is a usual floor for a fair spin',
  },
  noSpinVoids: {
    value: true,
    source: '003 § 11(5) (a chip or object in the wheel, or the ball dropped unspun: a new game)',
  },
};

export const BULGARIA_ROULETTE: RouletteRulesetInput = {
  name: 'bulgaria-roulette',
  title: 'Single-zero roulette (the rulebooks call it American roulette)',
  jurisdiction: 'Bulgaria (State Gambling Commission, 2002)',
  game: 'roulette',
  wheel: {
    pockets: 37,
    order: EUROPEAN_ORDER,
    red: RED,
    source:
      '003 § 4 item 5, § 12(2) (one zero, a number of its own); the European order is practice',
  },
  layout: {
    trios: true,
    firstFour: true,
    source:
      '003 § 12(1) items 3-4 (bets on 3 and 4 numbers); the trios 0-1-2, 0-2-3 and the first four are practice',
  },
  payouts: {
    straight: 35,
    split: 17,
    street: 11,
    corner: 8,
    sixline: 5,
    dozen: 2,
    column: 2,
    evenChance: 1,
    source: '003 § 12(1) items 1-7, § 12(2) (zero pays 35 as a straight)',
  },
  zero: {
    outsideBets: 'lose',
    source:
      '003 § 12(2) (zero takes no part in the even chances); la partage is not in the text, set outsideBets: la_partage for it',
  },
  neighbours: {
    offered: true,
    eachSide: 2,
    source:
      '003 § 12(1) item 8 (a number and the two either side on the wheel, the winner paid 35)',
  },
  voisins: {
    offered: true,
    chips: 9,
    placements: VOISINS,
    source: '003 § 12(1) item 9 (voisins du zéro)',
    placementsSource:
      'practice: 003 § 12(1) item 9 leaves the scheme to the organiser; the usual 9-chip placement',
  },
  tiers: {
    offered: false,
    chips: 6,
    placements: TIERS,
    source:
      '003 § 12(1) (the bets listed are items 1-9; tiers is not among them): offered: true to add it',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  orphelins: {
    offered: false,
    chips: 5,
    placements: ORPHELINS,
    source: '003 § 12(1) (not among the bets of items 1-9): offered: true to add it',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  zeroSpiel: {
    offered: false,
    chips: 4,
    placements: ZERO_SPIEL,
    source: '003 § 12(1) (not among the bets of items 1-9): offered: true to add it',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  complete: {
    offered: false,
    source: '003 § 12(1) (not among the bets of items 1-9): offered: true to add it',
  },
  limits: {
    ...LIMITS_PRACTICE,
    overMaximum: 'refuse',
    source:
      '003 § 4 item 11 (the table posts its minimum and maximum stakes); the amounts are practice placeholders',
    overMaximumSource:
      'practice: 003 does not say what happens to a stake over the maximum; the croupier corrects incorrectly placed bets (003 § 10(3)), so it is refused',
  },
  spin: {
    noMoreBets: { value: true, source: '003 § 11(2) (the croupier declares the end of betting)' },
    ballAgainstRotor: {
      value: true,
      source: '003 § 11(1) (the wheel and the ball are spun in opposite directions)',
    },
    alternateRotor: {
      value: true,
      source: '003 § 11(4) (each game the wheel is spun the other way from the previous one)',
    },
    ...SPIN_CHECKS,
  },
  closing: {
    lastGames: 3,
    source: '003 § 13(2) (three last games announced, the games left told after each)',
    reopen:
      '003 § 13(1) (play stops at the end of the working hours, so closing time closes one working day: the next opens the table again); practice: a supervisor may reopen it the same day, journaled by name',
  },
  sources: {
    game: '003 § 10-13',
    equipment: '003 § 4',
    announcement: '003 § 11(3) (the number and colour announced and marked with the dolly)',
  },
  notes: [
    '003 calls the game "American roulette" but describes one zero (§ 12(2)); the wheel here is the single-zero European wheel.',
    '003 § 12(1) lists the bets a table takes (items 1-9); tiers, orphelins, zéro spiel and complete bets are not among them and are off by default.',
    'Zero loses the outside bets (003 § 12(2)); la partage is a named option (zero.outsideBets: la_partage), en prison is not supported.',
    '003 § 12(1) item 8 ("the number and its two neighbours, from the left and from the right") is read as two either side, 5 chips, as 004 states it; a casino that reads one either side sets neighbours.eachSide: 1.',
  ],
};

export const TDC_ROULETTE: RouletteRulesetInput = {
  name: 'tdc-roulette',
  title: 'Single-zero roulette (the rulebooks call it American roulette)',
  jurisdiction: 'Tigre de Cristal casino (Russia)',
  game: 'roulette',
  wheel: {
    pockets: 37,
    order: EUROPEAN_ORDER,
    red: RED,
    source:
      '004 (American roulette: description, a wheel of 37 numbered pockets; "neighbours of zero" 3 26 0 32 15); the European order is practice',
  },
  layout: {
    trios: true,
    firstFour: true,
    source:
      'practice: 004 refers to a pay table it does not reproduce; the usual single-zero layout',
  },
  payouts: {
    straight: 35,
    split: 17,
    street: 11,
    corner: 8,
    sixline: 5,
    dozen: 2,
    column: 2,
    evenChance: 1,
    source:
      'practice: 004 pays "by the pay table", which the text does not reproduce; the figures of 003 § 12(1) (004 itself gives the straight 35:1 under "Neighbours" and the columns 2:1 on its layout)',
  },
  zero: {
    outsideBets: 'lose',
    source:
      '004 (American roulette: on zero all bets on dozens, columns and even chances lose); la partage is a named option',
  },
  neighbours: {
    offered: true,
    eachSide: 2,
    source: '004 (American roulette: Neighbours, 5 chips, the winner paid 35:1)',
  },
  voisins: {
    offered: true,
    chips: 9,
    placements: VOISINS,
    source: '004 (American roulette: Series, voisins du zéro 9 chips)',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  tiers: {
    offered: true,
    chips: 6,
    placements: TIERS,
    source: '004 (American roulette: Series, tiers 6 chips)',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  orphelins: {
    offered: true,
    chips: 5,
    placements: ORPHELINS,
    source: '004 (American roulette: Series, orphelins 5 chips)',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  zeroSpiel: {
    offered: true,
    chips: 4,
    placements: ZERO_SPIEL,
    source: '004 (American roulette: Series, zéro spiel 4 chips)',
    placementsSource: PLACEMENTS_PRACTICE,
  },
  complete: {
    offered: true,
    source:
      '004 (American roulette: Complete, every straight-up, split, corner ... of a number); the chips per position are practice',
  },
  limits: {
    ...LIMITS_PRACTICE,
    overMaximum: 'pay_to_maximum',
    source:
      '004 (American roulette: description, stakes between the table minimum and maximum); the amounts are practice placeholders',
    overMaximumSource:
      '004 (American roulette: a stake over the maximum is paid up to the table maximum, the rest returned)',
  },
  spin: {
    noMoreBets: {
      value: true,
      source: '004 (American roulette: "no more bets" before the ball drops)',
    },
    ballAgainstRotor: {
      value: true,
      source: '004 (American roulette: the ball launched against the wheel)',
    },
    alternateRotor: {
      value: true,
      source: 'practice: 004 is silent; the rotor alternates as in 003 § 11(4)',
    },
    ...SPIN_CHECKS,
  },
  closing: {
    lastGames: 3,
    source: 'practice: 004 is silent; three last games as in 003 § 13(2)',
    reopen:
      'practice: 004 is silent; as 003 § 13(1), a new gaming day opens the table again, and a supervisor may reopen it, journaled by name',
  },
  sources: {
    game: '004 (American roulette)',
    callBets:
      '004 (American roulette: call bets, accepted when said aloud, chips given, repeated by the dealer, before betting closes)',
  },
  notes: [
    '004 calls the game "American roulette" but describes a 37-pocket wheel; the wheel here is the single-zero European wheel.',
    '004 refers to a pay table it does not reproduce: the payouts are those of 003 § 12(1), marked practice.',
    'A stake over its maximum plays the maximum and the rest is returned (004), whether or not the dealer announced it.',
  ],
};

export const ROULETTE_RULESETS: readonly RouletteRulesetInput[] = [BULGARIA_ROULETTE, TDC_ROULETTE];
