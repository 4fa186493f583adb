/**
 * Plans a simulated session: the scenario's script (or the default session
 * for the ruleset) played against a seeded shoe dealer, then rewritten by the
 * content behaviours (faults at given positions). Pure: the same options give
 * the same steps, on any machine.
 */
import type { BackColour, CardCode } from '../device-protocol/cards.ts';
import {
  type LegalRound,
  legalRound,
  legalShoeLength,
} from '../firmware-host/games/cards/simulated/legal-round.ts';
import {
  recipeFor,
  ShoeDealer,
  type ShoeRecipe,
  type SimShoe,
  shoeOrder,
} from '../firmware-host/games/cards/simulated/legal-shoe.ts';
import { type Behaviour, type BehaviourSet, behaviourDefinition } from './behaviours.ts';
import { SimulatorError } from './errors.ts';
import { createRandom } from './random.ts';
import type { ScriptStep } from './scenario.ts';
import type { Step } from './steps.ts';

export interface PlanOptions {
  ruleset: string;
  seed: number;
  behaviours: BehaviourSet;
  /** The scenario's script; absent: the default session. */
  script?: readonly ScriptStep[];
  /** Rounds in the default session of a one-deck-per-round game (default 8). */
  rounds?: number;
  /** Boxes in play in every `deal: round`; default a random set per round. */
  boxes?: readonly number[];
  /** The back colour of the first deck of alternating-colour games (default the recipe's first). */
  firstBack?: BackColour;
  /** Told each legal round as it is planned (the decisions a dealer makes at the console). */
  onRound?: (round: LegalRound, index: number) => void;
  /**
   * The first shoe, given whole and dealt as it lies, the cut card where it
   * says: a shoe the table already holds, put back in after a restart.
   */
  shoe?: SimShoe;
}

/** The ruleset's recipe with the `two-colour` feature applied. */
export function effectiveRecipe(ruleset: string, behaviours: BehaviourSet): ShoeRecipe {
  const recipe = recipeFor(ruleset);
  if (recipe.alternateBacks) {
    if (!behaviours.isSwitchedOff('two-colour')) return recipe;
    return { ...recipe, backs: [recipe.backs[0]!], alternateBacks: false };
  }
  if (!behaviours.isOn('two-colour')) return recipe;
  const second = recipe.backs[0] === 'blue' ? 'red' : 'blue';
  return {
    ...recipe,
    backs: [recipe.backs[0]!, second],
    alternateBacks: true,
    shufflePerRound: true,
  };
}

/** The first alternating colour asked for, where the recipe alternates (else the recipe decides). */
function alternateFirst(recipe: ShoeRecipe, firstBack?: BackColour): BackColour | undefined {
  return recipe.alternateBacks ? firstBack : undefined;
}

/**
 * The session a scenario without steps plays: a whole shoe, or for a game
 * that takes a fresh deck every round, `rounds` rounds of one legal round each.
 */
export function defaultScript(recipe: ShoeRecipe, rounds = 8): ScriptStep[] {
  if (recipe.shufflePerRound) {
    const script: ScriptStep[] = [];
    for (let round = 0; round < rounds; round++) {
      script.push({ op: 'shuffle' }, { op: 'deal', count: 'round' });
    }
    return script;
  }
  return [{ op: 'shuffle' }, { op: 'deal', count: 'rest' }];
}

function explicitShoe(order: CardCode[], backs: BackColour[], decks: number): SimShoe {
  return { decks, backs, cards: order.map((card) => ({ card, back: backs[0]!, face: 'down' })) };
}

