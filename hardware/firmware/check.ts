/**
 * `tableside diag` for a device the daemon runs itself (`transport:
 * firmware`): the board answers as Firmata, the PN532 gives its firmware
 * version, and the colour sensor's reading is plausible (neither dark nor
 * saturated). The board is opened and closed again; nothing is dealt.
 */
import { reasonOf } from '../errors.ts';
import { PartBoard } from '../firmata/part-board.ts';
import { Tcs34725 } from '../parts/tcs34725.ts';
import { Pn532, pn532OverI2c } from '../pn532/index.ts';
import {
  type BeamBrokenLevel,
  beamBlockedAdvice,
  beamIsBroken,
  DEFAULT_BEAM_BROKEN,
  describeLevel,
} from './beam.ts';
import { describeReading } from './colour.ts';
import { SHOE_PINS } from './shoe.ts';

/** A part of a firmware's board the check reads besides the board and its PN532. */
export type FirmwarePart = 'beam' | 'colour';

/** What the check needs of a device the firmware runs (the host passes its config's entry). */
export interface FirmwareDeviceSetup {
  /** The parts its firmware drives (the host reads them from the kind's profile). */
  readonly parts: readonly FirmwarePart[];
  /** Transport URL of the Firmata board. */
  readonly board?: string | undefined;
  readonly beamBroken?: BeamBrokenLevel | undefined;
}

/** One row of the check, in the shape `tableside diag` prints (its `CheckOutcome`). */
export interface PartCheckOutcome {
  name: string;
  status: 'pass' | 'warn' | 'fail';
  detail: string;
  advice?: string;
  data?: Record<string, unknown>;
}

export async function checkFirmwareDevice(
  prefix: string,
  device: FirmwareDeviceSetup,
  options: { readyTimeoutMs?: number } = {},
): Promise<PartCheckOutcome[]> {
  if (!device.board) {
    return [
      {
        name: prefix,
        status: 'fail',
        detail: 'transport firmware without a board',
        advice: 'set board: /dev/ttyUSB0',
      },
    ];
  }
  let board: PartBoard;
  try {
    board = await PartBoard.open({
      url: device.board,
      ...(options.readyTimeoutMs !== undefined ? { readyTimeoutMs: options.readyTimeoutMs } : {}),
    });
  } catch (error) {
    return [
      {
        name: `${prefix} board`,
        status: 'fail',
        detail: reasonOf(error),
        advice: 'flash StandardFirmata and check the USB cable (docs/technician/wiring.md)',
      },
    ];
  }
  const outcomes: PartCheckOutcome[] = [
    {
      name: `${prefix} board`,
      status: 'pass',
      detail: `${device.board} answers: ${board.firmware}`,
    },
  ];
  try {
    const pn532 = new Pn532(pn532OverI2c(board.i2c));
    try {
      const version = await pn532.firmwareVersion();
      outcomes.push({
        name: `${prefix} pn532`,
        status: 'pass',
        detail: `PN5${version.ic.toString(16)} firmware ${version.ver}.${version.rev} at I2C 0x24`,
        data: { ...version },
      });
    } catch (error) {
      outcomes.push({
        name: `${prefix} pn532`,
        status: 'fail',
        detail: reasonOf(error),
        advice: 'PN532 module: switches to I2C (SW1 on, SW2 off), SDA/SCL to A4/A5, power',
      });
    }
    if (device.parts.includes('beam')) {
      outcomes.push(await checkBeam(prefix, board, device.beamBroken ?? DEFAULT_BEAM_BROKEN));
    }
    if (device.parts.includes('colour')) {
      const sensor = new Tcs34725(board.i2c);
      try {
        await sensor.begin();
        // Auto-ranged as the shoe reads: only a sensor no setting reads usably is suspect.
        const reading = await sensor.readFresh(performance.now(), { budgetMs: 500 });
        const dark = reading.c < reading.range.dark;
        const plausible = !dark && reading.c < reading.range.saturated;
        const { raw, setting, range, ...counts } = reading;
        outcomes.push({
          name: `${prefix} tcs34725`,
          status: plausible ? 'pass' : 'warn',
          detail: `colour sensor at I2C 0x29 reads ${describeReading(reading)} (${setting.gain}x, ${setting.cycles} cycles)${plausible ? '' : dark ? ': dark' : ': saturated'}`,
          ...(plausible
            ? {}
            : {
                advice: 'check the sensor LED and its distance to the card path, then recalibrate',
              }),
          data: { ...counts, gain: setting.gain, cycles: setting.cycles, ...range },
        });
      } catch (error) {
        outcomes.push({
          name: `${prefix} tcs34725`,
          status: 'fail',
          detail: reasonOf(error),
          advice: 'TCS34725 module: SDA/SCL to A4/A5, VIN',
        });
      }
    }
  } finally {
    await board.close();
  }
  return outcomes;
}

/** The IR beam with nothing in it must read clear: broken means a blocked beam or the other kind of receiver. */
async function checkBeam(
  prefix: string,
  board: PartBoard,
  brokenLevel: BeamBrokenLevel,
): Promise<PartCheckOutcome> {
  const pin = SHOE_PINS.beam;
  try {
    const high = await board.readLevel(pin);
    const level = describeLevel(pin, high);
    if (!beamIsBroken(high, brokenLevel)) {
      return {
        name: `${prefix} beam`,
        status: 'pass',
        detail: `IR beam reads clear at rest (${level}; beamBroken: ${brokenLevel})`,
      };
    }
    return {
      name: `${prefix} beam`,
      status: 'fail',
      detail: `IR beam reads broken at rest (${level}; beamBroken: ${brokenLevel})`,
      advice: beamBlockedAdvice(
        brokenLevel,
        (other) => `beamBroken: ${other} in this device's config`,
      ),
    };
  } catch (error) {
    return {
      name: `${prefix} beam`,
      status: 'fail',
      detail: reasonOf(error),
      advice: 'check the board (docs/technician/wiring.md)',
    };
  }
}
