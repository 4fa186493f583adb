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
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import type { CasinoHoldemRuleset } from '../../../engine/rulesets/poker.ts';
import type { GameEngine, Outcome, RoundSetup } from '../../../engine/types.ts';
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
import {
  type HoldemGame,
  type HoldemState,
  holdemCore,
  NOTHING_DEALT,
  ordinal,
  showdownHand,
} from './holdem.ts';

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

/** The round as data for the hold'em core: the deal's wording, the burns and the schedule. */
function casinoHoldemGame(ruleset: CasinoHoldemRuleset): HoldemGame<'call', CasinoHoldemBox> {
  return {
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
  };
}

/** The Ante and the Call of a box that called, against the dealer (004). */
function settleCall(
  ruleset: CasinoHoldemRuleset,
  hand: HandSummary,
  dealerHand: HandSummary,
  dealerQualifies: boolean,
): { result: CasinoHoldemBoxOutcome['result']; ante: number; call: number } {
  // 004: the dealer without a game: Call not paid (returned), Ante by the table.
  if (!dealerQualifies) {
    return {
      result: 'dealer_not_qualified',
      ante: payOf(ruleset.ante.table, hand.category),
      call: 0,
    };
  }
  const result = versus(hand, dealerHand);
  // 004: Call 1:1, Ante by the table.
  if (result === 'win') {
    return {
      result,
      ante: payOf(ruleset.ante.table, hand.category),
      call: ruleset.call.antes * ruleset.call.pays,
    };
  }
  // 004: equal hands are a stand off.
  if (result === 'tie') return { result, ante: 0, call: 0 };
  return { result, ante: -1, call: -ruleset.call.antes };
}

/** One box's settlement; writes its bets into `bets`. */
function boxOutcome(
  ruleset: CasinoHoldemRuleset,
  state: CasinoHoldemState,
  box: CasinoHoldemBox,
  dealerHand: HandSummary | null,
  dealerQualifies: boolean | null,
  bets: Record<string, number>,
): CasinoHoldemBoxOutcome {
  const name = betName(box.box);
  const call = box.call ?? 'fold';
  const hand = call === 'bet' ? showdownHand(box.cards, state.board) : null;
  let result: CasinoHoldemBoxOutcome['result'];
  if (call === 'fold' || hand === null || dealerHand === null) {
    result = 'fold';
    bets[name('ante')] = -1; // 004: a fold loses the Ante
  } else {
    const settled = settleCall(ruleset, hand, dealerHand, dealerQualifies === true);
    result = settled.result;
    bets[name('ante')] = settled.ante;
    bets[name('call')] = settled.call;
  }
  // 004: the Bonus is a separate bet on the box's two cards plus the flop.
  const flop = state.board.slice(0, 3);
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
}

/** The settlement of a complete round. */
function settle(ruleset: CasinoHoldemRuleset, state: CasinoHoldemState): CasinoHoldemOutcome {
  const dealerHand = showdownHand(state.dealer, state.board);
  const dealerQualifies = dealerHand ? qualifies(dealerHand, ruleset.dealerQualifier) : null;
  const bets: Record<string, number> = {};
  const boxes = state.boxes.map((box) =>
    boxOutcome(ruleset, state, box, dealerHand, dealerQualifies, bets),
  );
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

function start(ruleset: CasinoHoldemRuleset, setup: RoundSetup): CasinoHoldemState {
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
}

function view(state: CasinoHoldemState, next: string): Readonly<Record<string, unknown>> {
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
    next,
  };
}

/**
 * The engine as a state machine: the hold'em core runs the schedule above
 * (plan and transitions); the settlement and the view are functions of the
 * ruleset and the state. The factory only assembles them.
 */
export function createCasinoHoldemEngine(
  ruleset: CasinoHoldemRuleset,
): GameEngine<CasinoHoldemState, CasinoHoldemOutcome> {
  const { next, deal, decide, expectComplete } = holdemCore<
    'call',
    CasinoHoldemBox,
    CasinoHoldemState
  >(casinoHoldemGame(ruleset));
  return {
    game: 'casino-holdem',
    start: (setup) => start(ruleset, setup),
    next,
    deal,
    decide,
    outcome(state) {
      expectComplete(state);
      return settle(ruleset, state);
    },
    view: (state) => view(state, describeStep(next(state))),
  };
}
