/**
 * What the shoe's colour sensor saw: a back colour (the card travelled face
 * down), a face (mostly white: face up), the cut card (yellow plastic by
 * default), or nothing it may trust. Matching
 * is by chromaticity (each channel's share of r+g+b, so the LED's strength
 * and the card's distance matter less) and, with a calibration, brightness.
 * A reading that matches no reference, or two, is `unmatched`: the shoe
 * raises an alarm rather than guess. Readings and references are counts in
 * the colour sensor's reference scale (4x gain, 4 cycles of 2.4 ms), whatever
 * setting its auto-range read them at (hardware/parts/tcs34725.ts).
 *
 * Calibration file (JSON, written by `tableside firmware calibrate`):
 *
 *   { "format": "tableside-shoe-calibration", "version": 1,
 *     "references": { "red": {"c":..,"r":..,"g":..,"b":..}, "blue": {...}, "face": {...},
 *                     "cut": {...} },
 *     "tolerance": 0.08 }
 *
 * Pure: no I/O, no clock.
 */
import { z } from 'zod';

export const CALIBRATION_FORMAT = 'tableside-shoe-calibration';
/** The reference that stands for a card's face rather than a back colour. */
export const FACE = 'face';
/** The reference that stands for the cut card (plastic, untagged, a colour no back has). */
export const CUT_CARD = 'cut';

export interface Rgbc {
  readonly c: number;
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

const rgbcSchema = z.object({
  c: z.number().nonnegative(),
  r: z.number().nonnegative(),
  g: z.number().nonnegative(),
  b: z.number().nonnegative(),
});

export const calibrationSchema = z
  .object({
    format: z.literal(CALIBRATION_FORMAT),
    version: z.literal(1),
    references: z
      .record(
        z.string().regex(/^[a-z][a-z0-9-]{0,15}$/, 'expected a colour word or "face"'),
        rgbcSchema,
      )
      .refine((references) => FACE in references, 'needs a "face" reference')
      .refine(
        (references) => Object.keys(references).length >= 2,
        'needs at least one back colour',
      ),
    /** Largest chromaticity distance that still matches. */
    tolerance: z.number().positive().max(0.5).default(0.08),
    /** With references measured on this shoe: a reading may be at most this many times darker or brighter. */
    brightnessRatio: z.number().min(1).max(100).optional(),
  })
  .strict();

export type Calibration = z.output<typeof calibrationSchema>;

/**
 * Without a calibration file: saturated red and blue backs and a white face
 * under the wiring page's white LED, by chromaticity alone (brightness
 * depends too much on the build to guess).
 */
export const DEFAULT_CALIBRATION: Calibration = {
  format: CALIBRATION_FORMAT,
  version: 1,
  references: {
    red: { c: 100, r: 66, g: 17, b: 17 },
    blue: { c: 100, r: 15, g: 27, b: 58 },
    face: { c: 100, r: 34, g: 33, b: 33 },
    cut: { c: 100, r: 46, g: 43, b: 11 },
  },
  tolerance: 0.12,
};

/** Below this share of the clear channel's full scale, nothing lies under the sensor. */
const DARK_FRACTION = 0.02;

export type ColourVerdict =
  | { readonly kind: 'back'; readonly back: string }
  | { readonly kind: 'face' }
  | { readonly kind: 'cut' }
  | { readonly kind: 'unmatched'; readonly reason: string };

function chroma(reading: Rgbc): [number, number, number] {
  const sum = reading.r + reading.g + reading.b;
  if (sum <= 0) return [0, 0, 0];
  return [reading.r / sum, reading.g / sum, reading.b / sum];
}

function distance(a: Rgbc, b: Rgbc): number {
  const [ar, ag, ab] = chroma(a);
  const [br, bg, bb] = chroma(b);
  return Math.hypot(ar - br, ag - bg, ab - bb);
}

export function describeReading(reading: Rgbc): string {
  const count = (value: number) => String(Math.round(value * 10) / 10);
  return `r=${count(reading.r)} g=${count(reading.g)} b=${count(reading.b)} c=${count(reading.c)}`;
}

/**
 * The clear counts, in the reading's scale, between which a reading can be
 * trusted: below `dark` nothing lies under the sensor (or its LED is off),
 * at or above `saturated` the counts are clipped. A number is a raw
 * reading's full scale: dark below 2 % of it, saturated at it.
 */
export type ReadingRange = number | { readonly dark: number; readonly saturated: number };

export function classifyColour(
  reading: Rgbc,
  calibration: Calibration,
  range: ReadingRange,
): ColourVerdict {
  const { dark, saturated } =
    typeof range === 'number' ? { dark: range * DARK_FRACTION, saturated: range } : range;
  if (reading.c < dark || reading.r + reading.g + reading.b === 0) {
    return {
      kind: 'unmatched',
      reason: `too dark (${describeReading(reading)}) even at the most sensitive setting tried: no card under the sensor, or its LED is off`,
    };
  }
  if (reading.c >= saturated) {
    return {
      kind: 'unmatched',
      reason: `saturated (${describeReading(reading)}) even at the least sensitive setting tried: move the sensor further from the card or dim its LED`,
    };
  }
  const matches: string[] = [];
  for (const [name, reference] of Object.entries(calibration.references)) {
    if (distance(reading, reference) > calibration.tolerance) continue;
    const ratio = calibration.brightnessRatio;
    if (ratio !== undefined && reference.c > 0) {
      const factor = reading.c / reference.c;
      if (factor > ratio || factor < 1 / ratio) continue;
    }
    matches.push(name);
  }
  if (matches.length === 0) {
    return {
      kind: 'unmatched',
      reason: `${describeReading(reading)} matches no calibrated colour (${Object.keys(calibration.references).join(', ')})`,
    };
  }
  if (matches.length > 1) {
    return {
      kind: 'unmatched',
      reason: `${describeReading(reading)} matches ${matches.join(' and ')}: recalibrate with more distinct cards`,
    };
  }
  const name = matches[0]!;
  if (name === FACE) return { kind: 'face' };
  if (name === CUT_CARD) return { kind: 'cut' };
  return { kind: 'back', back: name };
}

/** Parses a calibration file's text; throws an Error naming what is wrong. */
export function parseCalibration(text: string, where = 'calibration'): Calibration {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not JSON: ${(error as Error).message}`);
  }
  const parsed = calibrationSchema.safeParse(document);
  if (!parsed.success) throw new Error(`${where}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** A calibration from readings of each back colour and of a face. */
export function calibrationFrom(
  references: Readonly<Record<string, Rgbc>>,
  tolerance = 0.08,
): Calibration {
  return calibrationSchema.parse({
    format: CALIBRATION_FORMAT,
    version: 1,
    references,
    tolerance,
    brightnessRatio: 3,
  });
}
