/**
 * Seven-card stud, three down and four up (003 § 27-28): the players play
 * each other, the house takes a commission. The flow of a round:
 *
 *   two cards down and one up to each player from the dealer's left
 *   (003 § 28(1)-(2)) → betting round 1, opened by the lowest up card
 *   (§ 28(3)) → one card up to each player still in, a betting round opened
 *   by the best up cards (§ 28(7)), three times → the seventh card down, the
 *   fifth betting round (§ 28(9)-(10)) → showdown, best five of seven
 *   (§ 28(9), (12)), equal hands split the pot (§ 28(13)).
 *
 * Amounts are outside the engine. A decision is `bet` (open, or call a
 * bet), `raise`, `check` (from round 2, § 28(8)) or `fold`; a bet or a raise
 * re-opens the round for the other players, folds take a player out, and one
 * player left takes the pot at once (§ 28(11) item 1). A card drawn while a
 * player is to act ends the round for everyone still to act: they called
 * (`onCard: 'bet'`) or checked (`onCard: 'check'`), as only players still
 * in receive cards. After the fifth round no card follows, so its
 * decisions carry no `onCard`.
 */
import type { Face, StandardCard } from '../../../../device-protocol/cards.ts';
import type { SevenCardStudRuleset } from '../../../engine/rulesets/poker.ts';
import type {
  Action,
  Decision,
  GameEngine,
  NextStep,
  Outcome,
  RoundSetup,
} from '../../../engine/types.ts';
import {
  betName,
  boxSeat,
  darkBoxes,
  describeStep,
  expectLegal,
  type HandSummary,
  noDecisionAwaited,
  notComplete,
  rankValue,
  seatBoxes,
  summarise,
  unexpectedCard,
} from './common.ts';

export interface StudCard {
  readonly card: StandardCard;
  readonly face: Face;
}

export interface StudPlayer {
  readonly box: number;
  readonly cards: readonly StudCard[];
  readonly folded: boolean;
}

export interface BettingRound {
  /** 1-5 (003 § 28(10)). */
  readonly round: number;
  readonly opener: number;
  /** Players still to act, in order. */
  readonly toAct: readonly number[];
  readonly betMade: boolean;
  readonly raises: number;
}

export interface SevenCardStudState {
  readonly players: readonly StudPlayer[];
  /** Cards dealt in the street being dealt. */
  readonly streetDealt: number;
  readonly betting: BettingRound | null;
  /** Betting rounds finished. */
  readonly rounds: number;
  readonly stakes: Readonly<Record<string, number>>;
}

export interface SevenCardStudOutcome extends Outcome {
  readonly game: 'seven-card-stud';
  readonly players: readonly {
    readonly box: number;
    readonly cards: readonly StudCard[];
    readonly folded: boolean;
    /** Best five of seven at the showdown; null for a folded player or a pot won without a showdown. */
    readonly hand: HandSummary | null;
    readonly share: number;
  }[];
  readonly winners: readonly number[];
  /** Whether hands were compared; false when all but one folded. */
  readonly showdown: boolean;
  readonly rounds: number;
  readonly commission: {
    readonly kind: 'fixed' | 'percentage';
    readonly percent: number | null;
    readonly source: string;
    /** Money, when the stakes give `pot` (and `minimum_bet` for the fixed commission). */
    readonly amount: number | null;
    readonly payouts: Readonly<Record<string, number>> | null;
  };
  readonly units: string;
}

/** What a street deals: face of each card, in the passes round the table. */
function streetFaces(round: number): readonly Face[] {
  if (round === 0) return ['down', 'down', 'up']; // 003 § 28(1)
  return round === 4 ? ['down'] : ['up']; // 003 § 28(7), (9)
}

