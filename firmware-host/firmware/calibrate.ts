/**
 * `tableside firmware calibrate`: the technician lays each back colour, a
 * card's face and the cut card over the shoe's colour sensor in turn; the
 * averaged readings become the references the shoe matches against. A
 * calibration whose references do not each match only themselves is
 * refused (two backs that read alike would be guessed between).
 */
import { rename, writeFile } from 'node:fs/promises';
import { PartBoard } from '../../hardware/firmata/part-board.ts';
import { type Rgbc, Tcs34725 } from '../../hardware/parts/tcs34725.ts';
import {
  type Calibration,
  CUT_CARD,
  calibrationFrom,
  classifyColour,
  describeReading,
  FACE,
} from './colour.ts';

export interface CalibrateOptions {
  boardUrl: string;
  out: string;
  backs: readonly string[];
  /** Asks the technician to lay something over the sensor; resolves when it is there. */
  ask(question: string): Promise<void>;
  log(message: string): void;
  /** Readings averaged per reference. */
  samples?: number;
}

export async function calibrate(options: CalibrateOptions): Promise<Calibration> {
  const board = await PartBoard.open({ url: options.boardUrl });
  try {
    const sensor = new Tcs34725(board.i2c);
    await sensor.begin();
    const references: Record<string, Rgbc> = {};
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
      const reading = await average(sensor, options.samples ?? 5);
      if (reading.c < sensor.fullScale * 0.02) {
        throw new Error(
          `${name}: ${describeReading(reading)} is too dark: is the sensor's LED on and the card over it?`,
        );
      }
      if (reading.c >= sensor.fullScale) {
        throw new Error(
          `${name}: ${describeReading(reading)} saturates the sensor: lower the gain`,
        );
      }
      options.log(`${name}: ${describeReading(reading)}`);
      references[name] = reading;
    }
    const calibration = calibrationFrom(references);
    for (const [name, reading] of Object.entries(references)) {
      const verdict = classifyColour(reading, calibration, sensor.fullScale);
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

async function average(sensor: Tcs34725, samples: number): Promise<Rgbc> {
  const sum = { c: 0, r: 0, g: 0, b: 0 };
  for (let index = 0; index < samples; index++) {
    const reading = await sensor.readFresh();
    sum.c += reading.c;
    sum.r += reading.r;
    sum.g += reading.g;
    sum.b += reading.b;
  }
  return {
    c: Math.round(sum.c / samples),
    r: Math.round(sum.r / samples),
    g: Math.round(sum.g / samples),
    b: Math.round(sum.b / samples),
  };
}
