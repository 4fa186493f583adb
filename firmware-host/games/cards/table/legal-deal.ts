/**
 * Deals a legal table session for a ruleset from a seeded shuffle: the
 * table-log records a correct shoe, shuffler and dealer would produce
 * (shuffles, burns, rounds, cards, the scripted dealer's decisions, cut
 * card or last-hand marker). The simulators feed these to the daemon; the
 * property tests feed them to the session and expect no alarm.
 *
 * Pure: randomness only from the `random` function passed in (use
 * `seededRandom(seed)`), no clock (timestamps from `clock`). The plan comes
 * from the engine and the ruleset, written here independently of the
 * session, so the session is checked against a second reading of the rules.
 */
import {
  type CardCode,
  JOKER,
  type StandardCard,
  standardDeck,
} from '../../../../device-protocol/cards.ts';
import type { Ruleset } from '../../../engine/rulesets/schema.ts';
import type { Action, GameEngine, NextStep } from '../../../engine/types.ts';
import type { TableLogRecord } from '../../../table/log.ts';
import { burnCount } from '../baccarat/burn.ts';

/** mulberry32: a small, fast, seedable PRNG in [0, 1). Deterministic for a seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates with the PRNG given: a uniformly random permutation. */
export function shuffleCards<T>(cards: readonly T[], random: () => number): T[] {
  const out = [...cards];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

export interface LegalDealOptions {
  readonly ruleset: Ruleset;
  readonly engine: GameEngine<unknown>;
  readonly random: () => number;
  /** Shoes to deal (for games reshuffled every round, a shoe is one round). Default 1. */
  readonly shoes?: number;
  /** Stop a shoe after this many rounds (before its natural end). Default: none. */
  readonly maxRoundsPerShoe?: number;
  /** Decks per back colour; default the ruleset's default. */
  readonly decks?: number;
  /** Include the shuffler's reported order in each `shuffle` record. */
  readonly withOrder?: boolean;
  /**
   * The cards in the order they leave the shoe, dealt instead of a seeded
   * shuffle (the same order for every shoe). A joker in it is the last-hand
   * marker where it lies; without one the marker goes where the ruleset puts
   * it. May be shorter than a full shoe (what is left of one).
   */
  readonly order?: readonly CardCode[];
  /**
   * With `order`: the cut card (or cut-card marker) comes out after this
   * many cards, where the dealer put it, instead of where the ruleset's
   * room rule would.
   */
  readonly cutAfter?: number;
  /** Boxes in play per round; default a random non-empty set. */
  readonly boxes?: readonly number[];
  /** Chance that the scripted dealer lets a card stand for a decision (a hit) instead of pressing it. Default 0.5. */
  readonly impliedDecisions?: number;
  /**
   * A shuffler that misreports: given the shuffled shoe (what the shuffler
   * reports in `order`), returns the order the cards really lie in. The
   * deal follows the real order, so the log is legal but for the mismatch.
   */
  readonly tamper?: (reported: readonly StandardCard[], shoe: number) => StandardCard[];
  /** Timestamps: first record at `start`, then `step` ms apart. */
  readonly clock?: { readonly start: number; readonly step: number };
}

/** What each record is, for tests that inject faults at the right place. */
export type DealNote =
  | { readonly kind: 'shuffle'; readonly shoe: number }
  | { readonly kind: 'burn'; readonly shoe: number; readonly index: number }
  | { readonly kind: 'round'; readonly shoe: number; readonly round: number }
  | {
      readonly kind: 'card';
      readonly shoe: number;
      readonly round: number;
      readonly index: number;
      readonly to: string;
      /** The decision the card stands for (a hit), when the dealer pressed nothing. */
      readonly implied?: Action;
    }
  | { readonly kind: 'action'; readonly shoe: number; readonly round: number }
  | { readonly kind: 'marker'; readonly shoe: number; readonly index?: number };

export interface LegalDeal {
  readonly records: TableLogRecord[];
  /** One note per record, same order. */
  readonly notes: DealNote[];
  /**
   * Rounds the shoe could not complete: the deal stops there, and the table
   * voids the round and ends the shoe on its own (no record says so).
   */
  readonly exhausted: ReadonlyArray<{ readonly shoe: number; readonly round: number }>;
}

/** Most boxes the ruleset allows (blackjack `maxBoxes`, Triple Shot `maxPositions`), else 7. */
export function maxBoxesOf(ruleset: Ruleset): number {
  const fields = ruleset as unknown as { maxBoxes?: number; maxPositions?: number };
  return fields.maxBoxes ?? fields.maxPositions ?? 7;
}

function randomBoxes(max: number, random: () => number): number[] {
  const boxes = [];
  for (let box = 1; box <= max; box += 1) if (random() < 0.5) boxes.push(box);
  if (boxes.length === 0) boxes.push(1 + Math.floor(random() * max));
  return boxes;
}

/** Adds boxes until the engine accepts the setup (seven-card stud needs two players). */
function seatable(engine: GameEngine<unknown>, boxes: number[]): number[] {
  const seated = [...boxes];
  for (let box = 1; box <= 7; box += 1) {
    try {
      engine.start({ boxes: seated });
      return seated;
    } catch {
      if (!seated.includes(box)) seated.push(box);
      seated.sort((a, b) => a - b);
    }
  }
  return seated;
}

/** Cards dealt so far in a round, by destination; `engineBurns`: the engine deals its own burn cards. */
interface RoundCards {
  readonly to: Record<string, number>;
  engineBurns: boolean;
}

function tookCard(cards: RoundCards, to: string): void {
  cards.to[to] = (cards.to[to] ?? 0) + 1;
}

/**
 * Where fixed burns fall, as the ruleset names them: before the round, or
 * before flop/turn/river. An engine that plans its own burns (Hold'em: its
 * next step is the burn) gets none added, before its first burn as after.
 */
function fixedBurnsBefore(ruleset: Ruleset, step: NextStep, cards: RoundCards): number {
  if (ruleset.burn.kind !== 'fixed' || step.kind !== 'card') return 0;
  if (step.to === 'burn') cards.engineBurns = true;
  if (cards.engineBurns) return 0;
  const dealt = Object.values(cards.to).reduce((sum, n) => sum + n, 0);
  const board = cards.to.board ?? 0;
  let point: string | undefined;
  if (dealt === 0) point = 'round';
  else if (step.to === 'board')
    point = board === 0 ? 'flop' : board === 3 ? 'turn' : board === 4 ? 'river' : undefined;
  return ruleset.burn.points.find((p) => p.before === point)?.count ?? 0;
}

/**
 * The scripted dealer: a random legal option. Draw games need card
 * positions with `exchange`; the engine says which counts are legal only by
 * refusing, so counts are tried from a random one.
 */
function scriptedDecision(
  engine: GameEngine<unknown>,
  state: unknown,
  step: Extract<NextStep, { kind: 'decision' }>,
  random: () => number,
): { state: unknown; action: Action; cards?: number[] } {
  const options = shuffleCards(step.options, random);
  const positions = shuffleCards([0, 1, 2, 3, 4], random);
  const hand = step.hand === undefined ? {} : { hand: step.hand };
  const counts = shuffleCards([1, 2, 3, 4, 5], random);
  for (const action of options) {
    for (const count of [0, ...counts]) {
      const cards = count === 0 ? undefined : positions.slice(0, count).sort((a, b) => a - b);
      try {
        const next = engine.decide(state, {
          seat: step.seat,
          action,
          ...hand,
          ...(cards ? { cards } : {}),
        });
        return { state: next, action, ...(cards ? { cards } : {}) };
      } catch {
        // Not legal in this form: try the next count or option.
      }
    }
  }
  throw new Error(`the scripted dealer found no legal decision among ${step.options.join(', ')}`);
}

/** What the whole session shares: the options, the records written so far and the round count. */
interface SessionDeal {
  readonly options: LegalDealOptions;
  readonly ruleset: Ruleset;
  readonly engine: GameEngine<unknown>;
  readonly random: () => number;
  readonly emit: (record: TableLogRecord, note: DealNote) => void;
  readonly exhausted: Array<{ shoe: number; round: number }>;
  /** Rounds dealt in the session so far. */
  round: number;
}

/**
 * The physical shoe being dealt: the cards in the order they lie, the
 * marker or cut card among them, and how far the dealer has drawn.
 */
class PhysicalShoe {
  next = 0;
  markerOut = false;
  #standardLeft: number;

  constructor(
    readonly session: SessionDeal,
    readonly shoe: number,
    readonly back: string,
    readonly physical: readonly CardCode[],
    private cutAt: number | undefined,
    /** 003 § 24(1): the covered last card is never dealt. */
    private readonly covered: number,
  ) {
    this.#standardLeft = physical.filter((card) => card !== JOKER).length;
  }

  /** Cards the shoe can still deal. */
  dealable(): number {
    return Math.max(0, this.#standardLeft - this.covered);
  }

  /** Takes the next physical card; false when the shoe has none left to deal. */
  draw(note: (index: number) => DealNote): boolean {
    const { emit } = this.session;
    if (this.next === this.cutAt) {
      this.cutAt = undefined;
      emit({ t: 'cut' }, { kind: 'marker', shoe: this.shoe });
      this.markerOut = true;
    }
    if (this.dealable() === 0) return false;
    let card = this.physical[this.next];
    if (card === JOKER) {
      emit(
        { t: 'card', card, back: this.back, face: 'down' },
        { kind: 'marker', shoe: this.shoe, index: this.next },
      );
      this.next += 1;
      this.markerOut = true;
      card = this.physical[this.next];
    }
    if (card === undefined || card === JOKER) return false;
    emit({ t: 'card', card, back: this.back, face: 'down' }, note(this.next));
    this.next += 1;
    this.#standardLeft -= 1;
    return true;
  }

  /** Draws a burn card; false when the shoe has none left to deal. */
  burn(): boolean {
    return this.draw((index) => ({ kind: 'burn', shoe: this.shoe, index }));
  }

  /** The card the next draw takes (the marker stepped over), if the shoe can deal one. */
  peek(): StandardCard | undefined {
    if (this.dealable() === 0) return undefined;
    const card = this.physical[this.next + (this.physical[this.next] === JOKER ? 1 : 0)];
    return card === undefined || card === JOKER ? undefined : card;
  }
}

/** The order the shuffler reports: the given order, or a seeded shuffle of the decks. */
function reportedOrder(session: SessionDeal, decks: number): StandardCard[] {
  const { options, random } = session;
  // The shuffler reports the cards; the marker is placed after the shuffle (003 § 24(1)).
  if (options.order) return options.order.filter((card): card is StandardCard => card !== JOKER);
  const cards: StandardCard[] = [];
  for (let d = 0; d < decks; d += 1) cards.push(...standardDeck());
  return shuffleCards(cards, random);
}

/** The shoe as it lies, with the marker where the dealer puts it, and where the cut card comes out. */
function layShoe(
  session: SessionDeal,
  reported: StandardCard[],
  shoe: number,
): { physical: CardCode[]; cutAt: number | undefined } {
  const { options } = session;
  const end = session.ruleset.shoeEnd;
  const physical: CardCode[] = options.tamper
    ? options.tamper(reported, shoe)
    : options.order
      ? [...options.order]
      : [...reported];
  let cutAt: number | undefined;
  if (end.kind === 'last_hand_marker') {
    // Room behind the marker for the coup in progress and the coups after it (6 cards each).
    const behind = Math.max(end.cardsBehind, 6 * (end.coupsAfter + 1));
    const at = Math.max(0, physical.length - behind);
    if (end.marker === 'cut_card') cutAt = options.cutAfter ?? at;
    else if (!physical.includes(JOKER)) physical.splice(at, 0, JOKER);
  } else if (end.kind === 'cut_card') {
    cutAt = options.cutAfter ?? Math.round(physical.length * (1 - end.fractionBehind));
  }
  return { physical, cutAt };
}

/** The burns a new shoe owes (turn and burn, or the ruleset's fixed new-shoe burns). */
function burnNewShoe(ruleset: Ruleset, shoe: PhysicalShoe): void {
  const burn = ruleset.burn;
  let owed = 0;
  if (burn.kind === 'turn_and_burn') {
    const first = shoe.physical[0] as StandardCard;
    shoe.burn();
    owed = burnCount(first, burn.tenValueBurns);
  } else if (burn.kind === 'fixed') {
    owed = burn.points.find((point) => point.before === 'new_shoe')?.count ?? 0;
  }
  for (let i = 0; i < owed; i += 1) shoe.burn();
}

/** One round in play: the engine's state and the cards dealt so far. */
interface RoundInPlay {
  readonly round: number;
  state: unknown;
  readonly dealt: RoundCards;
}

/** Deals the fixed burns due before `step`, then the card; false when the shoe runs out. */
function dealStep(
  session: SessionDeal,
  shoe: PhysicalShoe,
  play: RoundInPlay,
  step: NextStep & { kind: 'card' },
  implied?: Action,
): boolean {
  const burns = fixedBurnsBefore(session.ruleset, step, play.dealt);
  for (let i = 0; i < burns; i += 1) {
    if (!shoe.burn()) return false;
    tookCard(play.dealt, 'burn');
  }
  const card = shoe.peek();
  if (card === undefined) return false;
  shoe.draw((index) => ({
    kind: 'card',
    shoe: shoe.shoe,
    round: play.round,
    index,
    to: step.to,
    ...(implied === undefined ? {} : { implied }),
  }));
  play.state = session.engine.deal(play.state, card);
  tookCard(play.dealt, step.to);
  return true;
}

/**
 * A card standing for the decision (a hit): the decisions it implies, then
 * the card; false when the shoe runs out.
 */
function dealImplied(
  session: SessionDeal,
  shoe: PhysicalShoe,
  play: RoundInPlay,
  step: Extract<NextStep, { kind: 'decision' }>,
): boolean {
  const { engine } = session;
  const action = step.onCard;
  let cardStep: NextStep = step;
  // A card can stand for several decisions in a row (no insurance all round, then a hit).
  while (cardStep.kind === 'decision' && cardStep.onCard) {
    play.state = engine.decide(play.state, {
      seat: cardStep.seat,
      action: cardStep.onCard,
      ...(cardStep.hand === undefined ? {} : { hand: cardStep.hand }),
    });
    cardStep = engine.next(play.state);
  }
  return cardStep.kind === 'card' && dealStep(session, shoe, play, cardStep, action);
}

/** The scripted dealer presses a decision: its record. */
function pressDecision(
  session: SessionDeal,
  shoe: PhysicalShoe,
  play: RoundInPlay,
  step: Extract<NextStep, { kind: 'decision' }>,
): void {
  const chosen = scriptedDecision(session.engine, play.state, step, session.random);
  const box = step.seat === 'dealer' ? undefined : Number(step.seat.slice(4));
  play.state = chosen.state;
  session.emit(
    {
      t: 'action',
      ...(box === undefined ? {} : { box }),
      action: chosen.action,
      ...(chosen.cards ? { cards: [...chosen.cards] } : {}),
    },
    { kind: 'action', shoe: shoe.shoe, round: play.round },
  );
}

/** Plays one round from its record to its outcome; false when the shoe ran out during it. */
function playRound(session: SessionDeal, shoe: PhysicalShoe): boolean {
  const { options, ruleset, engine, random } = session;
  const implied = options.impliedDecisions ?? 0.5;
  const round = session.round;
  const boxes =
    engine.seatsBoxes === false
      ? undefined
      : (options.boxes ?? seatable(engine, randomBoxes(maxBoxesOf(ruleset), random)));
  session.emit(
    { t: 'round', ...(boxes ? { boxes: [...boxes] } : {}) },
    { kind: 'round', shoe: shoe.shoe, round },
  );
  const play: RoundInPlay = {
    round,
    state: engine.start(boxes ? { boxes } : {}),
    dealt: { to: {}, engineBurns: false },
  };
  for (;;) {
    const step = engine.next(play.state);
    if (step.kind === 'complete') return true;
    if (step.kind === 'card') {
      if (!dealStep(session, shoe, play, step)) return false;
      continue;
    }
    // A card stands for the decision only while the shoe has one to deal.
    if (step.onCard && random() < implied && shoe.dealable() > 0) {
      if (!dealImplied(session, shoe, play, step)) return false;
      continue;
    }
    pressDecision(session, shoe, play, step);
  }
}

/** Deals one shoe: its shuffle, its burns and rounds until the shoe ends. */
function dealShoe(session: SessionDeal, shoeNumber: number): void {
  const { options, ruleset } = session;
  const decks = options.decks ?? ruleset.decks.default;
  const end = ruleset.shoeEnd;
  const back =
    ruleset.backs.kind === 'single'
      ? ruleset.backs.colour
      : ruleset.backs.colours[(shoeNumber - 1) % 2]!;
  const reported = reportedOrder(session, decks);
  session.emit(
    {
      t: 'shuffle',
      decks,
      backs: [back],
      ...(options.withOrder ? { order: reported as CardCode[] } : {}),
    },
    { kind: 'shuffle', shoe: shoeNumber },
  );
  const { physical, cutAt } = layShoe(session, reported, shoeNumber);
  // 003 § 24(1): the covered last card is never dealt.
  const covered = end.kind === 'last_hand_marker' && end.lastCardCovered ? 1 : 0;
  const shoe = new PhysicalShoe(session, shoeNumber, back, physical, cutAt, covered);
  burnNewShoe(ruleset, shoe);
  // A round starts only while the cards it takes at least are left (a card, or the ruleset's count).
  const roundNeeds = end.kind === 'last_hand_marker' ? end.exhaustion.coupNeeds : 1;
  let lastRound = false;
  let coupsLeft = Number.POSITIVE_INFINITY;
  let roundsInShoe = 0;
  for (;;) {
    if (options.maxRoundsPerShoe !== undefined && roundsInShoe >= options.maxRoundsPerShoe) return;
    if (end.kind === 'reshuffle_every_round' && roundsInShoe >= 1) return;
    if (lastRound || coupsLeft <= 0) return;
    if (shoe.markerOut && end.kind === 'cut_card') return;
    // Too few cards for a round: the table ends the shoe instead of starting one.
    if (shoe.dealable() < roundNeeds) return;
    const markerBefore = shoe.markerOut;
    session.round += 1;
    roundsInShoe += 1;
    if (!playRound(session, shoe)) {
      // The table voids the round and ends the shoe when it sees no card left.
      session.exhausted.push({ shoe: shoeNumber, round: session.round });
      return;
    }
    if (end.kind === 'last_hand_marker' && shoe.markerOut) {
      // The coup in progress when the marker came out does not count (003 § 24 item 5).
      coupsLeft = markerBefore ? coupsLeft - 1 : end.coupsAfter;
      if (coupsLeft <= 0) return;
    }
    if (end.kind === 'cut_card' && shoe.markerOut) lastRound = true;
  }
}

export function dealLegalSession(options: LegalDealOptions): LegalDeal {
  const records: TableLogRecord[] = [];
  const notes: DealNote[] = [];
  const clock = options.clock ?? { start: 1_700_000_000_000, step: 1_000 };
  const session: SessionDeal = {
    options,
    ruleset: options.ruleset,
    engine: options.engine,
    random: options.random,
    emit: (record, note) => {
      records.push({ ...record, ts: clock.start + records.length * clock.step });
      notes.push(note);
    },
    exhausted: [],
    round: 0,
  };
  for (let shoeNumber = 1; shoeNumber <= (options.shoes ?? 1); shoeNumber += 1) {
    dealShoe(session, shoeNumber);
  }
  return { records, notes, exhausted: session.exhausted };
}
