import { describe, expect, it } from 'vitest';
import {
  calibrationFrom,
  classifyColour,
  DEFAULT_CALIBRATION,
  parseCalibration,
} from '../../../hardware/firmware/colour.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';

const FULL_SCALE = 4 * 1024;
/** A surface as the shoe's sensor reads it: 4 cycles at 4x. */
const read = (surface: { c: number; r: number; g: number; b: number }, scale = 16) => ({
  c: surface.c * scale,
  r: surface.r * scale,
  g: surface.g * scale,
  b: surface.b * scale,
});

describe('the shoe tells backs, faces and the cut card apart, and matches nothing else', () => {
  it('with the built-in defaults', () => {
    const classify = (surface: Parameters<typeof read>[0]) =>
      classifyColour(read(surface), DEFAULT_CALIBRATION, FULL_SCALE);
    expect(classify(SURFACES.redBack)).toEqual({ kind: 'back', back: 'red' });
    expect(classify(SURFACES.blueBack)).toEqual({ kind: 'back', back: 'blue' });
    expect(classify(SURFACES.face)).toEqual({ kind: 'face' });
    expect(classify(SURFACES.cutCard)).toEqual({ kind: 'cut' });
    expect(classify(SURFACES.green)).toMatchObject({ kind: 'unmatched' });
    expect(classify(SURFACES.none)).toMatchObject({ kind: 'unmatched', reason: /too dark/ });
  });

  it('calls a saturated reading unmatched rather than guessing', () => {
    const verdict = classifyColour(
      { c: FULL_SCALE, r: 3000, g: 700, b: 700 },
      DEFAULT_CALIBRATION,
      FULL_SCALE,
    );
    expect(verdict).toMatchObject({ kind: 'unmatched', reason: /saturated/ });
  });

  it('with a calibration, brightness counts too: a dim red is not the red back', () => {
    const calibration = calibrationFrom({
      red: read(SURFACES.redBack),
      blue: read(SURFACES.blueBack),
      face: read(SURFACES.face),
    });
    expect(classifyColour(read(SURFACES.redBack), calibration, FULL_SCALE)).toEqual({
      kind: 'back',
      back: 'red',
    });
    expect(classifyColour(read(SURFACES.redBack, 4), calibration, FULL_SCALE)).toMatchObject({
      kind: 'unmatched',
    });
  });

  it('refuses a calibration file that is not one, naming what is wrong', () => {
    expect(() => parseCalibration('{', 'cal.json')).toThrow(/cal.json: not JSON/);
    expect(() =>
      parseCalibration(
        JSON.stringify({
          format: 'tableside-shoe-calibration',
          version: 1,
          references: { red: { c: 1, r: 1, g: 0, b: 0 } },
        }),
        'cal.json',
      ),
    ).toThrow(/face/);
  });
});
