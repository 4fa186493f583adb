/**
 * `tableside sim shoe|shuffler|reader`: the card devices' part of
 * `tableside sim` (the dealer, GamePlugin.simulator): a seeded session of a
 * ruleset's legal shoes, or a scenario, with behaviours and faults switched
 * on and off. Prints a JSON summary of the steps played when done.
 */

import { DEVICE_KINDS } from '../../simulators/steps.ts';
import { kindsWhere, profileOf } from '../drivers/profiles/registry.ts';
import {
  fail,
  requireOneWire,
  type SimPlay,
  type SimWireOptions,
  wholeNumber,
} from './sim-wire.ts';

export interface DealerSimOptions extends SimWireOptions {
  ruleset?: string;
  seed?: string;
  scenario?: string;
  rate?: string;
  fault: string[];
  off: string[];
  rounds?: string;
  boxes?: string;
  writeRegistry?: string;
  enroll?: string;
  back?: string;
  listFaults?: boolean;
}

/** The kinds whose tags a deck registry names (their profiles say so): a reader. */
function registryKinds(): string {
  return kindsWhere((profile) => profile.deckRegistry);
}

/** The behaviours and faults of the card devices, for `--list-faults`. */
async function listFaults(): Promise<void> {
  const { BEHAVIOURS } = await import('../../simulators/behaviours.ts');
  const lines = BEHAVIOURS.map((definition) => {
    const argument = definition.argument ? `=${definition.argument}` : '';
    const state =
      definition.kind === 'feature'
        ? definition.defaultOn
          ? ' [feature, on]'
          : ' [feature, off]'
        : '';
    return `${definition.name}${argument}${state}\n    ${definition.summary}\n`;
  });
  process.stdout.write(lines.join(''));
}

/** `--boxes 1,2,3` as box numbers. */
function parseBoxes(text: string | undefined): number[] | undefined {
  const boxes = text
    ?.split(/[\s,]+/)
    .filter(Boolean)
    .map((token) => {
      if (!/^[1-7]$/.test(token)) fail(`--boxes: bad box ${JSON.stringify(token)}: expected 1-7`);
      return Number(token);
    });
  if (boxes?.length === 0) fail('--boxes: expected box numbers such as 1,2,3');
  return boxes;
}

/** `--rate`, else the scenario's, else 2 cards a second. */
function parseRate(text: string | undefined, scenarioRate: number | undefined): number {
  if (text === undefined) return scenarioRate ?? 2;
  const rate = Number(text);
  if (!Number.isFinite(rate) || rate <= 0 || rate > 1000) {
    fail(`--rate ${JSON.stringify(text)}: expected cards per second, above 0 and at most 1000`);
  }
  return rate;
}

/**
 * The card device `kind` (or the scenario's) with its options checked;
 * undefined once `--list-faults` has listed them. `kinds` names every kind
 * `tableside sim` has, for the error of a missing one.
 */
