/**
 * The table session: validator + game engine, as a pure reducer
 * `(state, record) => { state, events }`. Every card that leaves the shoe
 * is checked against the shoe (composition, back colour, shuffler order),
 * the shoe's life (burns, cut card, last-hand marker, shoe end) and the
 * game's plan (the engine's next step), and the ruleset's misdeal policy is
 * applied. No I/O, no clock: timestamps travel in the records and are not
 * needed here. The same records always give the same events.
 *
 * States are immutable values: the reducer copies what it changes, so a
 * caller may keep any earlier state (history, branching, property tests).
 */
import { z } from 'zod';
import {
  type CardCode,
  compositionKey,
  JOKER,
  type StandardCard,
  shoeComposition,
  shoeSize,
} from '../../device-protocol/cards.ts';
import { burnCount } from '../engine/baccarat/burn.ts';
import { isEngineError } from '../engine/errors.ts';
import type { Ruleset } from '../engine/rulesets/schema.ts';
import type { Action, GameEngine, NextStep, Seat } from '../engine/types.ts';
import {
  type AnomalyState,
  anomalyOptionsSchema,
  closeShoe,
  observe,
  type ShoeWindows,
  startShoe,
} from './anomaly.ts';
import type { AlarmKind, CardDestination, DomainEvent } from './events.ts';
import type {
  ActionRecord,
  CardRecord,
  MisdealRecord,
  RoundRecord,
  ShuffleRecord,
  TableLogRecord,
} from './log.ts';

// ------------------------------------------------------------------ options

export const sessionOptionsSchema = z.strictObject({
  anomaly: anomalyOptionsSchema.prefault({}),
  /**
   * Punto Banco shoes without a "new coup" button: a card arriving between
   * coups starts the next coup. Off by default, because then a card dealt
   * against the tableau after a coup is complete cannot be told from the
   * first card of the next coup.
   */
  autoRound: z.boolean().default(false),
});
export type SessionOptions = z.infer<typeof sessionOptionsSchema>;
export type SessionOptionsInput = z.input<typeof sessionOptionsSchema>;

export interface SessionConfig {
  readonly ruleset: Ruleset;
  readonly engine: GameEngine<unknown>;
  readonly options: SessionOptions;
}

// -------------------------------------------------------------------- state

/** A card that left the shoe while nobody could take it: used as the next card (000 § 14.b). */
interface HeldCard {
  readonly card: StandardCard;
  readonly back: string;
  readonly index: number;
}

export interface ShoeState {
  /** 1 for the session's first shoe. */
  readonly number: number;
  readonly decks: number;
  readonly backs: readonly string[];
  readonly size: number;
  /** Cards of the shoe's set not yet out, by `compositionKey`. */
  readonly remaining: ReadonlyMap<string, number>;
  readonly left: number;
  /** Cards that left the shoe, foreign ones included: the next card's `index`. */
  readonly dealt: number;
  /** The shuffler's reported order. Never put into an event or a snapshot. */
  readonly order: readonly CardCode[] | undefined;
  readonly orderPosition: number;
  readonly orderBroken: boolean;
  readonly ended: string | undefined;
  /** Turn-and-burn at a new shoe: the turned card is still due, or `owed` burns are. */
  readonly burn: { readonly turned: boolean; readonly owed: number } | undefined;
  /** The cut card came out during a round: the shoe ends when the round does (003 § 23). */
  readonly cutOut: boolean;
  /** The last-hand marker came out: coups still to deal after the one in progress. */
  readonly lastHand: { readonly coupsLeft: number } | undefined;
  readonly rounds: number;
  readonly roundsFinished: number;
  /** Face-up cards found since the round (or the shoe) began. */
  readonly faceUp: number;
  /** A box-only misdeal asked for a reshuffle once the round is over. */
  readonly reshuffleAfterRound: string | undefined;
  readonly anomaly: AnomalyState;
}

export interface RoundState {
  readonly number: number;
  readonly boxes: readonly number[] | undefined;
  readonly engine: unknown;
  /** Started after the last-hand marker came out. */
  readonly afterMarker: boolean;
  /** Boxes voided by a box-only misdeal; the round goes on for the others. */
  readonly voided: readonly number[];
  readonly held: readonly HeldCard[];
  /** Cards dealt so far to each destination. */
  readonly cards: Readonly<Record<string, number>>;
  readonly decisions: number;
  /** Fixed burns taken, by burn point. */
  readonly burns: Readonly<Record<string, number>>;
  /** The engine deals its own burn cards: do not add the ruleset's. */
  readonly engineBurns: boolean;
  /** A dealer card was dealt face up (the Hold'em Bonus exception needs none). */
  readonly dealerCardUp: boolean;
  /** Dealer cards dealt face down: only these can be exposed early. */
  readonly dealerCardsDown: number;
  /** The game has reached the point where the dealer's cards are shown. */
  readonly dealerDue: boolean;
}

export interface SessionState {
  readonly shoes: number;
  readonly rounds: number;
  readonly shoe: ShoeState | undefined;
  readonly round: RoundState | undefined;
  /** The back colour of the last deck brought into play, for alternation (000 § 2.c.2). */
  readonly lastColour: string | undefined;
  readonly history: readonly ShoeWindows[];
}

export function initialState(): SessionState {
  return {
    shoes: 0,
    rounds: 0,
    shoe: undefined,
    round: undefined,
    lastColour: undefined,
    history: [],
  };
}

