/**
 * Texas Hold'em Bonus (001): the boxes play the dealer with two cards each
 * and five on the board. The flow of a round lives in `locate`:
 *
 *   two cards to each box and two to the dealer (001 Desarrollo del juego)
 *   → each box: Flop bet (2 Antes) or fold → burn, flop → each box still in:
 *   Turn bet or check → burn, turn → River bet or check → burn, river →
 *   complete. Burns are `burn` card steps, as the ruleset's fixed burn
 *   points say. Every box folding ends the round after the first decision
 *   (001 § 10).
 *
 * Decisions carry no `onCard`: a card drawn while a box decides says
 * nothing about its decision (bet or fold; bet or check).
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { HoldemBonusRuleset } from '../rulesets/poker.ts';
import type { Action, Decision, GameEngine, NextStep, Outcome, Recipient } from '../types.ts';
import {
  boxSeat,
  categoryAtLeast,
  compareValues,
  darkBoxes,
  describeStep,
  expectLegal,
  type HandSummary,
  noDecisionAwaited,
  notComplete,
  rankValue,
  seatBoxes,
  summarise,
  UNITS_NOTE,
  unexpectedCard,
} from './common.ts';

export type Street = 'flop' | 'turn' | 'river';

export interface HoldemBonusBox {
  readonly box: number;
  readonly cards: readonly StandardCard[];
  readonly flop: 'bet' | 'fold' | null;
  readonly turn: 'bet' | 'check' | null;
  readonly river: 'bet' | 'check' | null;
}

export interface HoldemBonusState {
  readonly boxes: readonly HoldemBonusBox[];
  readonly dealer: readonly StandardCard[];
  readonly board: readonly StandardCard[];
  readonly burns: readonly { readonly before: Street; readonly card: StandardCard }[];
  readonly initialDealt: number;
}

export interface HoldemBonusBoxOutcome {
  readonly box: number;
  readonly cards: readonly StandardCard[];
  readonly decisions: {
    readonly flop: string | null;
    readonly turn: string | null;
    readonly river: string | null;
  };
  /** The box's best five of seven; null when it folded before the board was out. */
  readonly hand: HandSummary | null;
  readonly result: 'win' | 'lose' | 'tie' | 'fold';
  readonly bonus: { readonly hand: string; readonly suited: boolean; readonly result: number };
}

export interface HoldemBonusOutcome extends Outcome {
  readonly game: 'holdem-bonus';
  readonly board: readonly StandardCard[];
  readonly dealer: { readonly cards: readonly StandardCard[]; readonly hand: HandSummary | null };
  readonly boxes: readonly HoldemBonusBoxOutcome[];
  /** Boxes that beat the dealer. */
  readonly winners: readonly number[];
  /** 001 has no dealer qualifier. */
  readonly qualifier: null;
  readonly showdownOrder: readonly string[];
  readonly units: string;
}

type Located =
  | {
      kind: 'card';
      to: Recipient;
      face: 'up' | 'down';
      purpose: string;
      put: (state: HoldemBonusState, card: StandardCard) => HoldemBonusState;
    }
  | { kind: 'decision'; boxIndex: number; street: Street; options: Action[] }
  | { kind: 'complete' };

const BOARD_BEFORE: Record<Street, number> = { flop: 0, turn: 3, river: 4 };
const BOARD_AFTER: Record<Street, number> = { flop: 3, turn: 4, river: 5 };

/** `AK`, `AA`, `T9`: the two ranks, higher first. */
export function twoCardKey(cards: readonly StandardCard[]): string {
  return [...cards]
    .sort((a, b) => rankValue(b) - rankValue(a))
    .map((card) => card[0])
    .join('');
}