export function planSession(options: PlanOptions): Step[] {
  const { behaviours } = options;
  const recipe = effectiveRecipe(options.ruleset, behaviours);
  const random = createRandom(options.seed);
  const dealer = new ShoeDealer(
    recipe,
    random.fork('shoe'),
    alternateFirst(recipe, options.firstBack),
  );
  const roundRandom = random.fork('legal-rounds');
  let rounds = 0;
  const legalShoe = behaviours.isOn('legal-shoe');
  const script = options.script ?? (legalShoe ? defaultScript(recipe, options.rounds) : []);
  const stackedArg = behaviours.isOn('stacked') ? (behaviours.argOf('stacked') ?? 'all') : 'none';

  const steps: Step[] = [];
  // Content faults switched on inside the script apply at plan time too.
  const scriptedRewrites: Behaviour[] = [];
  let shoe: SimShoe | undefined;
  /** The shoe was dealt by the seeded dealer (a legal shoe), not given as an explicit order. */
  let legalLoad = false;
  let dealt = 0;
  let cutDone = false;
  let shoes = 0;

  const loadShoe = (spec: Extract<ScriptStep, { op: 'shuffle' }> = { op: 'shuffle' }) => {
    shoes++;
    const stacked = spec.stacked === true || stackedArg === 'all' || stackedArg === String(shoes);
    // Without the legal-shoe feature only explicit orders are dealt: the script is the session.
    shoe =
      shoes === 1 && options.shoe
        ? { ...options.shoe, cards: [...options.shoe.cards] }
        : spec.order
          ? explicitShoe(spec.order, spec.backs ?? recipe.backs, spec.decks ?? recipe.decks)
          : legalShoe
            ? dealer.next(stacked ? 'stacked' : 'fair', spec.backs)
            : explicitShoe([], spec.backs ?? recipe.backs, spec.decks ?? recipe.decks);
    if (spec.decks !== undefined && !spec.order) shoe.decks = spec.decks;
    legalLoad =
      legalShoe &&
      !spec.order &&
      spec.decks === undefined &&
      spec.backs === undefined &&
      !(shoes === 1 && options.shoe);
    dealt = 0;
    cutDone = false;
    steps.push({
      kind: 'shuffle',
      decks: shoe.decks,
      backs: [...shoe.backs],
      order: shoeOrder(shoe),
      reportOrder: behaviours.isOn('report-order'),
    });
  };

  /** Cards the next legal round takes from what is left of the current shoe. */
  const roundLength = (): number => {
    if (!shoe) loadShoe();
    const current = shoe!;
    const round = legalRound({
      ruleset: recipe.ruleset,
      cards: current.cards.slice(dealt).map((card) => card.card),
      decks: current.decks,
      random: roundRandom,
      ...(options.boxes === undefined ? {} : { boxes: options.boxes }),
    });
    options.onRound?.(round, rounds++);
    return round.cards;
  };

  /**
   * What is left to deal of the shoe: on a legal shoe not yet touched, as
   * far as the table deals it (a dealer stops at the shoe's end, after the
   * cut card's round or the coups after the last-hand marker, and leaves
   * the cards behind in the shoe); otherwise every card left.
   */
  const restLength = (): number => {
    if (!shoe) loadShoe();
    if (!legalLoad || dealt > 0) return Number.POSITIVE_INFINITY;
    const current = shoe!;
    return legalShoeLength({
      ruleset: recipe.ruleset,
      cards: current.cards.map((card) => card.card),
      decks: current.decks,
      random: roundRandom,
      ...(current.cutAfter === undefined ? {} : { cutAfter: current.cutAfter }),
    });
  };

  const dealOne = (): boolean => {
    if (!shoe) loadShoe();
    const current = shoe!;
    if (!cutDone && current.cutAfter !== undefined && dealt >= current.cutAfter) {
      steps.push({ kind: 'cut' });
      cutDone = true;
    }
    const card = current.cards[dealt];
    if (!card) return false;
    dealt++;
    steps.push({ kind: 'card', card: card.card, back: card.back, face: card.face });
    return true;
  };

  for (const step of script) {
    switch (step.op) {
      case 'shuffle':
        loadShoe(step);
        break;
      case 'deal': {
        const count =
          step.count === 'rest'
            ? restLength()
            : step.count === 'round'
              ? roundLength()
              : step.count;
        for (let i = 0; i < count && dealOne(); i++);
        break;
      }
      case 'card': {
        const back = step.back ?? shoe?.backs[0] ?? recipe.backs[0]!;
        const card: Step = { kind: 'card', card: step.card, back, face: step.face };
        if (step.uid !== undefined) card.uid = step.uid;
        steps.push(card);
        break;
      }
      case 'cut':
        steps.push({ kind: 'cut' });
        break;
      case 'joker':
        steps.push({
          kind: 'card',
          card: 'JK',
          back: shoe?.backs[0] ?? recipe.backs[0]!,
          face: 'down',
        });
        break;
      case 'jam':
        steps.push({ kind: 'jam', clearAfterMs: step.ms });
        break;
      case 'lid':
        steps.push({ kind: 'lid', open: step.open });
        break;
      case 'door':
        steps.push({ kind: 'door', open: step.open });
        break;
      case 'pause':
        steps.push({ kind: 'pause', ms: step.ms });
        break;
      case 'silence':
        steps.push({ kind: 'silence', ms: step.ms });
        break;
      case 'tag':
        steps.push({ kind: 'tag', uid: step.uid });
        break;
      case 'behaviour': {
        const definition = behaviourDefinition(step.name);
        const created = step.on ? definition.create(step.arg) : undefined;
        if (created?.rewrite) {
          scriptedRewrites.push(created);
        } else {
          const toggle: Step = { kind: 'behaviour', name: step.name, on: step.on };
          if (step.arg !== undefined) toggle.arg = step.arg;
          steps.push(toggle);
        }
        break;
      }
      default: {
        const never: never = step;
        throw new SimulatorError('bad_scenario', `unknown step ${JSON.stringify(never)}`);
      }
    }
  }

  const context = { recipe, random: random.fork('faults') };
  let rewritten = behaviours.rewrite(steps, context);
  for (const behaviour of scriptedRewrites) rewritten = behaviour.rewrite!(rewritten, context);
  return rewritten;
}