// ------------------------------------------------------------------ reducer

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

interface Draft {
  readonly config: SessionConfig;
  shoes: number;
  rounds: number;
  shoe: Mutable<ShoeState> | undefined;
  round: Mutable<RoundState> | undefined;
  lastColour: string | undefined;
  history: readonly ShoeWindows[];
  readonly events: DomainEvent[];
}

export interface Reduction {
  readonly state: SessionState;
  readonly events: DomainEvent[];
}

/** Applies one (already validated) table-log record. Pure. */
export function reduce(
  config: SessionConfig,
  state: SessionState,
  record: TableLogRecord,
): Reduction {
  const draft: Draft = {
    config,
    shoes: state.shoes,
    rounds: state.rounds,
    shoe: state.shoe && { ...state.shoe },
    round: state.round && { ...state.round },
    lastColour: state.lastColour,
    history: state.history,
    events: [],
  };
  switch (record.t) {
    case 'shuffle':
      onShuffle(draft, record);
      break;
    case 'round':
      onRound(draft, record);
      break;
    case 'card':
      onCard(draft, record);
      break;
    case 'cut':
      onCut(draft);
      break;
    case 'action':
      onAction(draft, record);
      break;
    case 'void':
      onVoid(draft, record.reason);
      break;
    case 'misdeal':
      onMisdeal(draft, record);
      break;
  }
  checkExhaustion(draft);
  return {
    state: {
      shoes: draft.shoes,
      rounds: draft.rounds,
      shoe: draft.shoe,
      round: draft.round,
      lastColour: draft.lastColour,
      history: draft.history,
    },
    events: draft.events,
  };
}

function alarm(
  draft: Draft,
  kind: AlarmKind,
  message: string,
  detail: Record<string, unknown> = {},
): void {
  draft.events.push({ type: 'alarm', kind, message, ...detail });
}

function roundDetail(draft: Draft): { round?: number } {
  return draft.round ? { round: draft.round.number } : {};
}

/** What the shoe ending for want of cards says, in `shoe_end.reason`. */
export const SHOE_EXHAUSTED = 'shoe exhausted';

/** Where the ruleset has no word on a shoe running out (every shoe but the marker kind). */
const RUNS_OUT_PRACTICE = {
  coupNeeds: 1,
  source:
    'practice: a round starts while a card is left to deal; one the shoe cannot complete is void',
} as const;

/**
 * What the session's own alarms and voids cite where no ruleset point
 * applies: the seeds give no procedure for these, so each says why.
 */
const SESSION_PRACTICE = {
  noShuffle:
    'practice: cards are dealt from a shoe shuffled and cut first (000 § 7; 003 § 24(1)); one before any recorded shuffle belongs to no shoe and goes to the discard',
  beforeFirstRound:
    'practice: the seeds are silent; no card is due before the first round starts, so one that leaves the shoe goes to the discard',
  shuffleMidRound:
    'practice: the seeds are silent; a round cut short by a new shuffle cannot be completed from the new shoe, so it is void',
  supervisorVoid:
    "practice: the seeds give no void on request; the table's inspector settles what happens at the table (003 § 30(1)) and errors are corrected at once (000 § 14), so a void on request is journaled with who asked and why",
} as const;

function exhaustionPolicy(ruleset: Ruleset): { coupNeeds: number; source: string } {
  const end = ruleset.shoeEnd;
  return end.kind === 'last_hand_marker' ? end.exhaustion : RUNS_OUT_PRACTICE;
}

/**
 * Cards the shoe can still deal: what is left of its set but the marker
 * jokers, and not the covered last card, which nobody is to see (003 § 24(1)).
 */
export function cardsToDeal(ruleset: Ruleset, shoe: ShoeState): number {
  const end = ruleset.shoeEnd;
  const markers = shoe.remaining.get(compositionKey(JOKER, shoe.backs[0] ?? '')) ?? 0;
  const covered = end.kind === 'last_hand_marker' && end.lastCardCovered ? 1 : 0;
  return Math.max(0, shoe.left - markers - covered);
}

/**
 * A shoe that cannot go on ends instead of waiting for a card that will
 * never come: the round in play, when its next step is a card and none is
 * left to deal (or waiting), is void; between rounds, with fewer cards left
 * than a round needs, no round starts.
 */
function checkExhaustion(draft: Draft): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  const { ruleset, engine } = draft.config;
  const policy = exhaustionPolicy(ruleset);
  const left = cardsToDeal(ruleset, shoe);
  const round = draft.round;
  if (round) {
    if (left > 0 || round.held.length > 0 || engine.next(round.engine).kind !== 'card') return;
    voidRound(
      draft,
      'all',
      `the shoe ran out of cards before round ${round.number} was complete`,
      policy.source,
      true,
    );
    return;
  }
  if (shoe.burn ? left === 0 : left < policy.coupNeeds)
    endShoe(draft, SHOE_EXHAUSTED, policy.source);
}

function jokersIn(ruleset: Ruleset): number {
  const end = ruleset.shoeEnd;
  if (end.kind !== 'last_hand_marker' || end.marker !== 'joker') return 0;
  // 003 § 24(1): a second cut card covers the last card; both are jokers in the shoe.
  return end.lastCardCovered ? 2 : 1;
}

// ------------------------------------------------------------------ shuffle

