/**
 * The one coded error class of the simulators: bad scenario files, bad fault
 * specs, unknown rulesets. `code` is stable for tests and the CLI.
 */
export type SimulatorErrorCode =
  | 'bad_scenario'
  | 'bad_fault'
  | 'bad_options'
  | 'unknown_ruleset'
  | 'not_running';

export class SimulatorError extends Error {
  override readonly name = 'SimulatorError';
  constructor(
    readonly code: SimulatorErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function isSimulatorError(value: unknown): value is SimulatorError {
  return value instanceof SimulatorError;
}
