/**
 * Casino Texas Hold'em at TDC (004 Texas Hold'em): two cards to each box and
 * to the dealer, the flop face up, then each box calls (2 Antes) or folds;
 * the turn and river follow; the dealer qualifies with a pair of fours.
 * The flow of a round is the hold'em core's (holdem.ts) with this schedule:
 *
 *   two cards to each box and the dealer → (burns, if the ruleset has
 *   them) flop → each box not dark: Call or fold → turn, river → complete.
 *
 * Dark boxes (RoundSetup.dark) have their Call in before the deal and make
 * no decision (004). Every box folding ends the round after the decisions.
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { CasinoHoldemRuleset } from '../rulesets/poker.ts';
import type { GameEngine, Outcome } from '../types.ts';
import {
  betName,
  type CappedPayout,
  capPayout,
  collectedFaceDown,
  describeStep,
  type HandSummary,
  payOf,
  qualifies,
  seatAgainstDealer,
  summarise,
  UNITS_NOTE,
  versus,
  winnersOf,
} from './common.ts';
import { type HoldemState, holdemCore, NOTHING_DEALT, ordinal, showdownHand } from './holdem.ts';

export interface CasinoHoldemBox {
  readonly box: number;
  readonly dark: boolean;
  readonly cards: readonly StandardCard[];
  /** `bet` is the Call. */
  readonly call: 'bet' | 'fold' | null;
}

export interface CasinoHoldemState extends HoldemState<CasinoHoldemBox> {
  readonly stakes: Readonly<Record<string, number>>;
}

export interface CasinoHoldemBoxOutcome {
  readonly box: number;
  readonly dark: boolean;
  readonly cards: readonly StandardCard[];
  readonly call: 'bet' | 'fold';
  readonly hand: HandSummary | null;
  readonly result: 'win' | 'lose' | 'tie' | 'fold' | 'dealer_not_qualified';
  /** The Bonus hand: the box's two cards and the flop. */
  readonly bonus: { readonly hand: HandSummary | null; readonly result: number };
  readonly payoutLimit: CappedPayout | null;
}

export interface CasinoHoldemOutcome extends Outcome {
  readonly game: 'casino-holdem';
  readonly board: readonly StandardCard[];
  readonly dealer: { readonly cards: readonly StandardCard[]; readonly hand: HandSummary | null };
  readonly qualifier: { readonly description: string; readonly dealerQualifies: boolean | null };
  readonly boxes: readonly CasinoHoldemBoxOutcome[];
  /** Boxes whose hand beat a qualifying dealer. */
  readonly winners: readonly number[];
  readonly units: string;
}

/**
 * The outcome as the table exposed it, for consumers: a folded box is
 * collected face down (practice), its Bonus hand shown only when the Bonus
 * is paid; the dealer's two cards are turned only against a box that called
 * (004), so when every box folded they stay face down.
 */
export function exposedCasinoHoldemOutcome(outcome: CasinoHoldemOutcome): Outcome {
  const dealerShown = outcome.boxes.some((box) => box.call === 'bet');
  const boxes = outcome.boxes.map((box) =>
    box.call === 'bet'
      ? box
      : {
          ...collectedFaceDown(box, ['hand']),
          bonus: box.bonus.result > 0 ? box.bonus : { ...box.bonus, hand: null },
        },
  );
  if (dealerShown) return { ...outcome, boxes };
  return {
    ...outcome,
    dealer: collectedFaceDown(outcome.dealer, ['hand']),
    qualifier: { ...outcome.qualifier, dealerQualifies: null },
    boxes,
  };
}