export async function dealerSim(
  kindArg: string | undefined,
  options: DealerSimOptions,
  kinds: readonly string[],
): Promise<SimPlay | undefined> {
  if (options.listFaults) {
    await listFaults();
    return undefined;
  }
  const { loadScenario } = await import('../../simulators/scenario.ts');
  const scenario = options.scenario
    ? await loadScenario(options.scenario).catch((error: Error) => fail(error.message))
    : undefined;
  const kind = kindArg ?? scenario?.device;
  if (!kind || !(DEVICE_KINDS as readonly string[]).includes(kind)) {
    fail(
      `say which device to simulate: ${kinds.join(', ')} (got ${JSON.stringify(kindArg ?? '')})`,
    );
  }
  const deviceKind = kind as (typeof DEVICE_KINDS)[number];
  const ruleset = options.ruleset ?? scenario?.ruleset;
  if (!ruleset)
    fail(
      '--ruleset NAME is required (or a scenario that names one); `tableside rulesets` lists them',
    );
  requireOneWire(options);
  const seed = wholeNumber('seed', options.seed, 0, Number.MAX_SAFE_INTEGER);
  const rounds = wholeNumber('rounds', options.rounds, 1, 10_000);
  const boxes = parseBoxes(options.boxes);
  const rate = parseRate(options.rate, scenario?.rate);

  let effectiveScenario = scenario;
  if (options.enroll !== undefined) {
    if (!profileOf(deviceKind).deckRegistry)
      fail(`--enroll is for the ${registryKinds()} simulator`);
    const { parseBackColour } = await import('../../device-protocol/cards.ts');
    const { deckTags } = await import('../../simulators/tags.ts');
    try {
      parseBackColour(options.back ?? 'red');
    } catch (error) {
      fail((error as Error).message);
    }
    effectiveScenario = {
      on: scenario?.on ?? [],
      off: scenario?.off ?? [],
      steps: deckTags(options.enroll).map(({ uid }) => ({ op: 'tag' as const, uid })),
    };
  }
  const { SimulatedDevice } = await import('../../simulators/device.ts');

  return {
    who: 'tableside sim',
    async build({ transport, key, hostKey, reconnect }) {
      const sim = new SimulatedDevice({
        kind: deviceKind,
        transport,
        ruleset,
        ...(seed === undefined ? {} : { seed }),
        ...(effectiveScenario === undefined ? {} : { scenario: effectiveScenario }),
        ...(rounds === undefined ? {} : { rounds }),
        ...(boxes === undefined ? {} : { boxes }),
        faults: options.fault,
        off: options.off,
        rate,
        ...(key === undefined ? {} : { key }),
        ...(hostKey === undefined ? {} : { hostKey }),
        reconnect,
      });
      if (options.writeRegistry !== undefined) {
        if (!profileOf(deviceKind).deckRegistry) {
          fail(`--write-registry is for the ${registryKinds()} simulator`);
        }
        await writeRegistry(options.writeRegistry, ruleset, sim.behaviours);
      }
      return {
        device: sim,
        starting: {
          fields: {
            kind: deviceKind,
            ruleset,
            seed: sim.seed,
            rate,
            steps: sim.steps.length,
            cards: sim.steps.filter((step) => step.kind === 'card').length,
            behaviours: sim.behaviours.describe(),
            model: sim.identity.model,
            firmwareSha256: sim.identity.firmwareSha256,
          },
          message: 'simulator starting',
        },
        readyMessage: 'HELLO acknowledged: dealing',
        watch(log) {
          // The decisions no card expresses must be made at the table for each round to take these cards.
          for (const [index, round] of sim.legalRounds.entries()) {
            log.info(
              { round: index + 1, cards: round.cards, boxes: round.boxes, actions: round.actions },
              'planned round',
            );
          }
          sim.on('command', (message) => log.info({ message }, `command ${message.type}`));
          sim.on('lost', (action) =>
            log.error({ seq: action.seq, type: action.type }, 'frame given up: no ACK'),
          );
        },
        played: () => sim.whenDone(),
        complete: () => ({ played: sim.playedSteps }),
        summary: () => ({ done: sim.finished, played: sim.playedSteps }),
      };
    },
  };
}

/** `--write-registry FILE`: the deck registry of the simulated decks. */
async function writeRegistry(
  file: string,
  ruleset: string,
  behaviours: import('../../simulators/behaviours.ts').BehaviourSet,
): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  const { simRegistryDocument } = await import('../../simulators/tags.ts');
  const { effectiveRecipe } = await import('../../simulators/plan.ts');
  const { logger } = await import('../log.ts');
  const recipe = effectiveRecipe(ruleset, behaviours);
  await writeFile(
    file,
    `${JSON.stringify(simRegistryDocument(recipe.backs, recipe.decks), null, 2)}\n`,
  );
  logger('sim').info({ file }, 'deck registry of the simulated decks written');
}
