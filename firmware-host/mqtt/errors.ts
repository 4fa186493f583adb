import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the MQTT domain (bridge and embedded broker).
 */
export type MqttErrorCode =
  /** The embedded broker's port is held by another process. */
  | 'port_in_use'
  /** The embedded broker could not start for another reason. */
  | 'broker_failed'
  /** A TLS file (CA, certificate, key) cannot be read. */
  | 'tls_files'
  /** Bridge options out of range. */
  | 'bad_options'
  /** A request that is not valid JSON, names an unknown op or has bad fields. */
  | 'bad_request'
  /** Something the bridge must never publish (e.g. a shuffler's order). */
  | 'withheld'
  /** The bridge was stopped. */
  | 'stopped';

export class MqttError extends CodedError<MqttErrorCode> {
  override readonly name = 'MqttError';
}

export function isMqttError(value: unknown): value is MqttError {
  return value instanceof MqttError;
}