function onShuffle(draft: Draft, record: ShuffleRecord): void {
  const { ruleset, options } = draft.config;
  if (draft.round) {
    voidRound(
      draft,
      'all',
      `a new shuffle came before round ${draft.round.number} was complete`,
      SESSION_PRACTICE.shuffleMidRound,
    );
  }
  if (draft.shoe) {
    if (draft.shoe.ended === undefined) endShoe(draft, 'replaced by a new shuffle');
    draft.history = closeShoe(draft.shoe.anomaly, options.anomaly.history);
  }

  if (!ruleset.decks.allowed.includes(record.decks)) {
    alarm(
      draft,
      'wrong_shoe',
      `the shuffle declares ${record.decks} deck(s); ${ruleset.name} allows ${ruleset.decks.allowed.join(' or ')}`,
      { decks: record.decks, allowed: ruleset.decks.allowed, rule: ruleset.decks.source },
    );
  }
  const backs = ruleset.backs;
  if (backs.kind === 'single') {
    if (record.backs.length !== 1 || record.backs[0] !== backs.colour) {
      alarm(
        draft,
        'wrong_back_colour',
        `the shuffle declares backs ${record.backs.join(', ')}; ${ruleset.name} uses ${backs.colour}`,
        { backs: record.backs, expected: [backs.colour], rule: backs.source },
      );
    }
  } else {
    const colour = record.backs[0]!;
    if (record.backs.length !== 1 || !backs.colours.includes(colour)) {
      alarm(
        draft,
        'wrong_back_colour',
        `each deck brought into play has one of the colours ${backs.colours.join(', ')}; the shuffle declares ${record.backs.join(', ')}`,
        { backs: record.backs, expected: backs.colours, rule: backs.source },
      );
    } else if (colour === draft.lastColour) {
      alarm(
        draft,
        'deck_not_alternated',
        `the ${colour} deck served the last round too; the two decks alternate (000 § 2.c.2)`,
        { back: colour, rule: '000 § 2.c.2' },
      );
    }
    draft.lastColour = colour;
  }

  const spec = { decks: record.decks, backs: record.backs, jokers: jokersIn(ruleset) };
  const size = shoeSize(spec);
  draft.shoes += 1;
  draft.shoe = {
    number: draft.shoes,
    decks: record.decks,
    backs: record.backs,
    size,
    remaining: shoeComposition(spec),
    left: size,
    dealt: 0,
    order: record.order,
    orderPosition: 0,
    orderBroken: false,
    ended: undefined,
    burn: shoeStartBurn(ruleset),
    cutOut: false,
    lastHand: undefined,
    rounds: 0,
    roundsFinished: 0,
    faceUp: 0,
    reshuffleAfterRound: undefined,
    anomaly: startShoe(record.decks * record.backs.length, options.anomaly, draft.history),
  };
  draft.events.push({
    type: 'shoe_start',
    decks: record.decks,
    backs: [...record.backs],
    cards: size,
  });
}

/** Burns due at a new shoe: turn-and-burn (the turned card decides), or a fixed count. */
function shoeStartBurn(ruleset: Ruleset): ShoeState['burn'] {
  const burn = ruleset.burn;
  if (burn.kind === 'turn_and_burn') return { turned: false, owed: 0 };
  if (burn.kind !== 'fixed') return undefined;
  const count = burn.points.find((point) => point.before === 'new_shoe')?.count ?? 0;
  return count > 0 ? { turned: true, owed: count } : undefined;
}

function endShoe(draft: Draft, reason: string, rule?: string): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  shoe.ended = reason;
  draft.events.push({ type: 'shoe_end', reason, ...(rule ? { rule } : {}) });
}

function requireReshuffle(draft: Draft, reason: string, rule: string): void {
  draft.events.push({ type: 'reshuffle_required', reason, rule });
  endShoe(draft, `reshuffle required: ${reason}`, rule);
}

// -------------------------------------------------------------------- round

