/**
 * Driving any GameEngine through one round from a list of cards in shoe
 * order and a list of decisions: what `tableside hand`, the tests and the
 * simulators do. Generic over the engine, so a new game needs nothing here.
 *
 * Card-implied decisions: the shoe cannot see a decision, so a card drawn
 * while a seat awaits one stands for the decision the engine names in
 * `onCard` (a hit, in blackjack). `dealInferred` applies it.
 */
import type { StandardCard } from '../../device-protocol/cards.ts';
import { EngineError } from './errors.ts';
import type {
  Action,
  Decision,
  GameEngine,
  NextStep,
  Recipient,
  RoundSetup,
  Seat,
} from './types.ts';

/**
 * Deals a card, first taking the decisions it implies: while a seat awaits
 * a decision that names an `onCard` (a hit; a declined insurance), that
 * decision is taken, then the card is dealt.
 */
export function dealInferred<S>(engine: GameEngine<S>, state: S, card: StandardCard): S {
  let current = state;
  // Each implied decision moves the round on, so this ends; the bound guards a faulty engine.
  for (let guard = 0; guard < 64; guard++) {
    const step = engine.next(current);
    if (step.kind !== 'decision') return engine.deal(current, card);
    if (!step.onCard) {
      throw new EngineError(
        'unexpected_card',
        `${card}: ${step.seat} must decide first (${step.options.join(', ')}); a card now is not one of them`,
      );
    }
    current = engine.decide(current, impliedDecision(step));
  }
  throw new EngineError('unexpected_card', `${card}: the engine kept awaiting decisions`);
}

function impliedDecision(step: Extract<NextStep, { kind: 'decision' }>): Decision {
  return {
    seat: step.seat,
    action: step.onCard!,
    ...(step.hand === undefined ? {} : { hand: step.hand }),
  };
}

export interface DealtCard {
  readonly card: StandardCard;
  readonly to: Recipient;
  readonly hand?: number;
  readonly face: 'up' | 'down';
  readonly purpose?: string;
  /** The decisions the card implied (`hit`, `no_insurance, hit`), when drawn while a seat was deciding. */
  readonly implied?: string;
}

export interface RoundRun<S> {
  readonly state: S;
  readonly dealt: readonly DealtCard[];
  readonly decisions: readonly Decision[];
  /** Where the round stopped: `complete`, or the card or decision still awaited. */
  readonly stoppedAt: NextStep;
}

/**
 * Plays one round: decisions are taken in the order given, as their seats
 * come to decide; a seat awaiting a decision whose next listed decision is
 * someone else's (or with none left) takes the next card as its `onCard`
 * decision. Stops when the round is complete or input runs out. A card
 * left over after the round is complete, or a decision nobody awaits, is an
 * EngineError naming it.
 */
