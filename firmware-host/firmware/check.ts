/**
 * `tableside diag` for a device the daemon runs itself (`transport:
 * firmware`): the board answers as Firmata, the PN532 gives its firmware
 * version, and the colour sensor's reading is plausible (neither dark nor
 * saturated). The board is opened and closed again; nothing is dealt.
 */
import { reasonOf } from '../../hardware/errors.ts';
import { PartBoard } from '../../hardware/firmata/part-board.ts';
import { Tcs34725 } from '../../hardware/parts/tcs34725.ts';
import { Pn532, pn532OverI2c } from '../../hardware/pn532/index.ts';
import type { DeviceConfig } from '../config/schema.ts';
import type { CheckOutcome } from '../diag/report.ts';
import { describeReading } from './colour.ts';

export async function checkFirmwareDevice(
  prefix: string,
  device: DeviceConfig,
  options: { readyTimeoutMs?: number } = {},
): Promise<CheckOutcome[]> {
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
        advice: 'flash StandardFirmata and check the USB cable (hardware/FIRMWARE-WIRING.md)',
      },
    ];
  }
  const outcomes: CheckOutcome[] = [
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
    if (device.kind === 'shoe') {
      const sensor = new Tcs34725(board.i2c);
      try {
        await sensor.begin();
        const reading = await sensor.readFresh();
        const plausible = reading.c > sensor.fullScale * 0.005 && reading.c < sensor.fullScale;
        outcomes.push({
          name: `${prefix} tcs34725`,
          status: plausible ? 'pass' : 'warn',
          detail: `colour sensor at I2C 0x29 reads ${describeReading(reading)}${plausible ? '' : reading.c === 0 ? ': dark' : ': saturated'}`,
          ...(plausible
            ? {}
            : {
                advice: 'check the sensor LED and its distance to the card path, then recalibrate',
              }),
          data: { ...reading, fullScale: sensor.fullScale },
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
