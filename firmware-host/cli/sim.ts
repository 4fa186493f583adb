/**
 * `tableside sim shoe|shuffler|reader|wheel`: runs a device simulator on its own,
 * for a technician testing a daemon (or a Pi over a USB-serial cable)
 * without the real kit. See docs/technician/simulators.md.
 */
import type { Command } from 'commander';
import { DEVICE_KINDS } from '../../simulators/steps.ts';

/** The kind `tableside sim` hands to the wheel simulator (cli/sim-wheel.ts). */
const WHEEL = 'wheel';
/** Every kind there is a simulator for: the card devices' and the wheel. */
const SIMULATED_KINDS: readonly string[] = [...DEVICE_KINDS, WHEEL];

interface SimOptions {
  link?: string;
  listen?: string;
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
  keepOpen?: boolean;
  verbose?: boolean;
  listFaults?: boolean;
  games?: string;
  pace?: string;
  betting?: string;
  key?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function fail(message: string): never {
  process.stderr.write(`tableside sim: ${message}\n`);
  process.exit(2);
}

function wholeNumber(
  name: string,
  text: string | undefined,
  min: number,
  max: number,
): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) {
    fail(`--${name} ${JSON.stringify(text)}: expected a whole number ${min}-${max}`);
  }
  return Number(text);
}

export function register(program: Command): void {
  program
    .command('sim')
    .description(
      `run a device simulator (${SIMULATED_KINDS.join(', ')}) on a serial line, pty or TCP socket`,
    )
    .argument('[kind]', SIMULATED_KINDS.join(' | '))
    .option(
      '--link <url>',
      'where the daemon is: a tty or pty path, serial:PATH?baud=N, or tcp://HOST:PORT (connects)',
    )
    .option(
      '--listen <[host:]port>',
      'serve on a TCP port instead; the daemon connects with tcp://HOST:PORT',
    )
    .option('--ruleset <name>', 'the ruleset whose shoe is dealt')
    .option('--seed <n>', 'seed of the session (same seed, same session)')
    .option('--scenario <file>', 'a scenario file (YAML or JSON, see docs/technician/scenarios.md)')
    .option('--rate <cards-per-s>', 'dealing pace in cards per second (default 2)')
    .option(
      '--fault <name[=arg]>',
      'switch a behaviour on (repeatable; --list-faults shows them)',
      collect,
      [],
    )
    .option('--off <name>', 'switch a behaviour off, e.g. report-order (repeatable)', collect, [])
    .option('--rounds <n>', 'rounds to play for one-deck-per-round games (default 8)')
    .option(
      '--boxes <list>',
      'boxes in play in every round of a one-deck-per-round game, e.g. 1,2,3 (default: random per round)',
    )
    .option(
      '--write-registry <file>',
      'reader: write the deck registry of the simulated decks, then run',
    )
    .option(
      '--enroll <deck>',
      "reader: present one deck's 52 tags in enrolment order (for `tableside deck enroll`)",
    )
    .option('--back <colour>', 'reader with --enroll: the back colour of that deck', 'red')
    .option('--keep-open', 'stay connected after the session ends (answering PINGs) until Ctrl-C')
    .option('--verbose', 'print every frame written on stderr')
    .option(
      '--key <file>',
      "the device's own key file (protocol 1.4: it proves it on every connection; `tableside device key new`)",
    )
    .option('--list-faults', 'list the behaviours and faults, then exit')
    .option('--games <n>', 'wheel: games to play (default 10)')
    .option('--pace <ms>', 'wheel: milliseconds between the events of a spin (default 500)')
    .option('--betting <ms>', 'wheel: milliseconds of betting before each spin (default 1000)')
    .action(async (kind: string | undefined, options: SimOptions) => {
      await runSim(kind, options);
    });
}

