/**
 * Casino Texas Hold'em at TDC (004 Texas Hold'em): two cards to each box and
 * to the dealer, the flop face up, then each box calls (2 Antes) or folds;
 * the turn and river follow; the dealer qualifies with a pair of fours.
 *
 *   two cards to each box and the dealer → (burns, if the ruleset has
 *   them) flop → each box not dark: Call or fold → turn, river → complete.
 *
 * Dark boxes (RoundSetup.dark) have their Call in before the deal and make
 * no decision (004). Every box folding ends the round after the decisions.
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { CasinoHoldemRuleset } from '../rulesets/poker.ts';
import type { Action, Decision, GameEngine, NextStep, Outcome, Recipient } from '../types.ts';
import {
  boxSeat,
  capPayout,
  compareValues,
  darkBoxes,
  describeStep,
  expectLegal,
  type HandSummary,
  noDecisionAwaited,
  notComplete,
  payOf,
  qualifies,
  seatBoxes,
  summarise,
  UNITS_NOTE,
  unexpectedCard,
} from './common.ts';

type Street = 'flop' | 'turn' | 'river';

export interface CasinoHoldemBox {
  readonly box: number;
  readonly dark: boolean;
  readonly cards: readonly StandardCard[];
  /** `bet` is the Call. */
  readonly call: 'bet' | 'fold' | null;
}

