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
  | { readonly kind: 'marker'; readonly shoe: number; readonly index?: number }
  | { readonly kind: 'void'; readonly shoe: number; readonly round: number };

export interface LegalDeal {
  readonly records: TableLogRecord[];
  /** One note per record, same order. */
  readonly notes: DealNote[];
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

/** Where fixed burns fall, as the ruleset names them: before the round, or before flop/turn/river. */
function fixedBurnsBefore(ruleset: Ruleset, step: NextStep, cards: Record<string, number>): number {
  // An engine that plans its own burns (Hold'em) gets none added.
  if (ruleset.burn.kind !== 'fixed' || step.kind !== 'card' || cards.engineBurn) return 0;
  const dealt = Object.values(cards).reduce((sum, n) => sum + n, 0);
  const board = cards.board ?? 0;
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
  const clock = options.clock ?? { start: 1_700_000_000_000, step: 1_000 };
  const emit = (record: TableLogRecord, note: DealNote) => {
    records.push({ ...record, ts: clock.start + records.length * clock.step });
    notes.push(note);
  };
  const decks = options.decks ?? ruleset.decks.default;
  const implied = options.impliedDecisions ?? 0.5;
  const end = ruleset.shoeEnd;
  let round = 0;

  for (let shoeNumber = 1; shoeNumber <= (options.shoes ?? 1); shoeNumber += 1) {
    const back =
      ruleset.backs.kind === 'single'
        ? ruleset.backs.colour
        : ruleset.backs.colours[(shoeNumber - 1) % 2]!;
    const cards: StandardCard[] = [];
    for (let d = 0; d < decks; d += 1) cards.push(...standardDeck());
    const shuffled = shuffleCards(cards, random);
    emit(
      {
        t: 'shuffle',
        decks,
        backs: [back],
        ...(options.withOrder ? { order: shuffled as CardCode[] } : {}),
      },
      { kind: 'shuffle', shoe: shoeNumber },
    );

    // The physical shoe: the shuffled cards, with the marker where the dealer puts it.
    const physical: CardCode[] = options.tamper
      ? options.tamper(shuffled, shoeNumber)
      : [...shuffled];
    let cutAt: number | undefined;
    if (end.kind === 'last_hand_marker') {
      // Room behind the marker for the coup in progress and the coups after it (6 cards each).
      const behind = Math.max(end.cardsBehind, 6 * (end.coupsAfter + 1));
      const at = physical.length - behind;
      if (end.marker === 'joker') physical.splice(at, 0, JOKER);
      else cutAt = at;
    } else if (end.kind === 'cut_card') {
      cutAt = Math.round(physical.length * (1 - end.fractionBehind));
    }
    let next = 0;
    let markerOut = false;
    let lastRound = false;
    let coupsLeft = Number.POSITIVE_INFINITY;

    /** Takes the next physical card; false when the shoe is empty. */
    const draw = (note: (index: number) => DealNote): boolean => {
      if (next === cutAt) {
        cutAt = undefined;
        emit({ t: 'cut' }, { kind: 'marker', shoe: shoeNumber });
        markerOut = true;
      }
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
      if (card === undefined) return false;
      emit({ t: 'card', card, back, face: 'down' }, note(next));
      next += 1;
      return true;
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
      const dealtTo: Record<string, number> = {};
      let exhausted = false;
      for (;;) {
        const step = engine.next(state);
        if (step.kind === 'complete') break;
        if (step.kind === 'decision') {
          if (step.onCard && random() < implied) {
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
            const burns = fixedBurnsBefore(ruleset, cardStep, dealtTo);
            for (let i = 0; i < burns; i += 1) {
              dealtTo.burn = (dealtTo.burn ?? 0) + 1;
              if (!draw((index) => ({ kind: 'burn', shoe: shoeNumber, index }))) exhausted = true;
            }
            const card = physical[next + (physical[next] === JOKER ? 1 : 0)];
            if (cardStep.kind !== 'card' || card === undefined || card === JOKER) {
              exhausted = true;
              break;
            }
            draw((index) => ({
              kind: 'card',
              shoe: shoeNumber,
              round,
              index,
              to: cardStep.to,
              implied: action,
            }));
            state = engine.deal(state, card);
            dealtTo[cardStep.to] = (dealtTo[cardStep.to] ?? 0) + 1;
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
        const burns = fixedBurnsBefore(ruleset, step, dealtTo);
        for (let i = 0; i < burns; i += 1) {
          dealtTo.burn = (dealtTo.burn ?? 0) + 1;
          if (!draw((index) => ({ kind: 'burn', shoe: shoeNumber, index }))) exhausted = true;
        }
        const card = physical[next + (physical[next] === JOKER ? 1 : 0)];
        if (exhausted || card === undefined || card === JOKER) {
          exhausted = true;
          break;
        }
        draw((index) => ({ kind: 'card', shoe: shoeNumber, round, index, to: step.to }));
        state = engine.deal(state, card as StandardCard);
        dealtTo[step.to] = (dealtTo[step.to] ?? 0) + 1;
        if (step.to === 'burn') dealtTo.engineBurn = 1;
      }
      if (exhausted) {
        emit({ t: 'void', reason: 'shoe exhausted' }, { kind: 'void', shoe: shoeNumber, round });
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
  return { records, notes };
}
