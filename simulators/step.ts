/**
 * A simulated session is a list of steps: what the physical device does, in
 * order. The plan (plan.ts) is pure and seeded; the device core (device.ts)
 * plays it over a link. Each device kind projects the steps it can see, as
 * its profile's simulation says (`DriverProfile.simulation`): the shoe deals
 * cards and the cut card, the shuffler reports shuffles, the reader reads
 * tags.
 */
import type { BackColour, CardCode, Face } from '../device-protocol/cards.ts';

export type Step =
  /** A new shoe (or deck) was shuffled; `order` is the physical order, first card out first. */
  | {
      kind: 'shuffle';
      decks: number;
      backs: BackColour[];
      order: CardCode[];
      /** When false the shuffler cannot read cards and reports the count only. */
      reportOrder?: boolean;
    }
  /** A card leaves the shoe (or passes the reader). `uid` overrides the reader's tag. */
  | { kind: 'card'; card: CardCode; back: BackColour; face: Face; uid?: string }
  /** The cut card leaves the shoe. */
  | { kind: 'cut' }
  /** The card path jams; the device clears it after `clearAfterMs`. */
  | { kind: 'jam'; clearAfterMs: number }
  | { kind: 'lid'; open: boolean }
  | { kind: 'door'; open: boolean }
  /** The dealer pauses (between rounds, at the cut). */
  | { kind: 'pause'; ms: number }
  /** The device goes silent: sends nothing and answers nothing for `ms`. */
  | { kind: 'silence'; ms: number }
  /** A raw tag with no card behind it (reader), e.g. a foreign chip. */
  | { kind: 'tag'; uid: string }
  /** Switch a behaviour on or off from here on. */
  | { kind: 'behaviour'; name: string; on: boolean; arg?: string };

export type StepKind = Step['kind'];

/** What a device says about itself in HELLO. */
export interface DeviceIdentity {
  model: string;
  serial: string;
  protocolVersion: string;
  firmwareVersion: string;
  /** 64 lower-case hex digits. */
  firmwareSha256: string;
}

/** True for steps that consume the dealing pace (a card, the cut card, a tag). */
export function isPacedStep(step: Step): boolean {
  return step.kind === 'card' || step.kind === 'cut' || step.kind === 'tag';
}