async function runSim(kindArg: string | undefined, options: SimOptions): Promise<void> {
  const { BEHAVIOURS } = await import('../../simulators/behaviours.ts');
  if (kindArg === WHEEL) {
    const { runWheelSim } = await import('./sim-wheel.ts');
    await runWheelSim(options, fail, wholeNumber);
    return;
  }
  if (options.listFaults) {
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
    return;
  }
  const { isSimulatorError } = await import('../../simulators/errors.ts');
  const { loadScenario } = await import('../../simulators/scenario.ts');
  const { SimulatedDevice } = await import('../../simulators/device.ts');
  const { logger } = await import('../log.ts');
  const log = logger('sim');

  const scenario = options.scenario
    ? await loadScenario(options.scenario).catch((error: Error) => fail(error.message))
    : undefined;
  const kind = kindArg ?? scenario?.device;
  if (!kind || !(DEVICE_KINDS as readonly string[]).includes(kind)) {
    fail(
      `say which device to simulate: ${SIMULATED_KINDS.join(', ')} (got ${JSON.stringify(kindArg ?? '')})`,
    );
  }
  const deviceKind = kind as (typeof DEVICE_KINDS)[number];
  const ruleset = options.ruleset ?? scenario?.ruleset;
  if (!ruleset)
    fail(
      '--ruleset NAME is required (or a scenario that names one); `tableside rulesets` lists them',
    );
  if (!options.link === !options.listen)
    fail('give exactly one of --link URL or --listen [HOST:]PORT');
  const seed = wholeNumber('seed', options.seed, 0, Number.MAX_SAFE_INTEGER);
  const rounds = wholeNumber('rounds', options.rounds, 1, 10_000);
  const boxes = options.boxes
    ?.split(/[\s,]+/)
    .filter(Boolean)
    .map((token) => {
      if (!/^[1-7]$/.test(token)) fail(`--boxes: bad box ${JSON.stringify(token)}: expected 1-7`);
      return Number(token);
    });
  if (boxes?.length === 0) fail('--boxes: expected box numbers such as 1,2,3');
  let rate = scenario?.rate ?? 2;
  if (options.rate !== undefined) {
    rate = Number(options.rate);
    if (!Number.isFinite(rate) || rate <= 0 || rate > 1000) {
      fail(
        `--rate ${JSON.stringify(options.rate)}: expected cards per second, above 0 and at most 1000`,
      );
    }
  }

  let effectiveScenario = scenario;
  if (options.enroll !== undefined) {
    if (deviceKind !== 'reader') fail('--enroll is for the reader simulator');
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

  const { openSimWire, loadSimKey, untilStopped } = await import('./sim-wire.ts');
  const { transport, server } = await openSimWire(options, fail);
  const key = await loadSimKey(options.key, 'tableside sim', fail);

  let sim: InstanceType<typeof SimulatedDevice>;
  try {
    sim = new SimulatedDevice({
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
      // A listening simulator waits for its daemon as long as it takes.
      reconnect: server
        ? { openTimeoutMs: 120_000, initialDelayMs: 10, maxDelayMs: 200 }
        : { initialDelayMs: 100, maxDelayMs: 2_000 },
    });
  } catch (error) {
    if (isSimulatorError(error) || (error as Error).name === 'EngineError')
      fail((error as Error).message);
    throw error;
  }

  if (options.writeRegistry !== undefined) {
    if (deviceKind !== 'reader') fail('--write-registry is for the reader simulator');
    const { writeFile } = await import('node:fs/promises');
    const { simRegistryDocument } = await import('../../simulators/tags.ts');
    const { effectiveRecipe } = await import('../../simulators/plan.ts');
    const recipe = effectiveRecipe(ruleset, sim.behaviours);
    await writeFile(
      options.writeRegistry,
      `${JSON.stringify(simRegistryDocument(recipe.backs, recipe.decks), null, 2)}\n`,
    );
    log.info({ file: options.writeRegistry }, 'deck registry of the simulated decks written');
  }

  if (server) {
    await server.listen().catch((error: Error) => fail(error.message));
    log.info(
      { port: server.boundPort },
      `listening: point the daemon at tcp://HOST:${server.boundPort}`,
    );
  }
  const cards = sim.steps.filter((step) => step.kind === 'card').length;
  log.info(
    {
      kind: deviceKind,
      ruleset,
      seed: sim.seed,
      rate,
      steps: sim.steps.length,
      cards,
      behaviours: sim.behaviours.describe(),
      model: sim.identity.model,
      firmwareSha256: sim.identity.firmwareSha256,
    },
    'simulator starting',
  );
  // The decisions no card expresses must be made at the table for each round to take these cards.
  for (const [index, round] of sim.legalRounds.entries()) {
    log.info(
      { round: index + 1, cards: round.cards, boxes: round.boxes, actions: round.actions },
      'planned round',
    );
  }
  sim.on('link', (change) =>
    log.info({ state: change.state, reason: change.reason }, `link ${change.state}`),
  );
  sim.on('ready', () => log.info('HELLO acknowledged: dealing'));
  sim.on('command', (message) => log.info({ message }, `command ${message.type}`));
  sim.on('lost', (action) =>
    log.error({ seq: action.seq, type: action.type }, 'frame given up: no ACK'),
  );
  if (options.verbose) sim.on('wrote', (line) => process.stderr.write(`> ${line.trimEnd()}\n`));

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await sim.stop();
    await server?.shutdown();
    const stats = sim.stats;
    process.stdout.write(
      `${JSON.stringify({ done: sim.finished, played: sim.playedSteps, sent: stats.sent, retransmitted: stats.retransmitted, naksReceived: stats.naksReceived })}\n`,
    );
    process.exitCode = code;
  };
  process.once('SIGINT', () => void stop(130));
  process.once('SIGTERM', () => void stop(143));
  sim.start();
  await sim.whenDone();
  log.info({ played: sim.playedSteps }, 'session complete: every frame acknowledged');
  if (options.keepOpen) {
    await untilStopped(() => stopping);
    return;
  }
  await stop(0);
}
