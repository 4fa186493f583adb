import { CodedError } from '../device-protocol/coded-error.ts';

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

export class SimulatorError extends CodedError<SimulatorErrorCode> {
  override readonly name = 'SimulatorError';
}

export function isSimulatorError(value: unknown): value is SimulatorError {
  return value instanceof SimulatorError;
}
