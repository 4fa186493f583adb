/**
 * The Hold'em Bonus side bet of Texas Hold'em Bonus (001 "Apuesta Especial
 * o Bonus"): paid on the player's two hole cards alone, except the top
 * award, AA with the dealer also holding AA, which needs the dealer's two
 * cards. So every player hand (1,326) is paired with every dealer hand from
 * the other 50 cards (1,225): 1,624,350 equally likely deals, enumerated.
 * Other boxes' cards are unseen and change nothing on average.
 */
import { expectation, Fraction } from './exact.ts';

export const HOLDEM_BONUS_HANDS = [
  'aa_with_dealer_aa',
  'aa',
  'ak_suited',
  'aq_aj_suited',
  'ak_offsuit',
  'kk_qq_jj',
  'aq_aj_offsuit',
  'pair_2_to_10',
  'other',
] as const;
export type HoldemBonusHand = (typeof HOLDEM_BONUS_HANDS)[number];

/** 001 "Apuesta Especial o Bonus": pays N to 1; `other` loses. */
export const HOLDEM_BONUS_PAYS: Readonly<Record<HoldemBonusHand, number>> = {
  aa_with_dealer_aa: 1000,
  aa: 30,
  ak_suited: 25,
  aq_aj_suited: 20,
  ak_offsuit: 15,
  kk_qq_jj: 10,
  aq_aj_offsuit: 5,
  pair_2_to_10: 3,
  other: -1,
};
export const HOLDEM_BONUS_SOURCE = '001 (Apuesta Especial o Bonus: pay table)';

const ACE = 12;
const KING = 11;
const QUEEN = 10;
const JACK = 9;

/** Classifies the player's two cards (card ints, rank * 4 + suit) given the dealer's two. */
export function holdemBonusHand(
  player: readonly [number, number],
  dealer: readonly [number, number],
): HoldemBonusHand {
  const high = Math.max(player[0] >> 2, player[1] >> 2);
  const low = Math.min(player[0] >> 2, player[1] >> 2);
  const suited = (player[0] & 3) === (player[1] & 3);
  if (high === low) {
    if (high === ACE)
      return dealer[0] >> 2 === ACE && dealer[1] >> 2 === ACE ? 'aa_with_dealer_aa' : 'aa';
    if (high >= JACK) return 'kk_qq_jj';
    return 'pair_2_to_10';
  }
  if (high !== ACE) return 'other';
  if (low === KING) return suited ? 'ak_suited' : 'ak_offsuit';
  if (low === QUEEN || low === JACK) return suited ? 'aq_aj_suited' : 'aq_aj_offsuit';
  return 'other';
}

export interface HoldemBonusAnalysis {
  readonly total: bigint;
  readonly hands: Readonly<Record<HoldemBonusHand, bigint>>;
  readonly expectedReturn: Fraction;
  readonly houseEdge: Fraction;
}

export function analyzeHoldemBonus(): HoldemBonusAnalysis {
  const counts = Object.fromEntries(HOLDEM_BONUS_HANDS.map((hand) => [hand, 0n])) as Record<
    HoldemBonusHand,
    bigint
  >;
  const tally = new Array<number>(HOLDEM_BONUS_HANDS.length).fill(0);
  const index = new Map(HOLDEM_BONUS_HANDS.map((hand, i) => [hand, i]));
  let total = 0;
  for (let a = 0; a < 52; a++)
    for (let b = a + 1; b < 52; b++)
      for (let c = 0; c < 52; c++) {
        if (c === a || c === b) continue;
        for (let d = c + 1; d < 52; d++) {
          if (d === a || d === b) continue;
          tally[index.get(holdemBonusHand([a, b], [c, d]))!]!++;
          total++;
        }
      }
  HOLDEM_BONUS_HANDS.forEach((hand, i) => {
    counts[hand] = BigInt(tally[i]!);
  });
  const expectedReturn = expectation(
    HOLDEM_BONUS_HANDS.map((hand) => ({
      count: counts[hand],
      payout: Fraction.of(HOLDEM_BONUS_PAYS[hand]),
    })),
    BigInt(total),
  );
  return {
    total: BigInt(total),
    hands: counts,
    expectedReturn,
    houseEdge: expectedReturn.negate(),
  };
}
