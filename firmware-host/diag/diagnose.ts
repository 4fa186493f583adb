/**
 * What `tableside diag` runs: the config check first (the others need it),
 * then either the host checks (devices, broker, journal, clock) or, with
 * `simulate`, the clock and a scripted session through simulators.
 */
import { checkClock, checkConfig, type HostCheckOptions, hostChecks } from './host-checks.ts';
import {
  type Check,
  type CheckOutcome,
  type DiagReport,
  type RunnerHooks,
  reportOf,
  runChecks,
} from './report.ts';

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
          if (gameOf(config.ruleset).diagSimulation === 'wheel') {
            const { runWheelSimulation, wheelSimulationOutcomes } = await import(
              './simulate-wheel.ts'
            );
            return wheelSimulationOutcomes(await runWheelSimulation({ config }));
          }
          const { runSimulation, simulationOutcomes } = await import('./simulate.ts');
          const run = await runSimulation({
            config,
            ...(options.simulationCards !== undefined ? { cards: options.simulationCards } : {}),
            ...(options.onSimulationProgress ? { onProgress: options.onSimulationProgress } : {}),
          });
          return simulationOutcomes(run);
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
