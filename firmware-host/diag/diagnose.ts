/**
 * What `tableside diag` runs: the config check first (the others need it),
 * then either the host checks (devices, broker, journal, clock) or, with
 * `simulate`, the clock and a scripted session through simulators.
 */
import type { GamePlugin } from '../games/game.ts';
import { checkClock, checkConfig, type HostCheckOptions, hostChecks } from './host-checks.ts';
import {
  type Check,
  type CheckOutcome,
  type DiagReport,
  type RunnerHooks,
  reportOf,
  runChecks,
} from './report.ts';
import type { SimulationOptions } from './simulate.ts';

export interface DiagnoseOptions {
  /** The config file (else TABLESIDE_CONFIG, else the defaults). */
  config?: string | undefined;
  simulate?: boolean;
  host?: HostCheckOptions;
  /** Progress inside the simulated session. */
  onSimulationProgress?(done: number, total: number, phase: string): void;
  /** Cards of the simulated session (default 90). */
  simulationCards?: number;
}

export async function diagnose(
  options: DiagnoseOptions = {},
  hooks: RunnerHooks = {},
): Promise<DiagReport> {
  let loaded: Awaited<ReturnType<typeof checkConfig>>['loaded'];
  const checks: Check[] = [
    {
      name: 'config',
      run: async () => {
        const result = await checkConfig(options.config);
        loaded = result.loaded;
        return result.outcome;
      },
    },
  ];
  const first = await runChecks(checks, hooks);
  if (!loaded) {
    const skipped: CheckOutcome = {
      name: options.simulate ? 'simulate' : 'devices, broker, journal, clock',
      status: 'skip',
      detail: 'not run: the config did not load',
    };
    const second = await runChecks([{ name: skipped.name!, run: async () => skipped }]);
    return merge(first, second);
  }
  const config = loaded.config;
  let more: Check[];
  if (options.simulate) {
    more = [
      { name: 'clock', run: () => checkClock(options.host) },
      {
        name: 'simulate',
        run: async () => {
          // The table's game says which scripted session it plays: a shoe's cards, a wheel's games.
          const { gameOf } = await import('../games/registry.ts');
          return SCRIPTED_SESSIONS[gameOf(config.ruleset).diagSimulation]({
            config,
            ...(options.simulationCards !== undefined ? { cards: options.simulationCards } : {}),
            ...(options.onSimulationProgress ? { onProgress: options.onSimulationProgress } : {}),
          });
        },
      },
    ];
  } else {
    more = hostChecks(config, options.host);
  }
  const offset = checks.length;
  const second = await runChecks(more, {
    ...(hooks.onStart
      ? { onStart: (check, index, total) => hooks.onStart!(check, index + offset, total + offset) }
      : {}),
    ...(hooks.onDone
      ? {
          onDone: (check, results, index, total) =>
            hooks.onDone!(check, results, index + offset, total + offset),
        }
      : {}),
  });
  return merge(first, second);
}

function merge(a: DiagReport, b: DiagReport): DiagReport {
  return reportOf([...a.checks, ...b.checks]);
}

/**
 * Each game's scripted session and its judge, by the name its plug-in gives
 * (`GamePlugin.diagSimulation`).
 */
const SCRIPTED_SESSIONS: Record<
  GamePlugin['diagSimulation'],
  (request: Pick<SimulationOptions, 'config' | 'cards' | 'onProgress'>) => Promise<CheckOutcome[]>
> = {
  shoe: async (request) => {
    const { runSimulation, simulationOutcomes } = await import('./simulate.ts');
    return simulationOutcomes(await runSimulation(request));
  },
  wheel: async ({ config }) => {
    const { runWheelSimulation, wheelSimulationOutcomes } = await import(
      '../games/roulette/diag/simulate-wheel.ts'
    );
    return wheelSimulationOutcomes(await runWheelSimulation({ config }));
  },
};
