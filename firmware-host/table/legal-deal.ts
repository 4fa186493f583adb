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
} from '../../device-protocol/cards.ts';
import { burnCount } from '../engine/baccarat/burn.ts';
import type { Ruleset } from '../engine/rulesets/schema.ts';
import type { Action, GameEngine, NextStep } from '../engine/types.ts';
import type { TableLogRecord } from './log.ts';

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

export function dealLegalSession(options: LegalDealOptions): LegalDeal {
  const { ruleset, engine, random } = options;
  const records: TableLogRecord[] = [];
  const notes: DealNote[] = [];
  const exhausted: Array<{ shoe: number; round: number }> = [];
  const clock = options.clock ?? { start: 1_700_000_000_000, step: 1_000 };
  const emit = (record: TableLogRecord, note: DealNote) => {
    records.push({ ...record, ts: clock.start + records.length * clock.step });
    notes.push(note);
  };
  const decks = options.decks ?? ruleset.decks.default;
  const implied = options.impliedDecisions ?? 0.5;
  const end = ruleset.shoeEnd;
  // 003 § 24(1): the covered last card is never dealt.
  const covered = end.kind === 'last_hand_marker' && end.lastCardCovered ? 1 : 0;
  // A round starts only while the cards it takes at least are left (a card, or the ruleset's count).
  const roundNeeds = end.kind === 'last_hand_marker' ? end.exhaustion.coupNeeds : 1;
  let round = 0;

  for (let shoeNumber = 1; shoeNumber <= (options.shoes ?? 1); shoeNumber += 1) {
    const back =
      ruleset.backs.kind === 'single'
        ? ruleset.backs.colour
        : ruleset.backs.colours[(shoeNumber - 1) % 2]!;
    let reported: StandardCard[];
    if (options.order) {
      // The shuffler reports the cards; the marker is placed after the shuffle (003 § 24(1)).
      reported = options.order.filter((card): card is StandardCard => card !== JOKER);
    } else {
      const cards: StandardCard[] = [];
      for (let d = 0; d < decks; d += 1) cards.push(...standardDeck());
      reported = shuffleCards(cards, random);
    }
    emit(
      {
        t: 'shuffle',
        decks,
        backs: [back],
        ...(options.withOrder ? { order: reported as CardCode[] } : {}),
      },
      { kind: 'shuffle', shoe: shoeNumber },
    );

    // The physical shoe: the shuffled cards, with the marker where the dealer puts it.
    const physical: CardCode[] = options.tamper
      ? options.tamper(reported, shoeNumber)
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
    let next = 0;
    let markerOut = false;
    let lastRound = false;
    let coupsLeft = Number.POSITIVE_INFINITY;
    let standardLeft = physical.filter((card) => card !== JOKER).length;
    /** Cards the shoe can still deal. */
    const dealable = () => Math.max(0, standardLeft - covered);

    /** Takes the next physical card; false when the shoe has none left to deal. */
    const draw = (note: (index: number) => DealNote): boolean => {
      if (next === cutAt) {
        cutAt = undefined;
        emit({ t: 'cut' }, { kind: 'marker', shoe: shoeNumber });
        markerOut = true;
      }
      if (dealable() === 0) return false;
      let card = physical[next];
      if (card === JOKER) {
        emit(
          { t: 'card', card, back, face: 'down' },
          { kind: 'marker', shoe: shoeNumber, index: next },
        );
        next += 1;
        markerOut = true;
        card = physical[next];
      }
      if (card === undefined || card === JOKER) return false;
      emit({ t: 'card', card, back, face: 'down' }, note(next));
      next += 1;
      standardLeft -= 1;
      return true;
    };
    /** The card the next draw takes (the marker stepped over), if the shoe can deal one. */
    const peek = (): StandardCard | undefined => {
      if (dealable() === 0) return undefined;
      const card = physical[next + (physical[next] === JOKER ? 1 : 0)];
      return card === undefined || card === JOKER ? undefined : card;
    };

    const burn = ruleset.burn;
    let owed = 0;
    if (burn.kind === 'turn_and_burn') {
      const first = physical[0] as StandardCard;
      draw((index) => ({ kind: 'burn', shoe: shoeNumber, index }));
      owed = burnCount(first, burn.tenValueBurns);
    } else if (burn.kind === 'fixed') {
      owed = burn.points.find((point) => point.before === 'new_shoe')?.count ?? 0;
    }
    for (let i = 0; i < owed; i += 1) draw((index) => ({ kind: 'burn', shoe: shoeNumber, index }));

    let roundsInShoe = 0;
    for (;;) {
      if (options.maxRoundsPerShoe !== undefined && roundsInShoe >= options.maxRoundsPerShoe) break;
      if (end.kind === 'reshuffle_every_round' && roundsInShoe >= 1) break;
      if (lastRound || coupsLeft <= 0) break;
      if (markerOut && end.kind === 'cut_card') break;
      // Too few cards for a round: the table ends the shoe instead of starting one.
      if (dealable() < roundNeeds) break;
      const markerBefore = markerOut;
      round += 1;
      roundsInShoe += 1;
      const boxes =
        ruleset.game === 'punto-banco'
          ? undefined
          : (options.boxes ?? seatable(engine, randomBoxes(maxBoxesOf(ruleset), random)));
      emit(
        { t: 'round', ...(boxes ? { boxes: [...boxes] } : {}) },
        { kind: 'round', shoe: shoeNumber, round },
      );
      let state = engine.start(boxes ? { boxes } : {});
      const dealt: RoundCards = { to: {}, engineBurns: false };
      let ranOut = false;
      /** Deals the fixed burns due before `step`, then the card; false when the shoe runs out. */
      const dealStep = (step: NextStep & { kind: 'card' }, implied?: Action): boolean => {
        const burns = fixedBurnsBefore(ruleset, step, dealt);
        for (let i = 0; i < burns; i += 1) {
          if (!draw((index) => ({ kind: 'burn', shoe: shoeNumber, index }))) return false;
          tookCard(dealt, 'burn');
        }
        const card = peek();
        if (card === undefined) return false;
        draw((index) => ({
          kind: 'card',
          shoe: shoeNumber,
          round,
          index,
          to: step.to,
          ...(implied === undefined ? {} : { implied }),
        }));
        state = engine.deal(state, card);
        tookCard(dealt, step.to);
        return true;
      };
      for (;;) {
        const step = engine.next(state);
        if (step.kind === 'complete') break;
        if (step.kind === 'decision') {
          // A card stands for the decision only while the shoe has one to deal.
          if (step.onCard && random() < implied && dealable() > 0) {
            const action = step.onCard;
            let cardStep: NextStep = step;
            // A card can stand for several decisions in a row (no insurance all round, then a hit).
            while (cardStep.kind === 'decision' && cardStep.onCard) {
              state = engine.decide(state, {
                seat: cardStep.seat,
                action: cardStep.onCard,
                ...(cardStep.hand === undefined ? {} : { hand: cardStep.hand }),
              });
              cardStep = engine.next(state);
            }
            if (cardStep.kind !== 'card' || !dealStep(cardStep, action)) {
              ranOut = true;
              break;
            }
            continue;
          }
          const chosen = scriptedDecision(engine, state, step, random);
          const box = step.seat === 'dealer' ? undefined : Number(step.seat.slice(4));
          state = chosen.state;
          emit(
            {
              t: 'action',
              ...(box === undefined ? {} : { box }),
              action: chosen.action,
              ...(chosen.cards ? { cards: [...chosen.cards] } : {}),
            },
            { kind: 'action', shoe: shoeNumber, round },
          );
          continue;
        }
        if (!dealStep(step)) {
          ranOut = true;
          break;
        }
      }
      if (ranOut) {
        // The table voids the round and ends the shoe when it sees no card left.
        exhausted.push({ shoe: shoeNumber, round });
        break;
      }
      if (end.kind === 'last_hand_marker' && markerOut) {
        // The coup in progress when the marker came out does not count (003 § 24 item 5).
        coupsLeft = markerBefore ? coupsLeft - 1 : end.coupsAfter;
        if (coupsLeft <= 0) break;
      }
      if (end.kind === 'cut_card' && markerOut) lastRound = true;
    }
  }
  return { records, notes, exhausted };
}
