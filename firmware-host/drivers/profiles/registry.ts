/**
 * The device kinds tableside ships, each by its profile. `DeviceKind` is
 * read from this registry, so a kind without a profile does not compile; a
 * vendor's kind is a profile of its own handed to the driver (`profile:`),
 * with no change here.
 */
import type { DriverProfile } from '../profile.ts';
import { readerProfile } from './reader.ts';
import { shoeProfile } from './shoe.ts';
import { shufflerProfile } from './shuffler.ts';
import { wheelProfile } from './wheel.ts';

export const DEVICE_PROFILES = {
  shoe: shoeProfile,
  shuffler: shufflerProfile,
  reader: readerProfile,
  wheel: wheelProfile,
} as const satisfies Readonly<Record<string, DriverProfile>>;

export type DeviceKind = keyof typeof DEVICE_PROFILES;

/** Every shipped kind, in the registry's order. */
export const DEVICE_KINDS = Object.keys(DEVICE_PROFILES) as DeviceKind[];

export function profileOf(kind: DeviceKind): DriverProfile {
  return DEVICE_PROFILES[kind];
}
