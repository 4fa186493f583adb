/**
 * The Punto Banco family engine: classic (commission), Punto 2000 and
 * no-commission baccarat differ only in their pay tables, so one engine
 * serves them all. The state is just the two hands: whose card is next
 * follows from them by the tableau, so there is nothing else to keep.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { EngineError } from '../../../engine/errors.ts';
import type { PuntoBancoRuleset } from '../../../engine/rulesets/schema.ts';
import type { Decision, GameEngine, NextStep, Outcome, RoundSetup } from '../../../engine/types.ts';
import { refuseDarkBoxes } from '../blackjack/engine.ts';
import {
  bankerDraws,
  cardPoints,
  handTotal,
  isNaturalTotal,
  playerDraws,
  type Tableau,
  UNIVERSAL_TABLEAU,
} from './tableau.ts';

export interface PuntoBancoState {
  readonly player: readonly StandardCard[];
  readonly banker: readonly StandardCard[];
}

export type PuntoBancoSide = 'player' | 'banker';
export type PuntoBancoWinner = PuntoBancoSide | 'tie';

export interface PuntoBancoHandView {
  readonly cards: readonly StandardCard[];
  readonly total: number;
  readonly natural: boolean;
  readonly pair: boolean;
}

/** Every bet on the family's layouts; the outcome reports each of them. */
export const PUNTO_BANCO_BETS = [
  'player',
  'banker',
  'tie',
  'dragon_player',
  'dragon_banker',
  'player_pair',
  'banker_pair',
] as const;
export type PuntoBancoBet = (typeof PUNTO_BANCO_BETS)[number];

export interface PuntoBancoOutcome extends Outcome {
  readonly game: 'punto-banco';
  readonly winner: PuntoBancoWinner;
  readonly player: PuntoBancoHandView;
  readonly banker: PuntoBancoHandView;
  readonly bets: Readonly<Record<PuntoBancoBet, number>>;
  /** Bets on this ruleset's layout; the others are reported for completeness. */
  readonly offered: readonly PuntoBancoBet[];
  /** The result as the croupier announces it, Banker first (003 § 24 item 4). */
  readonly announcement: string;
}

/** At most six cards per coup (003 § 24 item 5). */
export const MAX_COUP_CARDS = 6;

function handView(cards: readonly StandardCard[]): PuntoBancoHandView {
  const total = handTotal(cards);
  const first = cards[0];
  const second = cards[1];
  return {
    cards,
    total,
    natural: cards.length === 2 && isNaturalTotal(total),
    pair: first !== undefined && second !== undefined && first[0] === second[0],
  };
}

/** The next step of a coup from its cards alone. */
export function puntoBancoNext(
  state: PuntoBancoState,
  tableau: Tableau = UNIVERSAL_TABLEAU,
): NextStep {
  const { player, banker } = state;
  // Player, Banker, Player, Banker (004; 003 § 24 item 3.b).
  if (player.length === 0) return card('player', 'player first card');
  if (banker.length === 0) return card('banker', 'banker first card');
  if (player.length === 1) return card('player', 'player second card');
  if (banker.length === 1) return card('banker', 'banker second card');
  const playerTwo = handTotal(player.slice(0, 2));
  const bankerTwo = handTotal(banker.slice(0, 2));
  // A natural on either side ends the coup (003 § 24 item 3.c; 004).
  if (isNaturalTotal(playerTwo) || isNaturalTotal(bankerTwo)) return { kind: 'complete' };
  if (player.length === 2) {
    if (playerDraws(playerTwo))
      return card('player', `player third card (player ${playerTwo} draws)`);
    if (banker.length === 2 && bankerDraws(bankerTwo, null, tableau)) {
      return card('banker', `banker third card (player stood, banker ${bankerTwo} draws)`);
    }
    return { kind: 'complete' };
  }
  const third = cardPoints(player[2]!);
  if (banker.length === 2 && bankerDraws(bankerTwo, third, tableau)) {
    return card(
      'banker',
      `banker third card (banker ${bankerTwo} draws on player third card ${third})`,
    );
  }
  return { kind: 'complete' };
}

function card(to: PuntoBancoSide, purpose: string): NextStep {
  return { kind: 'card', to, face: 'up', purpose };
}

