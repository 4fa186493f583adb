/**
 * Texas Hold'em Bonus (001): the boxes play the dealer with two cards each
 * and five on the board. The flow of a round is the hold'em core's
 * (holdem.ts) with this game's schedule:
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
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import type { HoldemBonusRuleset } from '../../../engine/rulesets/poker.ts';
import type { GameEngine, Outcome, RoundSetup } from '../../../engine/types.ts';
import {
  betName,
  boxSeat,
  categoryAtLeast,
  collectedFaceDown,
  describeStep,
  type HandSummary,
  rankValue,
  seatAgainstDealer,
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
  type Street,
  showdownHand,
} from './holdem.ts';

export type { Street } from './holdem.ts';

export interface HoldemBonusBox {
  readonly box: number;
  readonly cards: readonly StandardCard[];
  readonly flop: 'bet' | 'fold' | null;
  readonly turn: 'bet' | 'check' | null;
  readonly river: 'bet' | 'check' | null;
}

export type HoldemBonusState = HoldemState<HoldemBonusBox>;

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

/** `AK`, `AA`, `T9`: the two ranks, higher first. */
export function twoCardKey(cards: readonly StandardCard[]): string {
  return [...cards]
    .sort((a, b) => rankValue(b) - rankValue(a))
    .map((card) => card[0])
    .join('');
}

/**
 * The outcome as the table exposed it, for consumers: a folded box is
 * collected face down (practice), its Bonus hand shown only when the Bonus
 * is paid; the dealer's cards are turned only at a showdown (001 § 7), so
 * when every box folded they stay face down.
 */
export function exposedHoldemBonusOutcome(outcome: HoldemBonusOutcome): Outcome {
  const dealerShown = outcome.boxes.some((box) => box.result !== 'fold');
  const boxes = outcome.boxes.map((box) =>
    box.result !== 'fold'
      ? box
      : {
          ...collectedFaceDown(box, ['hand']),
          bonus: box.bonus.result > 0 ? box.bonus : { ...box.bonus, hand: null, suited: null },
        },
  );
  if (dealerShown) return { ...outcome, boxes };
  return { ...outcome, dealer: collectedFaceDown(outcome.dealer, ['hand']), boxes };
}

/** The round as data for the hold'em core: the deal's wording, the burns and the schedule. */
function holdemBonusGame(ruleset: HoldemBonusRuleset): HoldemGame<Street, HoldemBonusBox> {
  return {
    burn: ruleset.burn,
    // 001 (Desarrollo del juego): one by one from the dealer's left, the
    // dealer's first card to its left spot; a second round, the dealer's
    // second card to its right spot; all face down.
    dealerCard: (pass) => `dealer ${ordinal(pass)} card (${pass === 0 ? 'left' : 'right'} spot)`,
    boxCard: (box, pass) => `box ${box.box} ${ordinal(pass)} card`,
    schedule: [
      // Flop bet or fold, box by box from the dealer's left (001 § 2; Desarrollo del juego).
      {
        decide: 'flop',
        options: ['bet', 'fold'],
        phase: 'flop decision',
        purpose: (box) => `box ${box}: Flop bet (${ruleset.flopBet.antes} x Ante) or fold`,
      },
      { deal: 'flop' },
      // Turn and River: bet one Ante or check, each independent (001 El juego 2, 3ª and 4ª Apuesta).
      {
        decide: 'turn',
        options: ['bet', 'check'],
        phase: 'turn decision',
        purpose: (box) => `box ${box}: Turn bet (${ruleset.turnBet.antes} x Ante) or check`,
      },
      { deal: 'turn' },
      {
        decide: 'river',
        options: ['bet', 'check'],
        phase: 'river decision',
        purpose: (box) => `box ${box}: River bet (${ruleset.riverBet.antes} x Ante) or check`,
      },
      { deal: 'river' },
    ],
  };
}

function bonusOf(
  ruleset: HoldemBonusRuleset,
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
    box.flop === 'fold' && !ruleset.bonus.paidOnFold ? -1 : (row?.pays ?? ruleset.bonus.otherwise);
  return { hand, suited, result };
}

/** The Ante and the Flop, Turn and River bets of a box that played to the showdown; writes them into `bets`. */
function settlePlayed(
  ruleset: HoldemBonusRuleset,
  box: HoldemBonusBox,
  hand: HandSummary,
  dealerHand: HandSummary,
  bets: Record<string, number>,
): HoldemBonusBoxOutcome['result'] {
  const name = betName(box.box);
  const result = versus(hand, dealerHand);
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
  return result;
}

/** One box's settlement; writes its bets into `bets`. */
function boxOutcome(
  ruleset: HoldemBonusRuleset,
  state: HoldemBonusState,
  box: HoldemBonusBox,
  dealerHand: HandSummary | null,
  bets: Record<string, number>,
): HoldemBonusBoxOutcome {
  const name = betName(box.box);
  const hand = showdownHand(box.cards, state.board);
  let result: HoldemBonusBoxOutcome['result'];
  if (box.flop === 'fold' || hand === null || dealerHand === null) {
    result = 'fold';
    bets[name('ante')] = -1; // 001 (Desarrollo del juego): folding loses the Ante
  } else {
    result = settlePlayed(ruleset, box, hand, dealerHand, bets);
  }
  const bonus = bonusOf(ruleset, box, state.dealer);
  bets[name('bonus')] = bonus.result;
  return {
    box: box.box,
    cards: box.cards,
    decisions: { flop: box.flop, turn: box.turn, river: box.river },
    hand,
    result,
    bonus,
  };
}

/** The settlement of a complete round. */
function settle(ruleset: HoldemBonusRuleset, state: HoldemBonusState): HoldemBonusOutcome {
  const dealerHand = showdownHand(state.dealer, state.board);
  const bets: Record<string, number> = {};
  const boxes = state.boxes.map((box) => boxOutcome(ruleset, state, box, dealerHand, bets));
  return {
    game: 'holdem-bonus',
    bets,
    board: state.board,
    dealer: { cards: state.dealer, hand: dealerHand },
    boxes,
    winners: winnersOf(boxes),
    qualifier: null,
    // 001 § 5: the dealer's hand first, then box 7 down to box 1.
    showdownOrder: ['dealer', ...[...state.boxes].reverse().map((b) => boxSeat(b.box))],
    units: UNITS_NOTE,
  };
}

function start(ruleset: HoldemBonusRuleset, setup: RoundSetup): HoldemBonusState {
  const { boxes } = seatAgainstDealer(setup, ruleset, false);
  return {
    boxes: boxes.map((box) => ({ box, cards: [], flop: null, turn: null, river: null })),
    ...NOTHING_DEALT,
  };
}

function view(state: HoldemBonusState, next: string): Readonly<Record<string, unknown>> {
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
    next,
  };
}

/**
 * The engine as a state machine: the hold'em core runs the schedule above
 * (plan and transitions); the settlement and the view are functions of the
 * ruleset and the state. The factory only assembles them.
 */
export function createHoldemBonusEngine(
  ruleset: HoldemBonusRuleset,
): GameEngine<HoldemBonusState, HoldemBonusOutcome> {
  const { next, deal, decide, expectComplete } = holdemCore<
    Street,
    HoldemBonusBox,
    HoldemBonusState
  >(holdemBonusGame(ruleset));
  return {
    game: 'holdem-bonus',
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