export function createCasinoHoldemEngine(
  ruleset: CasinoHoldemRuleset,
): GameEngine<CasinoHoldemState, CasinoHoldemOutcome> {
  const { next, deal, decide, expectComplete } = holdemCore<
    'call',
    CasinoHoldemBox,
    CasinoHoldemState
  >({
    burn: ruleset.burn,
    // Two cards face down to each box and the dealer (004); one at a time, box 1 first, the dealer last (practice).
    dealerCard: (pass) => `dealer ${ordinal(pass)} card`,
    boxCard: (box, pass) => `box ${box.box} ${ordinal(pass)} card${box.dark ? ' (dark)' : ''}`,
    schedule: [
      // The flop comes before the decisions (004: three community cards face up, then Call or fold).
      { deal: 'flop' },
      {
        decide: 'call',
        options: ['bet', 'fold'],
        phase: 'Call or fold',
        purpose: (box) => `box ${box}: Call (bet ${ruleset.call.antes} x Ante) or fold`,
      },
      // Two more community cards after the decisions (004).
      { deal: 'turn' },
      { deal: 'river' },
    ],
  });

  function outcome(state: CasinoHoldemState): CasinoHoldemOutcome {
    expectComplete(state);
    const dealerHand = showdownHand(state.dealer, state.board);
    const dealerQualifies = dealerHand ? qualifies(dealerHand, ruleset.dealerQualifier) : null;
    const flop = state.board.slice(0, 3);
    const bets: Record<string, number> = {};
    const boxes = state.boxes.map((box): CasinoHoldemBoxOutcome => {
      const name = betName(box.box);
      const call = box.call ?? 'fold';
      const hand = call === 'bet' ? showdownHand(box.cards, state.board) : null;
      let result: CasinoHoldemBoxOutcome['result'];
      if (call === 'fold' || hand === null || dealerHand === null) {
        result = 'fold';
        bets[name('ante')] = -1; // 004: a fold loses the Ante
      } else if (!dealerQualifies) {
        // 004: the dealer without a game: Call not paid (returned), Ante by the table.
        result = 'dealer_not_qualified';
        bets[name('ante')] = payOf(ruleset.ante.table, hand.category);
        bets[name('call')] = 0;
      } else {
        result = versus(hand, dealerHand);
        if (result === 'win') {
          // 004: Call 1:1, Ante by the table.
          bets[name('ante')] = payOf(ruleset.ante.table, hand.category);
          bets[name('call')] = ruleset.call.antes * ruleset.call.pays;
        } else if (result === 'tie') {
          // 004: equal hands are a stand off.
          bets[name('ante')] = 0;
          bets[name('call')] = 0;
        } else {
          bets[name('ante')] = -1;
          bets[name('call')] = -ruleset.call.antes;
        }
      }
      // 004: the Bonus is a separate bet on the box's two cards plus the flop.
      const bonusHand = flop.length === 3 ? summarise([...box.cards, ...flop]) : null;
      const bonus =
        bonusHand === null || (call === 'fold' && !ruleset.bonus.paidOnFold)
          ? -1
          : payOf(ruleset.bonus.table, bonusHand.category);
      bets[name('bonus')] = bonus;
      const ante = state.stakes[name('ante')];
      const payoutLimit =
        ruleset.payoutLimit.amount !== null && ante !== undefined
          ? capPayout(
              bets,
              [name('ante'), name('call')],
              { [name('ante')]: ante, [name('call')]: ante },
              ruleset.payoutLimit.amount,
            )
          : null;
      return {
        box: box.box,
        dark: box.dark,
        cards: box.cards,
        call,
        hand,
        result,
        bonus: { hand: bonusHand, result: bonus },
        payoutLimit,
      };
    });
    return {
      game: 'casino-holdem',
      bets,
      board: state.board,
      dealer: { cards: state.dealer, hand: dealerHand },
      qualifier: { description: ruleset.dealerQualifier.description, dealerQualifies },
      boxes,
      winners: winnersOf(boxes),
      units: UNITS_NOTE,
    };
  }

  return {
    game: 'casino-holdem',
    start(setup) {
      const { boxes, dark } = seatAgainstDealer(setup, ruleset, ruleset.darkBoxes.offered);
      return {
        boxes: boxes.map((box) => ({
          box,
          dark: dark.has(box),
          cards: [],
          call: dark.has(box) ? 'bet' : null,
        })),
        ...NOTHING_DEALT,
        stakes: setup.stakes ?? {},
      };
    },
    next,
    deal,
    decide,
    outcome,
    view(state) {
      return {
        game: 'casino-holdem',
        board: state.board,
        dealer: { cards: state.dealer.length },
        boxes: state.boxes.map((b) => ({
          box: b.box,
          dark: b.dark,
          cards: b.cards.length,
          call: b.call,
        })),
        next: describeStep(next(state)),
      };
    },
  };
}
