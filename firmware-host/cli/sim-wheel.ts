/**
 * `tableside sim wheel`: the roulette wheel's part of `tableside sim` (the
 * croupier, GamePlugin.simulator): legal games at a croupier's pace, with
 * per-game faults (`--fault chip=3`) and the wire faults of the card
 * devices. Prints a JSON summary of the games when done. With `--key` it
 * proves that key to the host, as `tableside sim` devices do.
 */
import {
  fail,
  requireOneWire,
  type SimPlay,
  type SimWireOptions,
  wholeNumber,
} from './sim-wire.ts';

export interface WheelSimOptions extends SimWireOptions {
  ruleset?: string;
  seed?: string;
  fault: string[];
  games?: string;
  pace?: string;
  betting?: string;
  listFaults?: boolean;
}

/** The wheel's own faults and the wire faults it plays too, for `--list-faults`. */
async function listFaults(): Promise<void> {
  const { WHEEL_FAULTS, WHEEL_FAULT_SUMMARIES } = await import('../../simulators/wheel-plan.ts');
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
}

/** The wheel with its options checked; undefined once `--list-faults` has listed them. */
export async function wheelSim(options: WheelSimOptions): Promise<SimPlay | undefined> {
  if (options.listFaults) {
    await listFaults();
    return undefined;
  }
  const { getRouletteRuleset, rouletteRulesetNames } = await import('../games/rulesets.ts');
  const { SimulatedWheel } = await import('../../simulators/wheel.ts');
  const rulesetName = options.ruleset ?? 'tdc-roulette';
  if (!rouletteRulesetNames().includes(rulesetName)) {
    fail(
      `--ruleset ${JSON.stringify(rulesetName)} is not a roulette ruleset: ${rouletteRulesetNames().join(', ')}`,
    );
  }
  requireOneWire(options);
  const seed = wholeNumber('seed', options.seed, 0, 2 ** 31 - 1);
  const games = wholeNumber('games', options.games, 1, 1_000_000) ?? 10;
  const paceMs = wholeNumber('pace', options.pace, 1, 600_000) ?? 500;
  const bettingMs = wholeNumber('betting', options.betting, 0, 3_600_000) ?? 1_000;

  return {
    who: 'tableside sim wheel',
    async build({ transport, key, hostKey, reconnect }) {
      const wheel = new SimulatedWheel({
        transport,
        ...(key === undefined ? {} : { key }),
        ...(hostKey === undefined ? {} : { hostKey }),
        ...(seed === undefined ? {} : { seed }),
        faults: options.fault,
        minRevolutions: getRouletteRuleset(rulesetName).spin.minBallRevolutions.value,
        paceMs,
        bettingMs,
        games,
        reconnect,
      });
      return {
        device: wheel,
        starting: {
          fields: {
            ruleset: rulesetName,
            seed: wheel.seed,
            games,
            paceMs,
            bettingMs,
            faults: options.fault,
            model: wheel.identity.model,
            firmwareSha256: wheel.identity.firmwareSha256,
          },
          message: 'wheel simulator starting',
        },
        readyMessage: 'HELLO acknowledged: spinning',
        watch(log) {
          wheel.on('game', (game) =>
            log.info(
              {
                game: game.game,
                number: game.number ?? null,
                rotor: game.rotor,
                faults: game.faults,
              },
              'game played',
            ),
          );
        },
        async played(stopping) {
          await new Promise<void>((resolve) => {
            const check = setInterval(() => {
              if (stopping() || wheel.played.length >= games) {
                clearInterval(check);
                resolve();
              }
            }, 50);
          });
          if (!stopping()) await wheel.whenSettled();
        },
        complete: () => ({ games: wheel.played.length }),
        summary: () => ({
          games: wheel.played.map((game) => ({
            game: game.game,
            number: game.number ?? null,
            rotor: game.rotor ?? null,
            faults: game.faults,
          })),
        }),
      };
    },
  };
}