function onRound(draft: Draft, record: RoundRecord): void {
  const { ruleset, engine } = draft.config;
  if (draft.round) {
    const step = engine.next(draft.round.engine);
    alarm(
      draft,
      'wrong_card_count',
      `round ${draft.round.number} was not complete (next: ${describeStep(step)}) when a new round began`,
      { round: draft.round.number, rule: ruleset.misdeal.wrongCardCount.source },
    );
    const policy = ruleset.misdeal.wrongCardCount;
    voidRound(draft, 'all', `round ${draft.round.number} ended short of cards`, policy.source);
    if (policy.reshuffle) requireReshuffle(draft, 'wrong number of cards', policy.source);
  }
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) {
    alarm(
      draft,
      'round_after_shoe_end',
      shoe
        ? `no new round after the shoe ended (${shoe.ended}): shuffle first`
        : 'no shoe in play: shuffle first',
      shoe ? { reason: shoe.ended } : {},
    );
    return;
  }
  if (shoe.burn) {
    const owed = shoe.burn.turned ? shoe.burn.owed : 'the turned card and its';
    alarm(
      draft,
      'missing_burn',
      `the round began before the shoe-start burn was complete (${owed} cards still to burn)`,
      {
        index: shoe.dealt,
        owed: shoe.burn.turned ? shoe.burn.owed : undefined,
        rule: ruleset.burn.source,
      },
    );
    shoe.burn = undefined;
  }
  if (ruleset.shoeEnd.kind === 'reshuffle_every_round' && shoe.rounds > 0) {
    if (ruleset.backs.kind === 'alternating') {
      alarm(
        draft,
        'deck_not_alternated',
        `the deck in play already served a round; every round draws from the other deck (000 § 2.c.2)`,
        { rule: '000 § 2.c.2' },
      );
    } else {
      alarm(
        draft,
        'missing_shuffle',
        `the deck in play already served a round; it is shuffled before every round`,
        { rule: ruleset.shoeEnd.source },
      );
    }
  }
  let engineState: unknown;
  try {
    engineState = engine.start({
      ...(record.boxes ? { boxes: record.boxes } : {}),
      ...(record.stakes ? { stakes: record.stakes } : {}),
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    alarm(draft, 'illegal_action', `the round cannot start: ${error.message}`);
    return;
  }
  draft.rounds += 1;
  shoe.rounds += 1;
  shoe.faceUp = 0;
  draft.round = {
    number: draft.rounds,
    boxes: record.boxes,
    engine: engineState,
    afterMarker: shoe.lastHand !== undefined,
    voided: [],
    held: [],
    cards: {},
    decisions: 0,
    burns: {},
    engineBurns: false,
    dealerCardUp: false,
    dealerCardsDown: 0,
    dealerDue: false,
  };
  draft.events.push({
    type: 'round_start',
    round: draft.rounds,
    ...(record.boxes ? { boxes: [...record.boxes] } : {}),
  });
  settle(draft);
}

/** Closes the round with a void; held cards go to the discard. `exhausted`: the shoe ends with it. */
function voidRound(
  draft: Draft,
  boxes: number[] | 'all',
  reason: string,
  rule?: string,
  exhausted = false,
): void {
  const round = draft.round;
  if (!round) return;
  draft.events.push({
    type: 'hand_voided',
    reason,
    boxes,
    ...(rule ? { rule } : {}),
  });
  if (boxes !== 'all') {
    round.voided = [...new Set([...round.voided, ...boxes])].sort((a, b) => a - b);
    return;
  }
  discardHeld(draft);
  draft.round = undefined;
  afterRound(draft, false, exhausted);
}

function discardHeld(draft: Draft): void {
  const round = draft.round;
  if (!round) return;
  for (const held of round.held) {
    draft.events.push({
      type: 'card',
      card: held.card,
      to: 'discard',
      back: held.back,
      face: 'down',
      index: held.index,
    });
  }
  round.held = [];
}

/**
 * Shoe bookkeeping once a round is over. `countsAfterMarker`: a coup begun
 * after the last-hand marker was finished (a voided coup is dealt again, so
 * it does not count). `exhausted`: the round was void for want of cards, so
 * the shoe ends, whatever else was due.
 */
function afterRound(draft: Draft, countsAfterMarker: boolean, exhausted = false): void {
  const shoe = draft.shoe;
  if (!shoe) return;
  shoe.roundsFinished += 1;
  if (exhausted) {
    shoe.reshuffleAfterRound = undefined;
    endShoe(draft, SHOE_EXHAUSTED, exhaustionPolicy(draft.config.ruleset).source);
    return;
  }
  if (shoe.reshuffleAfterRound !== undefined) {
    const reason = shoe.reshuffleAfterRound;
    shoe.reshuffleAfterRound = undefined;
    requireReshuffle(draft, reason, draft.config.ruleset.misdeal.wrongCardCount.source);
    return;
  }
  const end = draft.config.ruleset.shoeEnd;
  if (shoe.cutOut) {
    endShoe(draft, 'cut card reached, the round in progress finished', end.source);
    return;
  }
  if (shoe.lastHand && (countsAfterMarker || shoe.lastHand.coupsLeft <= 0)) {
    const coupsLeft = shoe.lastHand.coupsLeft - (countsAfterMarker ? 1 : 0);
    shoe.lastHand = { coupsLeft };
    if (coupsLeft <= 0) endShoe(draft, 'last hand dealt after the marker', end.source);
  }
}

/**
 * Whether the dealer's hidden cards may be shown now: once the boxes have
 * played and the dealer plays its hand (blackjack, Triple Shot after the
 * blackjack decisions, 000 § 9.b); in the poker games only at the showdown,
 * when the round is complete (001 "Errores e infracciones" a).
 */
function dealerPlays(game: string, round: RoundState, step: NextStep): boolean {
  if (round.decisions === 0 || step.kind === 'complete') return step.kind === 'complete';
  if (step.kind === 'decision') return step.seat === 'dealer';
  if (game === 'triple-shot') return true;
  return game === 'blackjack' && step.to === 'dealer';
}

/** Takes the result once the engine says the round is complete. */
function settle(draft: Draft): void {
  const round = draft.round;
  if (!round) return;
  const { engine } = draft.config;
  const step = engine.next(round.engine);
  if (step.kind !== 'complete') {
    if (!round.dealerDue && dealerPlays(draft.config.ruleset.game, round, step)) {
      round.dealerDue = true;
    }
    return;
  }
  const outcome = engine.outcome(round.engine) as Record<string, unknown>;
  draft.events.push({
    type: 'result',
    round: round.number,
    outcome,
    ...(round.voided.length > 0 ? { voided: [...round.voided] } : {}),
  });
  discardHeld(draft);
  draft.round = undefined;
  afterRound(draft, round.afterMarker);
}

// --------------------------------------------------------------------- card

function cardEvent(
  draft: Draft,
  card: CardCode,
  to: CardDestination,
  back: string,
  face: 'up' | 'down',
  index: number,
  hand?: number,
): void {
  draft.events.push({
    type: 'card',
    card,
    to,
    back,
    face,
    index,
    ...(hand === undefined ? {} : { hand }),
  });
}

function onCard(draft: Draft, record: CardRecord): void {
  const { ruleset, options } = draft.config;
  const { card, back } = record;
  const shoe = draft.shoe;
  if (!shoe) {
    alarm(draft, 'unexpected_card', `${card} left the shoe before any shuffle was recorded`, {
      card,
      rule: SESSION_PRACTICE.noShuffle,
    });
    cardEvent(draft, card, 'discard', back, record.face, -1);
    return;
  }
  const index = shoe.dealt;
  shoe.dealt += 1;
  const at = { index, card };

  if (shoe.ended !== undefined) {
    alarm(draft, 'card_after_shoe_end', `${card} left the shoe after it ended (${shoe.ended})`, {
      ...at,
      reason: shoe.ended,
    });
    consume(shoe, card, back);
    cardEvent(draft, card, 'discard', back, record.face, index);
    return;
  }
  if (!shoe.backs.includes(back)) {
    alarm(
      draft,
      'wrong_back_colour',
      `${card} has a ${back} back; the deck in play is ${shoe.backs.join(', ')}`,
      { ...at, back, expected: [...shoe.backs], rule: ruleset.backs.source, ...roundDetail(draft) },
    );
    cardEvent(draft, card, 'discard', back, record.face, index);
    return;
  }
  if (!consume(shoe, card, back)) {
    alarm(
      draft,
      'foreign_card',
      `${card} (${back} back) is not in this shoe: ${card === JOKER ? 'it holds no marker' : `a ${shoe.decks}-deck shoe holds ${shoe.decks} of it and all are out`}`,
      { ...at, back, ...roundDetail(draft) },
    );
    cardEvent(draft, card, 'discard', back, record.face, index);
    return;
  }

  if (card === JOKER) {
    cardEvent(draft, card, 'marker', back, record.face, index);
    if (shoe.lastHand === undefined) startLastHand(draft, 'last-hand marker out');
    return;
  }

  checkOrder(draft, shoe, card, index);
  if (options.anomaly.enabled) {
    const observed = observe(shoe.anomaly, card, index);
    shoe.anomaly = observed.state;
    for (const finding of observed.findings) {
      alarm(draft, 'shuffle_suspect', finding.message, {
        index,
        test: finding.test,
        length: finding.length,
        from: finding.from,
        to: finding.to,
        bound: finding.bound,
        ...(finding.shoesBack === undefined
          ? {}
          : { shoesBack: finding.shoesBack, earlierFrom: finding.earlierFrom }),
      });
    }
  }

  if (record.face === 'up' && faceUpFound(draft, card, back, index)) return;

  if (shoe.burn) {
    burnAtShoeStart(draft, shoe, card, back, index);
    return;
  }

  if (!draft.round && options.autoRound && ruleset.game === 'punto-banco') {
    onRound(draft, { t: 'round' });
  }
  const round = draft.round;
  if (!round) {
    if (shoe.roundsFinished > 0) {
      alarm(
        draft,
        'wrong_card_count',
        `${card} left the shoe after round ${draft.rounds} was complete: no card was due`,
        { ...at, round: draft.rounds, rule: ruleset.misdeal.wrongCardCount.source },
      );
    } else {
      alarm(draft, 'unexpected_card', `${card} left the shoe before the first round began`, {
        ...at,
        rule: SESSION_PRACTICE.beforeFirstRound,
      });
    }
    cardEvent(draft, card, 'discard', back, 'down', index);
    return;
  }
  if (round.held.length > 0) {
    // The cards already drawn early come first: this one waits behind them.
    holdCard(draft, { card, back, index }, 'an earlier card is still waiting for its place');
    return;
  }
  dealToRound(draft, { card, back, index });
}

/** Takes a card out of the shoe's remaining set; false when the shoe has none of it left. */
function consume(shoe: Mutable<ShoeState>, card: CardCode, back: string): boolean {
  const key = compositionKey(card, back);
  const count = shoe.remaining.get(key) ?? 0;
  if (count <= 0) return false;
  const remaining = new Map(shoe.remaining);
  remaining.set(key, count - 1);
  shoe.remaining = remaining;
  shoe.left -= 1;
  return true;
}

function checkOrder(draft: Draft, shoe: Mutable<ShoeState>, card: StandardCard, index: number) {
  const position = shoe.orderPosition;
  shoe.orderPosition += 1;
  if (!shoe.order || shoe.orderBroken) return;
  const expected = shoe.order[position];
  if (expected === undefined || expected === card) return;
  // Only the first mismatch: after it the reported order no longer tells anything.
  shoe.orderBroken = true;
  alarm(
    draft,
    'sequence_mismatch',
    `card ${position + 1} of the shuffled shoe is ${card}; the shuffler reported ${expected} there`,
    { index, position, expected, seen: card, ...roundDetail(draft) },
  );
}

/** A card found face up in the shoe (000 § 14.a; 001 "Errores e infracciones" b). True when it is not used. */
function faceUpFound(draft: Draft, card: StandardCard, back: string, index: number): boolean {
  const shoe = draft.shoe!;
  const policy = draft.config.ruleset.misdeal.faceUpInShoe;
  shoe.faceUp += 1;
  const second = shoe.faceUp > 1 && policy.moreThanOne === 'void_all';
  alarm(
    draft,
    'face_up_card',
    `${card} was found face up in the shoe${shoe.faceUp > 1 ? ` (${shoe.faceUp} this round)` : ''}: ${second ? 'all hands are void' : policy.one === 'use' ? 'it is used' : 'it goes to the discard, dealing goes on'}`,
    { index, card, count: shoe.faceUp, rule: policy.source, ...roundDetail(draft) },
  );
  if (!second && policy.one === 'use' && shoe.faceUp === 1) return false;
  cardEvent(draft, card, 'discard', back, 'up', index);
  if (second) {
    if (draft.round) {
      voidRound(draft, 'all', 'more than one card found face up in the shoe', policy.source);
    } else {
      draft.events.push({
        type: 'hand_voided',
        reason: 'more than one card found face up in the shoe',
        boxes: 'all',
        rule: policy.source,
      });
    }
    if (policy.reshuffle)
      requireReshuffle(draft, 'more than one card found face up', policy.source);
  }
  return true;
}

function burnAtShoeStart(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  card: StandardCard,
  back: string,
  index: number,
): void {
  const burn = shoe.burn!;
  if (!burn.turned) {
    const policy = draft.config.ruleset.burn;
    const owed = burnCount(card, policy.kind === 'turn_and_burn' ? policy.tenValueBurns : 10);
    shoe.burn = { turned: true, owed };
    cardEvent(draft, card, 'burn', back, 'up', index);
    return;
  }
  const owed = burn.owed - 1;
  shoe.burn = owed > 0 ? { turned: true, owed } : undefined;
  const policy = draft.config.ruleset.burn;
  cardEvent(draft, card, 'burn', back, policy.kind === 'fixed' ? policy.face : 'down', index);
}

function startLastHand(draft: Draft, reason: string): void {
  const shoe = draft.shoe!;
  const end = draft.config.ruleset.shoeEnd;
  const coupsAfter = end.kind === 'last_hand_marker' ? end.coupsAfter : 0;
  shoe.lastHand = { coupsLeft: coupsAfter };
  draft.events.push({ type: 'last_hand', reason, rule: end.source });
  if (!draft.round && coupsAfter === 0) endShoe(draft, 'last-hand marker out', end.source);
}

function holdCard(draft: Draft, held: HeldCard, why: string): void {
  const round = draft.round!;
  const policy = draft.config.ruleset.misdeal.unexposedCardInError;
  if (policy.action === 'void_all') {
    alarm(draft, 'unexpected_card', `${held.card} left the shoe out of turn: ${why}`, {
      index: held.index,
      card: held.card,
      round: round.number,
      rule: policy.source,
    });
    cardEvent(draft, held.card, 'discard', held.back, 'down', held.index);
    voidRound(draft, 'all', `a card left the shoe out of turn`, policy.source);
    return;
  }
  alarm(
    draft,
    'unexpected_card',
    `${held.card} left the shoe out of turn: ${why}; it is used as the next card once one is due`,
    { index: held.index, card: held.card, round: round.number, rule: policy.source },
  );
  round.held = [...round.held, held];
}

/** The fixed burn due before this card step, if any (001 "Desarrollo del juego": flop, turn, river). */
function burnPointBefore(draft: Draft, step: NextStep & { kind: 'card' }): string | undefined {
  const round = draft.round!;
  const policy = draft.config.ruleset.burn;
  if (policy.kind !== 'fixed' || round.engineBurns) return undefined;
  const board = round.cards.board ?? 0;
  const dealtAny = Object.entries(round.cards).some(([to, count]) => to !== 'burn' && count > 0);
  const point = !dealtAny
    ? 'round'
    : step.to === 'board'
      ? board === 0
        ? 'flop'
        : board === 3
          ? 'turn'
          : board === 4
            ? 'river'
            : undefined
      : undefined;
  if (point === undefined) return undefined;
  const wanted = policy.points.find((p) => p.before === point)?.count ?? 0;
  return (round.burns[point] ?? 0) < wanted ? point : undefined;
}

/** Routes a card into the round: the engine's plan decides where it goes. */
function dealToRound(draft: Draft, held: HeldCard): void {
  const { engine, ruleset } = draft.config;
  const round = draft.round!;
  let state = round.engine;
  let step = engine.next(state);
  // A card can stand for several decisions in a row (every box declining insurance, then a hit).
  while (step.kind === 'decision' && step.onCard) {
    state = engine.decide(state, {
      seat: step.seat,
      action: step.onCard,
      ...(step.hand === undefined ? {} : { hand: step.hand }),
    });
    round.decisions += 1;
    step = engine.next(state);
  }
  if (step.kind === 'decision') {
    round.engine = state;
    holdCard(
      draft,
      held,
      `${seatName(step.seat)} is deciding (${step.options.join(', ')})${step.purpose ? `: ${step.purpose}` : ''}`,
    );
    return;
  }
  if (step.kind === 'complete') {
    round.engine = state;
    settle(draft);
    return;
  }
  const point = burnPointBefore(draft, step);
  if (point !== undefined) {
    round.burns = { ...round.burns, [point]: (round.burns[point] ?? 0) + 1 };
    round.cards = { ...round.cards, burn: (round.cards.burn ?? 0) + 1 };
    const face = ruleset.burn.kind === 'fixed' ? ruleset.burn.face : 'down';
    cardEvent(draft, held.card, 'burn', held.back, face, held.index);
    return;
  }
  if (step.to === 'burn') round.engineBurns = true;
  round.engine = engine.deal(state, held.card);
  round.cards = { ...round.cards, [step.to]: (round.cards[step.to] ?? 0) + 1 };
  if (step.to === 'dealer' && step.face === 'up') round.dealerCardUp = true;
  if (step.to === 'dealer' && step.face === 'down') round.dealerCardsDown += 1;
  cardEvent(draft, held.card, step.to, held.back, step.face, held.index, step.hand);
  settle(draft);
}

/** Feeds held cards (drawn early) into the round as soon as cards are due again. */
function drainHeld(draft: Draft): void {
  const { engine } = draft.config;
  for (;;) {
    const round = draft.round;
    if (!round || round.held.length === 0) return;
    const step = engine.next(round.engine);
    if (step.kind === 'complete') {
      settle(draft);
      return;
    }
    if (step.kind === 'decision' && !step.onCard) return;
    const [first, ...rest] = round.held;
    round.held = rest;
    dealToRound(draft, first!);
  }
}

// ------------------------------------------------------------------ the rest

function onCut(draft: Draft): void {
  const shoe = draft.shoe;
  if (!shoe || shoe.ended !== undefined) return;
  const end = draft.config.ruleset.shoeEnd;
  if (end.kind === 'cut_card') {
    if (!draft.round) {
      endShoe(draft, 'cut card reached', end.source);
    } else if (end.finishRound) {
      shoe.cutOut = true;
      draft.events.push({
        type: 'last_hand',
        reason: `cut card out: round ${draft.round.number} is the last of this shoe`,
        rule: end.source,
      });
    } else {
      voidRound(draft, 'all', 'cut card reached during the round', end.source);
      endShoe(draft, 'cut card reached', end.source);
    }
    return;
  }
  if (end.kind === 'last_hand_marker' && shoe.lastHand === undefined) {
    startLastHand(draft, 'last-hand marker out');
  }
}

function seatName(seat: Seat): string {
  return seat === 'dealer' ? 'the dealer' : `box ${seat.slice(4)}`;
}

function onAction(draft: Draft, record: ActionRecord): void {
  const round = draft.round;
  const seat: Seat = record.box === undefined ? 'dealer' : `box:${record.box}`;
  if (!round) {
    alarm(draft, 'illegal_action', `${seatName(seat)} ${record.action}: no round in progress`, {
      seat,
      action: record.action,
    });
    return;
  }
  const { engine } = draft.config;
  try {
    round.engine = engine.decide(round.engine, {
      seat,
      action: record.action as Action,
      ...(record.cards ? { cards: record.cards } : {}),
    });
  } catch (error) {
    if (!isEngineError(error)) throw error;
    alarm(draft, 'illegal_action', `${seatName(seat)} ${record.action}: ${error.message}`, {
      seat,
      action: record.action,
      round: round.number,
    });
    return;
  }
  round.decisions += 1;
  settle(draft);
  drainHeld(draft);
}

function onVoid(draft: Draft, reason: string): void {
  if (!draft.round) {
    alarm(draft, 'illegal_action', `void (${reason}): no round in progress`);
    return;
  }
  voidRound(draft, 'all', reason, SESSION_PRACTICE.supervisorVoid);
}

function onMisdeal(draft: Draft, record: MisdealRecord): void {
  const { ruleset } = draft.config;
  const round = draft.round;
  const seat: Seat = record.box === undefined ? 'dealer' : `box:${record.box}`;
  if (record.kind === 'dealer_card_exposed') {
    const policy = ruleset.misdeal.dealerCardExposedEarly;
    // Nothing hidden to expose yet, or the dealer's cards are due: not a misdeal.
    if (policy.action === 'not_applicable' || !round || round.dealerDue) return;
    if (round.dealerCardsDown === 0) return;
    alarm(
      draft,
      'dealer_card_exposed',
      `a dealer card was shown before its time in round ${round.number}`,
      { round: round.number, rule: policy.source },
    );
    if (policy.action === 'void_all') {
      voidRound(draft, 'all', 'a dealer card was shown before its time', policy.source);
      if (policy.reshuffle) requireReshuffle(draft, 'a dealer card was shown early', policy.source);
    }
    return;
  }
  const policy = ruleset.misdeal.wrongCardCount;
  const held = record.cards === undefined ? '' : ` (holds ${record.cards})`;
  if (!round) {
    alarm(
      draft,
      'wrong_card_count',
      `${seatName(seat)} has the wrong number of cards${held}, reported with no round in progress: nothing to void`,
      { seat },
    );
    return;
  }
  const action = seat === 'dealer' ? policy.dealer : policy.box;
  const corrected =
    action === 'void_all_unless_correctable' && record.correctable === true && !round.dealerCardUp;
  alarm(
    draft,
    'wrong_card_count',
    `${seatName(seat)} has the wrong number of cards${held} in round ${round.number}: ${corrected ? 'corrected without changing the card sequence, play goes on' : action === 'void_box' ? `box ${record.box} is void` : 'all hands are void'}`,
    { seat, round: round.number, rule: policy.source, ...(corrected ? { corrected: true } : {}) },
  );
  if (corrected) return;
  if (action === 'void_box' && record.box !== undefined) {
    voidRound(
      draft,
      [record.box],
      `box ${record.box} has the wrong number of cards`,
      policy.source,
    );
    if (policy.reshuffle && draft.shoe) {
      draft.shoe.reshuffleAfterRound = `box ${record.box} had the wrong number of cards`;
    }
    return;
  }
  voidRound(draft, 'all', `${seatName(seat)} has the wrong number of cards`, policy.source);
  if (policy.reshuffle) requireReshuffle(draft, 'wrong number of cards', policy.source);
}

// ----------------------------------------------------------------- describe

function describeStep(step: NextStep): string {
  if (step.kind === 'complete') return 'complete';
  if (step.kind === 'card') return step.purpose ?? `card to ${step.to}`;
  return `${seatName(step.seat)} decides (${step.options.join(', ')})`;
}

export type Expectation =
  | { readonly kind: 'shuffle'; readonly text: string }
  | {
      readonly kind: 'burn';
      readonly text: string;
      readonly owed?: number;
      readonly point?: string;
    }
  | { readonly kind: 'round'; readonly text: string }
  | {
      readonly kind: 'card';
      readonly to: CardDestination;
      readonly hand?: number;
      readonly face: 'up' | 'down';
      readonly text: string;
      readonly purpose?: string;
    }
  | {
      readonly kind: 'decision';
      readonly seat: Seat;
      readonly hand?: number;
      readonly options: readonly string[];
      /** What a card drawn now stands for (a hit); absent where a card now is an alarm. */
      readonly onCard?: string;
      readonly text: string;
    };

function destinationName(to: string): string {
  return to.startsWith('box:') ? `box ${to.slice(4)}` : to;
}

/** What the next card (or press) is for: the dealer lights. Never names a card. */
export function expecting(config: SessionConfig, state: SessionState): Expectation {
  const shoe = state.shoe;
  if (!shoe) return { kind: 'shuffle', text: 'shuffle: no shoe in play' };
  if (shoe.ended !== undefined)
    return { kind: 'shuffle', text: `shoe ended (${shoe.ended}): shuffle` };
  if (shoe.burn) {
    return shoe.burn.turned
      ? { kind: 'burn', owed: shoe.burn.owed, text: `burn ${shoe.burn.owed} more` }
      : { kind: 'burn', text: 'burn: turn the first card' };
  }
  const round = state.round;
  if (!round && config.ruleset.shoeEnd.kind === 'reshuffle_every_round' && shoe.rounds > 0) {
    // A deck serves one round: a shuffle (and, with two decks, the other colour)
    // before every round (000 § 7, § 2.c.2; 001 "El juego" 4 Barajar: "en cada mano").
    // The deck is not ended here: a round started on it anyway is the alarm
    // `onRound` raises (deck_not_alternated, missing_shuffle).
    return {
      kind: 'shuffle',
      text: `deck used for round ${state.rounds}: shuffle (${config.ruleset.shoeEnd.source})`,
    };
  }
  if (!round) {
    const last = shoe.lastHand ? ` (last hand: ${Math.max(0, shoe.lastHand.coupsLeft)} more)` : '';
    return { kind: 'round', text: `start a round${last}` };
  }
  const step = config.engine.next(round.engine);
  if (step.kind === 'decision') {
    return {
      kind: 'decision',
      seat: step.seat,
      ...(step.hand === undefined ? {} : { hand: step.hand }),
      options: step.options,
      ...(step.onCard ? { onCard: step.onCard } : {}),
      text: `${seatName(step.seat)}: ${step.options.join(' or ')}`,
    };
  }
  if (step.kind === 'complete') return { kind: 'round', text: 'start a round' };
  const draft = { config, round } as unknown as Draft;
  const point = burnPointBefore(draft, step);
  if (point !== undefined) return { kind: 'burn', point, text: `burn before the ${point}` };
  const so_far = round.cards[step.to] ?? 0;
  const name = destinationName(step.to);
  const text =
    step.to === 'board' || step.to === 'burn'
      ? `${name} card ${so_far + 1}`
      : so_far >= 2
        ? `${name} draws`
        : `${name} card ${so_far + 1}`;
  return {
    kind: 'card',
    to: step.to,
    ...(step.hand === undefined ? {} : { hand: step.hand }),
    face: step.face,
    text,
    ...(step.purpose ? { purpose: step.purpose } : {}),
  };
}

/** The JSON view for the MQTT `state` topic: cards dealt, counts, round, next step. Never undealt cards. */
export function snapshot(config: SessionConfig, state: SessionState): Record<string, unknown> {
  const shoe = state.shoe;
  const round = state.round;
  return {
    ruleset: config.ruleset.name,
    game: config.ruleset.game,
    shoe: shoe
      ? {
          number: shoe.number,
          decks: shoe.decks,
          backs: [...shoe.backs],
          cards: shoe.size,
          dealt: shoe.dealt,
          remaining: shoe.left,
          rounds: shoe.rounds,
          lastHand: shoe.lastHand !== undefined,
          cutOut: shoe.cutOut,
          ended: shoe.ended ?? null,
          shufflerOrder: shoe.order ? (shoe.orderBroken ? 'mismatch' : 'verified') : 'none',
        }
      : null,
    round: round
      ? {
          number: round.number,
          ...(round.boxes ? { boxes: [...round.boxes] } : {}),
          table: config.engine.view(round.engine),
          voided: [...round.voided],
          waitingCards: round.held.length,
        }
      : null,
    rounds: state.rounds,
    expecting: expecting(config, state),
  };
}