export function createHoldemBonusEngine(
  ruleset: HoldemBonusRuleset,
): GameEngine<HoldemBonusState, HoldemBonusOutcome> {
  const burnsBefore = (street: Street): number =>
    ruleset.burn.kind === 'fixed'
      ? (ruleset.burn.points.find((p) => p.before === street)?.count ?? 0)
      : 0;
  const burnFace = ruleset.burn.kind === 'fixed' ? ruleset.burn.face : 'down';

  function initialStep(state: HoldemBonusState): Located | undefined {
    // 001 (Desarrollo del juego): one by one from the dealer's left, the
    // dealer's first card to its left spot; a second round, the dealer's
    // second card to its right spot; all face down.
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
        purpose: `dealer ${ordinal} card (${round === 0 ? 'left' : 'right'} spot)`,
        put: (s, card) => ({ ...s, ...bump, dealer: [...s.dealer, card] }),
      };
    }
    const box = state.boxes[within]!;
    return {
      kind: 'card',
      to: boxSeat(box.box),
      face: 'down',
      purpose: `box ${box.box} ${ordinal} card`,
      put: (s, card) => ({
        ...s,
        ...bump,
        boxes: s.boxes.map((b, j) => (j === within ? { ...b, cards: [...b.cards, card] } : b)),
      }),
    };
  }

  function streetCards(state: HoldemBonusState, street: Street): Located | undefined {
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

  function locate(state: HoldemBonusState): Located {
    const initial = initialStep(state);
    if (initial) return initial;
    // Flop bet or fold, box by box from the dealer's left (001 § 2; Desarrollo del juego).
    const flopBox = state.boxes.findIndex((b) => b.flop === null);
    if (flopBox >= 0)
      return { kind: 'decision', boxIndex: flopBox, street: 'flop', options: ['bet', 'fold'] };
    // Nobody plays on: the dealer discards (001 § 10).
    if (!state.boxes.some((b) => b.flop === 'bet')) return { kind: 'complete' };
    const flop = streetCards(state, 'flop');
    if (flop) return flop;
    for (const street of ['turn', 'river'] as const) {
      // Turn and River: bet one Ante or check, each independent (001 El juego 2, 3ª and 4ª Apuesta).
      const deciding = state.boxes.findIndex((b) => b.flop === 'bet' && b[street] === null);
      if (deciding >= 0)
        return { kind: 'decision', boxIndex: deciding, street, options: ['bet', 'check'] };
      const cards = streetCards(state, street);
      if (cards) return cards;
    }
    return { kind: 'complete' };
  }

  function next(state: HoldemBonusState): NextStep {
    const at = locate(state);
    if (at.kind === 'card') return { kind: 'card', to: at.to, face: at.face, purpose: at.purpose };
    if (at.kind === 'complete') return { kind: 'complete' };
    const box = state.boxes[at.boxIndex]!;
    const purpose =
      at.street === 'flop'
        ? `box ${box.box}: Flop bet (${ruleset.flopBet.antes} x Ante) or fold`
        : `box ${box.box}: ${at.street === 'turn' ? 'Turn' : 'River'} bet (${ruleset[at.street === 'turn' ? 'turnBet' : 'riverBet'].antes} x Ante) or check`;
    return { kind: 'decision', seat: boxSeat(box.box), options: at.options, purpose };
  }

  function deal(state: HoldemBonusState, card: StandardCard): HoldemBonusState {
    const at = locate(state);
    if (at.kind !== 'card') throw unexpectedCard(card, next(state));
    return at.put(state, card);
  }

  function decide(state: HoldemBonusState, decision: Decision): HoldemBonusState {
    const at = locate(state);
    if (at.kind !== 'decision') throw noDecisionAwaited(decision, next(state));
    const box = state.boxes[at.boxIndex]!;
    expectLegal(decision, boxSeat(box.box), at.options, `${at.street} decision`);
    return {
      ...state,
      boxes: state.boxes.map((b, i) =>
        i === at.boxIndex ? { ...b, [at.street]: decision.action } : b,
      ),
    };
  }

  function bonusOf(
    box: HoldemBonusBox,
    dealer: readonly StandardCard[],
  ): HoldemBonusBoxOutcome['bonus'] {
    const hand = twoCardKey(box.cards);
    const suited = box.cards[0]![1] === box.cards[1]![1];
    const dealerKey = dealer.length === 2 ? twoCardKey(dealer) : '';
    // Rows in the order of 001's table; the first that matches pays (AA v AA before AA).
    const row = ruleset.bonus.rows.find(
      (r) =>
        r.hands.includes(hand) &&
        (r.suited === 'any' || (r.suited === 'suited') === suited) &&
        (r.dealerHolds === null || r.dealerHolds === dealerKey),
    );
    const result =
      box.flop === 'fold' && !ruleset.bonus.paidOnFold
        ? -1
        : (row?.pays ?? ruleset.bonus.otherwise);
    return { hand, suited, result };
  }

  function outcome(state: HoldemBonusState): HoldemBonusOutcome {
    if (locate(state).kind !== 'complete') throw notComplete(next(state));
    const boardOut = state.board.length === 5;
    const dealerHand = boardOut ? summarise([...state.dealer, ...state.board]) : null;
    const bets: Record<string, number> = {};
    const boxes = state.boxes.map((box): HoldemBonusBoxOutcome => {
      const name = (bet: string) => `box:${box.box}.${bet}`;
      const hand = boardOut ? summarise([...box.cards, ...state.board]) : null;
      let result: HoldemBonusBoxOutcome['result'];
      if (box.flop === 'fold' || hand === null || dealerHand === null) {
        result = 'fold';
        bets[name('ante')] = -1; // 001 (Desarrollo del juego): folding loses the Ante
      } else {
        const versus = compareValues(hand.value, dealerHand.value);
        result = versus > 0 ? 'win' : versus < 0 ? 'lose' : 'tie';
        const placed: [string, number][] = [
          ['flop', ruleset.flopBet.antes],
          ...(box.turn === 'bet' ? [['turn', ruleset.turnBet.antes] as [string, number]] : []),
          ...(box.river === 'bet' ? [['river', ruleset.riverBet.antes] as [string, number]] : []),
        ];
        if (result === 'win') {
          // 001 § 7 (El jugador gana): the Ante only from a straight up, else it stays (push).
          bets[name('ante')] = categoryAtLeast(hand.category, ruleset.win.anteFrom)
            ? ruleset.win.antePays
            : 0;
          for (const [bet, antes] of placed) bets[name(bet)] = antes * ruleset.win.pays;
        } else if (result === 'tie') {
          // 001 § 9 (Empate): every bet stays.
          bets[name('ante')] = ruleset.tie.result;
          for (const [bet, antes] of placed) bets[name(bet)] = antes * ruleset.tie.result;
        } else {
          // 001 (Desarrollo del juego): the dealer's higher hand takes every bet.
          bets[name('ante')] = -1;
          for (const [bet, antes] of placed) bets[name(bet)] = -antes;
        }
      }
      const bonus = bonusOf(box, state.dealer);
      bets[name('bonus')] = bonus.result;
      return {
        box: box.box,
        cards: box.cards,
        decisions: { flop: box.flop, turn: box.turn, river: box.river },
        hand,
        result,
        bonus,
      };
    });
    return {
      game: 'holdem-bonus',
      bets,
      board: state.board,
      dealer: { cards: state.dealer, hand: dealerHand },
      boxes,
      winners: boxes.filter((b) => b.result === 'win').map((b) => b.box),
      qualifier: null,
      // 001 § 5: the dealer's hand first, then box 7 down to box 1.
      showdownOrder: ['dealer', ...[...state.boxes].reverse().map((b) => boxSeat(b.box))],
      units: UNITS_NOTE,
    };
  }

  return {
    game: 'holdem-bonus',
    start(setup) {
      const boxes = seatBoxes(setup, {
        min: 1,
        max: ruleset.maxBoxes,
        fallback: [1],
        rulesetName: ruleset.name,
      });
      darkBoxes(setup, boxes, false, ruleset.name);
      return {
        boxes: boxes.map((box) => ({ box, cards: [], flop: null, turn: null, river: null })),
        dealer: [],
        board: [],
        burns: [],
        initialDealt: 0,
      };
    },
    next,
    deal,
    decide,
    outcome,
    view(state) {
      return {
        game: 'holdem-bonus',
        board: state.board,
        // The dealer's cards are face down until the showdown.
        dealer: { cards: state.dealer.length, burns: state.burns.length },
        boxes: state.boxes.map((b) => ({
          box: b.box,
          cards: b.cards.length,
          flop: b.flop,
          turn: b.turn,
          river: b.river,
        })),
        next: describeStep(next(state)),
      };
    },
  };
}
