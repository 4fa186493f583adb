/**
 * `tableside sim wheel`: the roulette wheel simulator on its own, on a
 * serial line, pty or TCP socket: legal games at a croupier's pace, with
 * per-game faults (`--fault chip=3`) and the wire faults of the card
 * devices. Prints a JSON summary of the games when done. With `--key` it
 * proves that key to the host, as `tableside sim` devices do.
 */
type Fail = (message: string) => never;
type WholeNumber = (
  name: string,
  text: string | undefined,
  min: number,
  max: number,
) => number | undefined;

export interface WheelSimOptions {
  link?: string;
  listen?: string;
  ruleset?: string;
  seed?: string;
  fault: string[];
  games?: string;
  pace?: string;
  betting?: string;
  verbose?: boolean;
  keepOpen?: boolean;
  listFaults?: boolean;
  /** The wheel's own key file (protocol 1.4): it proves it on every connection. */
  key?: string;
}

export async function runWheelSim(
  options: WheelSimOptions,
  fail: Fail,
  wholeNumber: WholeNumber,
): Promise<void> {
  const { WHEEL_FAULTS, WHEEL_FAULT_SUMMARIES } = await import('../../simulators/wheel-plan.ts');
  if (options.listFaults) {
    const { BEHAVIOURS } = await import('../../simulators/behaviours.ts');
    const wire = BEHAVIOURS.filter(
      (definition) => definition.kind === 'fault' && definition.argument?.startsWith('RATE'),
    );
    process.stdout.write(
      [
        ...WHEEL_FAULTS.map(
          (name) => `${name}=G\n    ${WHEEL_FAULT_SUMMARIES[name]} (G: the 1-based game)\n`,
        ),
        ...wire.map(
          (definition) => `${definition.name}=${definition.argument}\n    ${definition.summary}\n`,
        ),
      ].join(''),
    );
    return;
  }
  const { getRouletteRuleset, rouletteRulesetNames } = await import('../engine/rulesets/index.ts');
  const { SimulatedWheel } = await import('../../simulators/wheel.ts');
  const { isSimulatorError } = await import('../../simulators/errors.ts');
  const { logger } = await import('../log.ts');
  const log = logger('sim');
  const rulesetName = options.ruleset ?? 'tdc-roulette';
  if (!rouletteRulesetNames().includes(rulesetName)) {
    fail(
      `--ruleset ${JSON.stringify(rulesetName)} is not a roulette ruleset: ${rouletteRulesetNames().join(', ')}`,
    );
  }
  if (!options.link === !options.listen) {
    fail('give exactly one of --link URL or --listen [HOST:]PORT');
  }
  const seed = wholeNumber('seed', options.seed, 0, 2 ** 31 - 1);
  const games = wholeNumber('games', options.games, 1, 1_000_000) ?? 10;
  const paceMs = wholeNumber('pace', options.pace, 1, 600_000) ?? 500;
  const bettingMs = wholeNumber('betting', options.betting, 0, 3_600_000) ?? 1_000;

  const { openSimWire, loadSimKey, untilStopped } = await import('./sim-wire.ts');
  const { transport, server } = await openSimWire(options, fail);
  const key = await loadSimKey(options.key, 'tableside sim wheel', fail);

  let wheel: InstanceType<typeof SimulatedWheel>;
  try {
    wheel = new SimulatedWheel({
      transport,
      ...(key === undefined ? {} : { key }),
      ...(seed === undefined ? {} : { seed }),
      faults: options.fault,
      minRevolutions: getRouletteRuleset(rulesetName).spin.minBallRevolutions.value,
      paceMs,
      bettingMs,
      games,
      reconnect: server
        ? { openTimeoutMs: 120_000, initialDelayMs: 10, maxDelayMs: 200 }
        : { initialDelayMs: 100, maxDelayMs: 2_000 },
    });
  } catch (error) {
    if (isSimulatorError(error)) fail((error as Error).message);
    throw error;
  }
  if (server) {
    await server.listen().catch((error: Error) => fail(error.message));
    log.info(
      { port: server.boundPort },
      `listening: point the daemon at tcp://HOST:${server.boundPort}`,
    );
  }
  log.info(
    {
      ruleset: rulesetName,
      seed: wheel.seed,
      games,
      paceMs,
      bettingMs,
      faults: options.fault,
      model: wheel.identity.model,
      firmwareSha256: wheel.identity.firmwareSha256,
    },
    'wheel simulator starting',
  );
  wheel.on('link', (change) =>
    log.info({ state: change.state, reason: change.reason }, `link ${change.state}`),
  );
  wheel.on('ready', () => log.info('HELLO acknowledged: spinning'));
  wheel.on('game', (game) =>
    log.info(
      { game: game.game, number: game.number ?? null, rotor: game.rotor, faults: game.faults },
      'game played',
    ),
  );
  if (options.verbose) wheel.on('wrote', (line) => process.stderr.write(`> ${line.trimEnd()}\n`));

  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await wheel.stop();
    await server?.shutdown();
    const stats = wheel.stats;
    process.stdout.write(
      `${JSON.stringify({
        games: wheel.played.map((game) => ({
          game: game.game,
          number: game.number ?? null,
          rotor: game.rotor ?? null,
          faults: game.faults,
        })),
        sent: stats.sent,
        retransmitted: stats.retransmitted,
        naksReceived: stats.naksReceived,
      })}\n`,
    );
    process.exitCode = code;
  };
  process.once('SIGINT', () => void stop(130));
  process.once('SIGTERM', () => void stop(143));
  wheel.start();
  await new Promise<void>((resolve) => {
    const check = setInterval(() => {
      if (stopping || wheel.played.length >= games) {
        clearInterval(check);
        resolve();
      }
    }, 50);
  });
  if (stopping) return;
  await wheel.whenSettled();
  log.info({ games: wheel.played.length }, 'session complete: every frame acknowledged');
  if (options.keepOpen) {
    await untilStopped(() => stopping);
    return;
  }
  await stop(0);
}