function winnerOf(playerTotal: number, bankerTotal: number): PuntoBancoWinner {
  if (playerTotal > bankerTotal) return 'player';
  if (bankerTotal > playerTotal) return 'banker';
  return 'tie';
}

export function createPuntoBancoEngine(
  ruleset: PuntoBancoRuleset,
): GameEngine<PuntoBancoState, PuntoBancoOutcome> {
  const { payouts, dragonBonus, pairs, tableau } = ruleset;
  const next = (state: PuntoBancoState): NextStep => puntoBancoNext(state, tableau);
  const margins = [...dragonBonus.margins].sort((a, b) => b.margin - a.margin);

  // Dragon Bonus on `side` (002 § 13.9): a natural win pays `natural`, a
  // natural tie returns the stake, a non-natural win pays by margin from
  // the table, and only from its smallest listed margin; anything else loses.
  function dragon(side: PuntoBancoHandView, other: PuntoBancoHandView): number {
    if (side.total === other.total)
      return side.natural && other.natural ? dragonBonus.naturalTie : -1;
    if (side.total < other.total) return -1;
    if (side.natural) return dragonBonus.natural;
    const margin = side.total - other.total;
    return margins.find((row) => row.margin === margin)?.pays ?? -1;
  }

  function outcome(state: PuntoBancoState): PuntoBancoOutcome {
    if (next(state).kind !== 'complete') {
      throw new EngineError(
        'not_complete',
        `the coup is not complete: next is the ${describeNext(next(state))}`,
      );
    }
    const player = handView(state.player);
    const banker = handView(state.banker);
    const winner = winnerOf(player.total, banker.total);
    const bankerWin = banker.total === 6 ? payouts.banker.winOnSix : payouts.banker.win;
    const bets: Record<PuntoBancoBet, number> = {
      player: winner === 'player' ? payouts.player : winner === 'tie' ? payouts.mainBetsOnTie : -1,
      banker: winner === 'banker' ? bankerWin : winner === 'tie' ? payouts.mainBetsOnTie : -1,
      tie: winner === 'tie' ? payouts.tie : -1,
      dragon_player: dragon(player, banker),
      dragon_banker: dragon(banker, player),
      player_pair: player.pair ? pairs.pays : -1,
      banker_pair: banker.pair ? pairs.pays : -1,
    };
    const offered: PuntoBancoBet[] = ['player', 'banker', 'tie'];
    if (dragonBonus.offered) offered.push('dragon_player', 'dragon_banker');
    if (pairs.offered) offered.push('player_pair', 'banker_pair');
    const announcement =
      winner === 'tie'
        ? `Banker ${banker.total}, Player ${player.total}: tie`
        : `Banker ${banker.total}, Player ${player.total}: ${winner} wins${
            (winner === 'player' ? player : banker).natural ? ' with a natural' : ''
          }`;
    return { game: 'punto-banco', winner, player, banker, bets, offered, announcement };
  }

  return {
    game: 'punto-banco',
    seatsBoxes: false,
    start(setup: RoundSetup): PuntoBancoState {
      // Baccarat has no boxes: every bet is on the one layout, so `boxes` is
      // ignored; but a dark box would be a bet this layout cannot settle.
      refuseDarkBoxes(setup, ruleset.name);
      return { player: [], banker: [] };
    },
    next,
    deal(state, dealt) {
      const step = next(state);
      if (step.kind !== 'card') {
        throw new EngineError(
          'unexpected_card',
          `${dealt}: the coup is complete (${state.player.length + state.banker.length} cards), no card is due to anyone`,
        );
      }
      return step.to === 'player'
        ? { player: [...state.player, dealt], banker: state.banker }
        : { player: state.player, banker: [...state.banker, dealt] };
    },
    decide(_state, decision: Decision) {
      throw new EngineError(
        'illegal_decision',
        `${decision.seat} ${decision.action}: Punto Banco takes no decisions, the tableau decides every card`,
      );
    },
    outcome,
    view(state) {
      const step = next(state);
      return {
        game: 'punto-banco',
        player: { cards: state.player, total: handTotal(state.player) },
        banker: { cards: state.banker, total: handTotal(state.banker) },
        next: step.kind === 'card' ? step.to : 'complete',
      };
    },
  };
}

function describeNext(step: NextStep): string {
  return step.kind === 'card' ? (step.purpose ?? step.to) : 'end of the coup';
}
