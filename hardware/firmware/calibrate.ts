/**
 * `tableside firmware calibrate`: the technician lays each back colour, a
 * card's face and the cut card over the shoe's colour sensor in turn; the
 * averaged readings become the references the shoe matches against. A
 * calibration whose references do not each match only themselves is
 * refused (two backs that read alike would be guessed between). It also
 * looks at the IR beam, which must read clear with the shoe at rest, and
 * says which setting to change when it does not.
 */
import { rename, writeFile } from 'node:fs/promises';
import { PartBoard } from '../firmata/part-board.ts';
import { type Rgbc, Tcs34725 } from '../parts/tcs34725.ts';
import {
  type BeamBrokenLevel,
  beamBlockedAdvice,
  beamIsBroken,
  DEFAULT_BEAM_BROKEN,
  describeLevel,
} from './beam.ts';
import {
  type Calibration,
  CUT_CARD,
  calibrationFrom,
  classifyColour,
  describeReading,
  FACE,
  type ReadingRange,
} from './colour.ts';
import { SHOE_PINS } from './shoe.ts';

export interface CalibrateOptions {
  boardUrl: string;
  out: string;
  backs: readonly string[];
  /** Asks the technician to lay something over the sensor; resolves when it is there. */
  ask(question: string): Promise<void>;
  log(message: string): void;
  /** Readings averaged per reference. */
  samples?: number;
  /** The beam receiver's level while broken, as the shoe will run (default low). */
  beamBroken?: BeamBrokenLevel;
}

export async function calibrate(options: CalibrateOptions): Promise<Calibration> {
  const board = await PartBoard.open({ url: options.boardUrl });
  try {
    const brokenLevel = options.beamBroken ?? DEFAULT_BEAM_BROKEN;
    const beamHigh = await board.readLevel(SHOE_PINS.beam);
    if (beamIsBroken(beamHigh, brokenLevel)) {
      options.log(
        `warning: the IR beam reads broken at rest (${describeLevel(SHOE_PINS.beam, beamHigh)}, --beam-broken ${brokenLevel}): ${beamBlockedAdvice(brokenLevel, (level) => `--beam-broken ${level} (beamBroken: ${level} in the config)`)}`,
      );
    }
    const sensor = new Tcs34725(board.i2c);
    await sensor.begin();
    const references: Record<string, Rgbc> = {};
    const ranges: Record<string, ReadingRange> = {};
    const targets = [
      ...options.backs.map((back) => [
        back,
        `Lay a card with a ${back} back face down over the sensor`,
      ]),
      [FACE, 'Lay a card face up (its face over the sensor)'],
      [CUT_CARD, 'Lay the cut card over the sensor'],
    ] as const;
    for (const [name, question] of targets) {
      await options.ask(question);
      const { reading, range, dark, saturated } = await average(sensor, options.samples ?? 5);
      if (dark) {
        throw new Error(
          `${name}: ${describeReading(reading)} is too dark: is the sensor's LED on and the card over it?`,
        );
      }
      if (saturated) {
        throw new Error(
          `${name}: ${describeReading(reading)} saturates the sensor at its least sensitive setting: move it further from the card path or dim its LED`,
        );
      }
      options.log(`${name}: ${describeReading(reading)}`);
      references[name] = reading;
      ranges[name] = range;
    }
    const calibration = calibrationFrom(references);
    for (const [name, reading] of Object.entries(references)) {
      const verdict = classifyColour(reading, calibration, ranges[name]!);
      const matched =
        verdict.kind === 'back'
          ? verdict.back
          : verdict.kind === 'unmatched'
            ? undefined
            : verdict.kind;
      if (matched !== name) {
        throw new Error(
          `${name} does not read apart from the others (${verdict.kind === 'unmatched' ? verdict.reason : `it matches ${matched}`}): use cards of more distinct colours`,
        );
      }
    }
    const temporary = `${options.out}.tmp`;
    await writeFile(temporary, `${JSON.stringify(calibration, null, 2)}\n`);
    await rename(temporary, options.out);
    return calibration;
  } finally {
    await board.close();
  }
}

/**
 * The mean of `samples` auto-ranged readings (in the reference scale), the
 * last one's range, and whether any of them was dark or saturated.
 */
async function average(
  sensor: Tcs34725,
  samples: number,
): Promise<{
  reading: Rgbc;
  range: { dark: number; saturated: number };
  dark: boolean;
  saturated: boolean;
}> {
  const sum = { c: 0, r: 0, g: 0, b: 0 };
  let dark = false;
  let saturated = false;
  let range = { dark: 0, saturated: Number.POSITIVE_INFINITY };
  for (let index = 0; index < samples; index++) {
    const reading = await sensor.readFresh(performance.now(), { budgetMs: 500 });
    sum.c += reading.c;
    sum.r += reading.r;
    sum.g += reading.g;
    sum.b += reading.b;
    range = reading.range;
    dark ||= reading.c < range.dark;
    saturated ||= reading.c >= range.saturated;
  }
  const mean = (total: number) => Math.round((total / samples) * 100) / 100;
  return {
    reading: { c: mean(sum.c), r: mean(sum.r), g: mean(sum.g), b: mean(sum.b) },
    range,
    dark,
    saturated,
  };
}
