/**
 * The shoe's IR beam: which level its receiver reads when a card breaks it.
 *
 * The wiring page's part, a bare IR break-beam pair, has an open-collector
 * receiver: its transistor conducts while it sees the emitter, so with the
 * pull-up on the pin reads LOW when a card breaks the beam and HIGH when it
 * is clear. Slot-sensor modules built on an LM393 comparator drive their
 * output HIGH when blocked. The setting says which one is fitted; a beam
 * that reads broken with the shoe at rest is most often the other kind.
 *
 * Pure: no I/O, no clock.
 */
import { z } from 'zod';

/** The level the beam receiver's pin reads while a card breaks the beam. */
export type BeamBrokenLevel = 'low' | 'high';

export const BEAM_BROKEN_LEVELS = ['low', 'high'] as const satisfies readonly BeamBrokenLevel[];

/** The listed part (open-collector receiver, pull-up on): LOW = broken. */
export const DEFAULT_BEAM_BROKEN: BeamBrokenLevel = 'low';

export const beamBrokenSchema = z.enum(BEAM_BROKEN_LEVELS);

/** Whether the beam is broken, from its pin's level. */
export function beamIsBroken(high: boolean, brokenLevel: BeamBrokenLevel): boolean {
  return high === (brokenLevel === 'high');
}

/**
 * What to tell the technician when the beam reads broken with nothing
 * moving: either something lies in it, or the receiver is the other kind.
 * `setting` names the option as the technician sets it (a config key or a
 * command-line flag).
 */
export function beamBlockedAdvice(
  brokenLevel: BeamBrokenLevel,
  setting: (level: BeamBrokenLevel) => string,
): string {
  const other: BeamBrokenLevel = brokenLevel === 'low' ? 'high' : 'low';
  const part =
    other === 'high'
      ? 'a module that drives HIGH when blocked, like an LM393 slot sensor'
      : 'an open-collector receiver, LOW when blocked';
  // The setting first: an ERROR detail keeps only the first 120 characters.
  return `set ${setting(other)} if nothing is in it (${part}); otherwise clear the beam`;
}

/** The pin level, for messages: "D2 HIGH". */
export function describeLevel(pin: number, high: boolean): string {
  return `D${pin} ${high ? 'HIGH' : 'LOW'}`;
}