/** Up cards ranked as a partial poker hand: fours, trips, two pairs, a pair, high cards (practice). */
export function upCardsKey(cards: readonly StandardCard[]): number[] {
  const counts = new Map<number, number>();
  for (const card of cards) counts.set(rankValue(card), (counts.get(rankValue(card)) ?? 0) + 1);
  const groups = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  const top = groups[0]?.[1] ?? 0;
  const second = groups[1]?.[1] ?? 0;
  const shape = top === 4 ? 4 : top === 3 ? 3 : top === 2 && second === 2 ? 2 : top === 2 ? 1 : 0;
  return [shape, ...groups.map(([rank]) => rank)];
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The outcome as the table exposed it, for consumers: a player's down cards
 * are shown only at a showdown, by a player still in (003 § 28(12)); a
 * folded hand, or the last one left when all others folded, is collected
 * face down with its down cards withheld.
 */
export function exposedSevenCardStudOutcome(outcome: SevenCardStudOutcome): Outcome {
  return {
    ...outcome,
    players: outcome.players.map((player) =>
      outcome.showdown && !player.folded
        ? player
        : {
            ...player,
            cards: player.cards.map((c) => (c.face === 'up' ? c : { card: null, face: c.face })),
            hand: null,
          },
    ),
  };
}

const active = (state: SevenCardStudState) => state.players.filter((p) => !p.folded);

/** Players still in, clockwise from `first` (boxes are numbered from the dealer's left). */
function clockwiseFrom(state: SevenCardStudState, first: number, includeFirst: boolean): number[] {
  const boxes = active(state).map((p) => p.box);
  const start = boxes.indexOf(first);
  const order = [...boxes.slice(start), ...boxes.slice(0, start)];
  return includeFirst ? order : order.filter((box) => box !== first);
}

/** The player who opens the next betting round. */
function openerOf(ruleset: SevenCardStudRuleset, state: SevenCardStudState): StudPlayer {
  const players = active(state);
  const ups = (p: StudPlayer) => p.cards.filter((c) => c.face === 'up').map((c) => c.card);
  const round = state.rounds + 1;
  let opener = players[0]!;
  for (const player of players.slice(1)) {
    if (round === 1) {
      // 003 § 28(3): the lowest up card opens; the first from the dealer's left on equal cards.
      const low = (p: StudPlayer) => rankValue(ups(p)[0]!, ruleset.opener.aceLow);
      if (low(player) < low(opener)) opener = player;
    } else if (compareKeys(upCardsKey(ups(player)), upCardsKey(ups(opener))) > 0) {
      // 003 § 28(7): the best up cards open the later rounds.
      opener = player;
    }
  }
  return opener;
}

function openRound(ruleset: SevenCardStudRuleset, state: SevenCardStudState): SevenCardStudState {
  const opener = openerOf(ruleset, state);
  return {
    ...state,
    streetDealt: 0,
    betting: {
      round: state.rounds + 1,
      opener: opener.box,
      toAct: clockwiseFrom(state, opener.box, true),
      betMade: false,
      raises: 0,
    },
  };
}

function options(ruleset: SevenCardStudRuleset, betting: BettingRound): Action[] {
  // 003 § 28(3): the opener of the first round must bet; § 28(8): checking from the second round.
  if (!betting.betMade) return betting.round === 1 ? ['bet'] : ['check', 'bet', 'fold'];
  // 003 § 28(5): fold, equal the bet, or raise (within the configured raises).
  return betting.raises < ruleset.maxRaisesPerRound.value
    ? ['fold', 'bet', 'raise']
    : ['fold', 'bet'];
}

/** The plan: whose decision or which card comes next. */
function next(ruleset: SevenCardStudRuleset, state: SevenCardStudState): NextStep {
  const players = active(state);
  // 003 § 28(11) item 1: one player left takes the pot.
  if (players.length <= 1) return { kind: 'complete' };
  const betting = state.betting;
  if (betting) {
    const box = betting.toAct[0]!;
    const legal = options(ruleset, betting);
    return {
      kind: 'decision',
      seat: boxSeat(box),
      options: legal,
      // After the fifth round no card follows (003 § 28(10)): a card then is a misdeal.
      ...(betting.round < 5
        ? { onCard: legal.includes('check') ? ('check' as const) : ('bet' as const) }
        : {}),
      purpose: `player ${box}, betting round ${betting.round}: ${betting.betMade ? 'a bet is open' : 'no bet yet'}`,
    };
  }
  if (state.rounds >= 5) return { kind: 'complete' };
  const faces = streetFaces(state.rounds);
  const pass = Math.floor(state.streetDealt / players.length);
  const player = players[state.streetDealt % players.length]!;
  const face = faces[pass]!;
  const cardNumber = player.cards.length + 1;
  return {
    kind: 'card',
    to: boxSeat(player.box),
    face,
    purpose: `player ${player.box} card ${cardNumber} (${face})`,
  };
}

/** Transition: a card to the player the plan names; a full street opens a betting round. */
function deal(
  ruleset: SevenCardStudRuleset,
  state: SevenCardStudState,
  card: StandardCard,
): SevenCardStudState {
  const step = next(ruleset, state);
  if (step.kind !== 'card') throw unexpectedCard(card, step);
  const box = Number(step.to.slice(4));
  const dealt: SevenCardStudState = {
    ...state,
    streetDealt: state.streetDealt + 1,
    players: state.players.map((p) =>
      p.box === box ? { ...p, cards: [...p.cards, { card, face: step.face }] } : p,
    ),
  };
  const streetSize = streetFaces(state.rounds).length * active(state).length;
  return dealt.streetDealt === streetSize ? openRound(ruleset, dealt) : dealt;
}

/** The betting round after one player's action. */
function afterAction(
  state: SevenCardStudState,
  betting: BettingRound,
  box: number,
  action: Action,
): BettingRound {
  switch (action) {
    case 'bet':
      // Opening re-opens the round for everyone else; a call does not.
      return betting.betMade
        ? { ...betting, toAct: betting.toAct.slice(1) }
        : { ...betting, betMade: true, toAct: clockwiseFrom(state, box, false) };
    case 'raise':
      // 003 § 28(6): after a raise everyone who plays on must equal it.
      return { ...betting, raises: betting.raises + 1, toAct: clockwiseFrom(state, box, false) };
    default:
      return { ...betting, toAct: betting.toAct.slice(1) };
  }
}

/** Transition: a player's decision; the last one to act closes the betting round. */
function decide(
  ruleset: SevenCardStudRuleset,
  state: SevenCardStudState,
  decision: Decision,
): SevenCardStudState {
  const step = next(ruleset, state);
  const betting = state.betting;
  if (step.kind !== 'decision' || !betting) throw noDecisionAwaited(decision, step);
  expectLegal(decision, step.seat, step.options, `betting round ${betting.round}`);
  const box = betting.toAct[0]!;
  // 003 § 28(5) item 1: a player who folds takes no further part.
  const after: SevenCardStudState =
    decision.action === 'fold'
      ? {
          ...state,
          players: state.players.map((p) => (p.box === box ? { ...p, folded: true } : p)),
        }
      : state;
  const round = afterAction(state, betting, box, decision.action);
  if (round.toAct.length > 0) return { ...after, betting: round };
  return { ...after, betting: null, rounds: state.rounds + 1, streetDealt: 0 };
}

function outcome(ruleset: SevenCardStudRuleset, state: SevenCardStudState): SevenCardStudOutcome {
  const step = next(ruleset, state);
  if (step.kind !== 'complete') throw notComplete(step);
  const players = active(state);
  const showdown = players.length > 1;
  const hands = new Map<number, HandSummary>();
  if (showdown) for (const p of players) hands.set(p.box, summarise(p.cards.map((c) => c.card)));
  const top = Math.max(...[...hands.values()].map((h) => h.value));
  // 003 § 28(12)-(13): the highest hand takes the pot; equal hands share it.
  const winners = showdown
    ? players.filter((p) => hands.get(p.box)!.value === top).map((p) => p.box)
    : [players[0]!.box];
  const share = 1 / winners.length;
  const pot = (box: number) => betName(box)('pot');
  const bets: Record<string, number> = {};
  for (const p of state.players) bets[pot(p.box)] = winners.includes(p.box) ? share : 0;
  const commission = commissionOf(ruleset, state, winners, share);
  return {
    game: 'seven-card-stud',
    bets,
    players: state.players.map((p) => ({
      box: p.box,
      cards: p.cards,
      folded: p.folded,
      hand: hands.get(p.box) ?? null,
      share: bets[pot(p.box)]!,
    })),
    winners,
    showdown,
    rounds: state.rounds,
    commission,
    units:
      'box:N.pot is the share of the pot each player takes (1 sole winner, 1/k for k equal hands, 0 otherwise)',
  };
}

function commissionOf(
  ruleset: SevenCardStudRuleset,
  state: SevenCardStudState,
  winners: readonly number[],
  share: number,
): SevenCardStudOutcome['commission'] {
  const rule = ruleset.commission;
  const pot = state.stakes.pot;
  let amount: number | null = null;
  if (pot !== undefined) {
    if (rule.kind === 'percentage')
      amount = (pot * rule.percent) / 100; // 003 § 28(19)
    else if (state.stakes.minimum_bet !== undefined) amount = state.stakes.minimum_bet; // 003 § 28(18)
  }
  const payouts =
    pot !== undefined && amount !== null
      ? Object.fromEntries(winners.map((box) => [`box:${box}`, (pot - amount) * share]))
      : null;
  return {
    kind: rule.kind,
    percent: rule.kind === 'percentage' ? rule.percent : null,
    source: rule.source,
    amount,
    payouts,
  };
}

function start(ruleset: SevenCardStudRuleset, setup: RoundSetup): SevenCardStudState {
  // Players play each other: at least two (003 § 27); two when none are named.
  const players = seatBoxes(setup, {
    min: 2,
    max: ruleset.maxPlayers,
    fallback: [1, 2],
    rulesetName: ruleset.name,
    word: 'player',
  });
  darkBoxes(setup, players, false, ruleset.name);
  return {
    players: players.map((box) => ({ box, cards: [], folded: false })),
    streetDealt: 0,
    betting: null,
    rounds: 0,
    stakes: setup.stakes ?? {},
  };
}

function view(
  ruleset: SevenCardStudRuleset,
  state: SevenCardStudState,
): Readonly<Record<string, unknown>> {
  return {
    game: 'seven-card-stud',
    players: state.players.map((p) => ({
      box: p.box,
      folded: p.folded,
      up: p.cards.filter((c) => c.face === 'up').map((c) => c.card),
      down: p.cards.filter((c) => c.face === 'down').length,
    })),
    betting: state.betting,
    rounds: state.rounds,
    next: describeStep(next(ruleset, state)),
  };
}

/**
 * The engine as a state machine: the state above, the plan (`next`), the
 * transitions (`deal`, `decide`) and the settlement (`outcome`) are functions
 * of the ruleset and the state; the factory only binds them to one ruleset.
 */
export function createSevenCardStudEngine(
  ruleset: SevenCardStudRuleset,
): GameEngine<SevenCardStudState, SevenCardStudOutcome> {
  return {
    game: 'seven-card-stud',
    start: (setup) => start(ruleset, setup),
    next: (state) => next(ruleset, state),
    deal: (state, card) => deal(ruleset, state, card),
    decide: (state, decision) => decide(ruleset, state, decision),
    outcome: (state) => outcome(ruleset, state),
    view: (state) => view(ruleset, state),
  };
}
