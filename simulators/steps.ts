/**
 * The simulated session's steps (step.ts), and the device kinds a simulated
 * device plays: those whose profile names a simulation (the wheel has a
 * simulator of its own, wheel.ts).
 */
import {
  profileOf,
  DEVICE_KINDS as REGISTERED_KINDS,
  type DeviceKind as RegisteredKind,
} from '../firmware-host/drivers/profiles/registry.ts';

export * from './step.ts';

/** A registered device kind; a simulated device plays those of `DEVICE_KINDS`. */
export type DeviceKind = RegisteredKind;

/** The kinds `tableside sim` and a simulated device play, in the registry's order. */
export const DEVICE_KINDS: readonly DeviceKind[] = REGISTERED_KINDS.filter(
  (kind) => profileOf(kind).simulation !== undefined,
);