export interface CasinoHoldemState {
  readonly boxes: readonly CasinoHoldemBox[];
  readonly dealer: readonly StandardCard[];
  readonly board: readonly StandardCard[];
  readonly burns: readonly { readonly before: Street; readonly card: StandardCard }[];
  readonly initialDealt: number;
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
  readonly payoutLimit: {
    readonly applied: boolean;
    readonly won: number;
    readonly factor: number;
  } | null;
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

type Located =
  | {
      kind: 'card';
      to: Recipient;
      face: 'up' | 'down';
      purpose: string;
      put: (state: CasinoHoldemState, card: StandardCard) => CasinoHoldemState;
    }
  | { kind: 'decision'; boxIndex: number; options: Action[] }
  | { kind: 'complete' };

const BOARD_BEFORE: Record<Street, number> = { flop: 0, turn: 3, river: 4 };
const BOARD_AFTER: Record<Street, number> = { flop: 3, turn: 4, river: 5 };

export function createCasinoHoldemEngine(
  ruleset: CasinoHoldemRuleset,
): GameEngine<CasinoHoldemState, CasinoHoldemOutcome> {
  const burnsBefore = (street: Street): number =>
    ruleset.burn.kind === 'fixed'
      ? (ruleset.burn.points.find((p) => p.before === street)?.count ?? 0)
      : 0;
  const burnFace = ruleset.burn.kind === 'fixed' ? ruleset.burn.face : 'down';

  function initialStep(state: CasinoHoldemState): Located | undefined {
    // Two cards face down to each box and the dealer (004); one at a time, box 1 first, the dealer last (practice).
    const n = state.boxes.length;
    const i = state.initialDealt;
    if (i >= 2 * n + 2) return undefined;
    const round = i <= n ? 0 : 1;
    const within = i - round * (n + 1);
    const ordinal = round === 0 ? 'first' : 'second';
    const bump = { initialDealt: i + 1 };
    if (within === n) {
      return {
        kind: 'card',
        to: 'dealer',
        face: 'down',
        purpose: `dealer ${ordinal} card`,
        put: (s, card) => ({ ...s, ...bump, dealer: [...s.dealer, card] }),
      };
    }
    const box = state.boxes[within]!;
    return {
      kind: 'card',
      to: boxSeat(box.box),
      face: 'down',
      purpose: `box ${box.box} ${ordinal} card${box.dark ? ' (dark)' : ''}`,
      put: (s, card) => ({
        ...s,
        ...bump,
        boxes: s.boxes.map((b, j) => (j === within ? { ...b, cards: [...b.cards, card] } : b)),
      }),
    };
  }

  function streetCards(state: CasinoHoldemState, street: Street): Located | undefined {
    const burned = state.burns.filter((b) => b.before === street).length;
    if (burned < burnsBefore(street)) {
      return {
        kind: 'card',
        to: 'burn',
        face: burnFace,
        purpose: `burn before the ${street}`,
        put: (s, card) => ({ ...s, burns: [...s.burns, { before: street, card }] }),
      };
    }
    if (state.board.length < BOARD_AFTER[street]) {
      const k = state.board.length - BOARD_BEFORE[street] + 1;
      return {
        kind: 'card',
        to: 'board',
        face: 'up',
        purpose: street === 'flop' ? `flop card ${k}` : `${street} card`,
        put: (s, card) => ({ ...s, board: [...s.board, card] }),
      };
    }
    return undefined;
  }

  function locate(state: CasinoHoldemState): Located {
    const initial = initialStep(state);
    if (initial) return initial;
    // The flop comes before the decisions (004: three community cards face up, then Call or fold).
    const flop = streetCards(state, 'flop');
    if (flop) return flop;
    const deciding = state.boxes.findIndex((b) => b.call === null);
    if (deciding >= 0) return { kind: 'decision', boxIndex: deciding, options: ['bet', 'fold'] };
    if (!state.boxes.some((b) => b.call === 'bet')) return { kind: 'complete' };
    // Two more community cards after the decisions (004).
    return streetCards(state, 'turn') ?? streetCards(state, 'river') ?? { kind: 'complete' };
  }

  function next(state: CasinoHoldemState): NextStep {
    const at = locate(state);
    if (at.kind === 'card') return { kind: 'card', to: at.to, face: at.face, purpose: at.purpose };
    if (at.kind === 'complete') return { kind: 'complete' };
    const box = state.boxes[at.boxIndex]!;
    return {
      kind: 'decision',
      seat: boxSeat(box.box),
      options: at.options,
      purpose: `box ${box.box}: Call (bet ${ruleset.call.antes} x Ante) or fold`,
    };
  }

  function deal(state: CasinoHoldemState, card: StandardCard): CasinoHoldemState {
    const at = locate(state);
    if (at.kind !== 'card') throw unexpectedCard(card, next(state));
    return at.put(state, card);
  }

  function decide(state: CasinoHoldemState, decision: Decision): CasinoHoldemState {
    const at = locate(state);
    if (at.kind !== 'decision') throw noDecisionAwaited(decision, next(state));
    const box = state.boxes[at.boxIndex]!;
    expectLegal(decision, boxSeat(box.box), at.options, 'Call or fold');
    const call = decision.action as 'bet' | 'fold';
    return { ...state, boxes: state.boxes.map((b, i) => (i === at.boxIndex ? { ...b, call } : b)) };
  }

  function outcome(state: CasinoHoldemState): CasinoHoldemOutcome {
    if (locate(state).kind !== 'complete') throw notComplete(next(state));
    const boardOut = state.board.length === 5;
    const dealerHand = boardOut ? summarise([...state.dealer, ...state.board]) : null;
    const dealerQualifies = dealerHand ? qualifies(dealerHand, ruleset.dealerQualifier) : null;
    const flop = state.board.slice(0, 3);
    const bets: Record<string, number> = {};
    const boxes = state.boxes.map((box): CasinoHoldemBoxOutcome => {
      const name = (bet: string) => `box:${box.box}.${bet}`;
      const call = box.call ?? 'fold';
      const hand = boardOut && call === 'bet' ? summarise([...box.cards, ...state.board]) : null;
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
        const versus = compareValues(hand.value, dealerHand.value);
        result = versus > 0 ? 'win' : versus < 0 ? 'lose' : 'tie';
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
      winners: boxes.filter((b) => b.result === 'win').map((b) => b.box),
      units: UNITS_NOTE,
    };
  }

  return {
    game: 'casino-holdem',
    start(setup) {
      const boxes = seatBoxes(setup, {
        min: 1,
        max: ruleset.maxBoxes,
        fallback: [1],
        rulesetName: ruleset.name,
      });
      const dark = darkBoxes(setup, boxes, ruleset.darkBoxes.offered, ruleset.name);
      return {
        boxes: boxes.map((box) => ({
          box,
          dark: dark.has(box),
          cards: [],
          call: dark.has(box) ? 'bet' : null,
        })),
        dealer: [],
        board: [],
        burns: [],
        initialDealt: 0,
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
