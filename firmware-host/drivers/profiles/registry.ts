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

/** The profiles a table knows: the shipped ones, and a vendor's beside them. */
export type ProfileRegistry = Readonly<Record<string, DriverProfile>>;

/** True when `kind` is a shipped kind. */
export function isDeviceKind(kind: string): kind is DeviceKind {
  return Object.hasOwn(DEVICE_PROFILES, kind);
}

/**
 * The profile of a kind named by a config or a command line; a kind the
 * registry lacks is refused naming the kinds it knows.
 */
export function profileFor(
  kind: string,
  profiles: ProfileRegistry = DEVICE_PROFILES,
): DriverProfile {
  const profile = Object.hasOwn(profiles, kind) ? profiles[kind] : undefined;
  if (!profile) {
    throw new Error(
      `unknown device kind ${JSON.stringify(kind)}: expected one of ${Object.keys(profiles).join(', ')}`,
    );
  }
  return profile;
}

/** The kinds whose profile says yes, in the registry's order, as words ("shoe", "shoe or reader"). */
export function kindsWhere(
  says: (profile: DriverProfile) => boolean,
  profiles: ProfileRegistry = DEVICE_PROFILES,
): string {
  const kinds = Object.entries(profiles)
    .filter(([, profile]) => says(profile))
    .map(([kind]) => kind);
  if (kinds.length <= 1) return kinds[0] ?? 'no kind';
  return `${kinds.slice(0, -1).join(', ')} or ${kinds.at(-1)}`;
}