export function playRound<S>(
  engine: GameEngine<S>,
  setup: RoundSetup,
  cards: readonly StandardCard[],
  decisions: readonly Decision[] = [],
): RoundRun<S> {
  let state = engine.start(setup);
  const dealt: DealtCard[] = [];
  const taken: Decision[] = [];
  let cardIndex = 0;
  let decisionIndex = 0;
  /** Decisions the next card implied, to note beside it. */
  let impliedSoFar: Action[] = [];
  // Each pass deals a card or takes a decision, so the loop ends.
  for (;;) {
    const step = engine.next(state);
    if (step.kind === 'complete') {
      const leftover = cards[cardIndex];
      if (leftover !== undefined) {
        throw new EngineError(
          'unexpected_card',
          `card ${leftover} (number ${cardIndex + 1}): the rules give it to nobody, the round is complete after ${cardIndex} cards`,
        );
      }
      const unused = decisions[decisionIndex];
      if (unused !== undefined) {
        throw new EngineError(
          'illegal_decision',
          `${describeDecision(unused)}: the round is complete, nobody is deciding`,
        );
      }
      return { state, dealt, decisions: taken, stoppedAt: step };
    }
    if (step.kind === 'decision') {
      const wanted = decisions[decisionIndex];
      // The dealer may act whenever the engine lets it (closing the insurance round, ...).
      if (wanted !== undefined && (wanted.seat === step.seat || wanted.seat === 'dealer')) {
        state = engine.decide(state, wanted);
        taken.push(wanted);
        decisionIndex++;
        continue;
      }
      if (cards[cardIndex] !== undefined && step.onCard) {
        const implied = impliedDecision(step);
        state = engine.decide(state, implied);
        taken.push(implied);
        impliedSoFar.push(step.onCard);
        continue;
      }
      if (wanted !== undefined) {
        throw new EngineError(
          'illegal_decision',
          `${describeDecision(wanted)}: ${step.seat}${step.hand === undefined ? '' : ` hand ${step.hand + 1}`} is deciding now (${step.options.join(', ')})`,
        );
      }
      return { state, dealt, decisions: taken, stoppedAt: step };
    }
    const card = cards[cardIndex];
    if (card === undefined) return { state, dealt, decisions: taken, stoppedAt: step };
    state = engine.deal(state, card);
    const implied = impliedSoFar.length > 0 ? { implied: impliedSoFar.join(', ') } : {};
    dealt.push({ ...dealtFrom(card, step), ...implied });
    impliedSoFar = [];
    cardIndex++;
  }
}

function dealtFrom(card: StandardCard, step: NextStep): DealtCard {
  if (step.kind !== 'card') return { card, to: 'burn', face: 'up' };
  return {
    card,
    to: step.to,
    face: step.face,
    ...(step.hand === undefined ? {} : { hand: step.hand }),
    ...(step.purpose === undefined ? {} : { purpose: step.purpose }),
  };
}

function describeDecision(decision: Decision): string {
  return `${decision.seat} ${decision.action}`;
}

const ACTIONS: readonly Action[] = [
  'hit',
  'stand',
  'double',
  'split',
  'surrender',
  'insurance',
  'no_insurance',
  'even_money',
  'fold',
  'bet',
  'check',
  'raise',
  'exchange',
  'buy',
  'buy_dealer_game',
  'next',
];

/**
 * Parses decisions written as `SEAT:ACTION[:CARD,CARD...]`, separated by
 * spaces or semicolons: `box1:hit box1:stand box3:split dealer:next
 * box2:exchange:0,3`. SEAT is `dealer` or `boxN` (`box:N` and `bN` too);
 * the optional list is 0-based card positions, for draw games.
 */
export function parseDecisions(text: string): Decision[] {
  return text
    .split(/[\s;]+/)
    .filter((token) => token.length > 0)
    .map(parseDecision);
}

function parseDecision(token: string): Decision {
  const match = /^(dealer|box:?(\d+)|b(\d+)):([a-z_]+)(?::(\d+(?:,\d+)*))?$/i.exec(token);
  const boxNumber = match?.[2] ?? match?.[3];
  const action = match?.[4]?.toLowerCase();
  if (!match || action === undefined) {
    throw new EngineError(
      'bad_input',
      `bad decision ${JSON.stringify(token)}: expected SEAT:ACTION like box1:hit, box3:split or dealer:next`,
    );
  }
  if (!ACTIONS.includes(action as Action)) {
    throw new EngineError(
      'bad_input',
      `bad decision ${JSON.stringify(token)}: unknown action ${JSON.stringify(action)}; actions are ${ACTIONS.join(', ')}`,
    );
  }
  if (boxNumber !== undefined && Number(boxNumber) < 1) {
    throw new EngineError('bad_input', `bad decision ${JSON.stringify(token)}: boxes count from 1`);
  }
  const seat: Seat = boxNumber === undefined ? 'dealer' : `box:${Number(boxNumber)}`;
  const positions = match[5]?.split(',').map(Number);
  return { seat, action: action as Action, ...(positions ? { cards: positions } : {}) };
}
