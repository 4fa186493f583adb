/**
 * The shoe firmware's card latency: from the IR beam breaking (the emulated
 * board's input changing) to the CARD frame written on the host link,
 * including the PN532 tag read and the TCS34725 colour reading, with the
 * emulated parts at their datasheet timings behind an emulated
 * StandardFirmata board on a socat pty (57600 baud, both ways).
 *
 * Baseline, in the same run: the beam report alone (the board's digital
 * report reaching the firmware), and the colour sensor's floor (two
 * integrations: the reading must begin after the card arrived).
 */
import { performance } from 'node:perf_hooks';
import { DeviceDriver } from '../../firmware-host/drivers/driver.ts';
import type { ShoeFirmware } from '../../hardware/firmware/shoe.ts';
import { createMemoryPair } from '../../hardware/transports/memory.ts';
import { SURFACES } from '../emulators/tcs34725.ts';
import { registryOf, ShoeRig, sleep, tagOf } from '../integration/firmware/shoe-rig.ts';
import { percentile } from './pipeline.ts';

export interface ShoeLatencyFigures {
  cards: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  /** Beam break to the firmware hearing of it (Firmata digital report). */
  beam_report: { p50_ms: number; p99_ms: number };
  /** The colour reading cannot be faster than two integrations after the beam. */
  colour_floor_ms: number;
  ratio_p99_to_floor: number;
}

export async function benchShoeLatency(
  cards = 150,
  baudRate = 57_600,
): Promise<ShoeLatencyFigures> {
  const rig = new ShoeRig('firmata', baudRate);
  const wire = createMemoryPair(`bench-shoe-${process.pid}`);
  const registry = registryOf(['red', 'red', 'red']);
  const driver = new DeviceDriver({ name: 'shoe', kind: 'shoe', transport: wire.host, registry });
  driver.on('record', (observation) => observation.ack());
  try {
    await rig.startBoard();
    driver.start();
    const firmware: ShoeFirmware = await rig.startFirmware(wire.device, { registry });
    await firmware.core.whenReady();
    const totals: number[] = [];
    const reports: number[] = [];
    let pending: { brokeAt: number; heardAt?: number } | undefined;
    firmware.on('event', (_message, beamAt) => {
      if (pending) pending.heardAt = beamAt;
    });
    firmware.core.on('wrote', (line) => {
      if (!pending || !/^\$SH,\d+,CARD,/.test(line)) return;
      totals.push(performance.now() - pending.brokeAt);
      if (pending.heardAt !== undefined) reports.push(pending.heardAt - pending.brokeAt);
      pending = undefined;
    });
    for (let index = 0; index < cards; index++) {
      const deck = 1 + Math.floor(index / 52);
      await rig.dealOne({ uid: tagOf(deck, index % 52), surface: SURFACES.redBack }, (atMs) => {
        pending = { brokeAt: atMs };
      });
      // Uneven gaps, as a dealer's hand.
      await sleep(20 + (index % 7) * 9);
    }
    const sorted = [...totals].sort((a, b) => a - b);
    const sortedReports = [...reports].sort((a, b) => a - b);
    const floor = 2 * 2.4 * 4; // two integrations of the shoe's 4 cycles of 2.4 ms
    const p99 = percentile(sorted, 99);
    return {
      cards: sorted.length,
      p50_ms: round(percentile(sorted, 50)),
      p99_ms: round(p99),
      max_ms: round(sorted.at(-1) ?? 0),
      beam_report: {
        p50_ms: round(percentile(sortedReports, 50)),
        p99_ms: round(percentile(sortedReports, 99)),
      },
      colour_floor_ms: floor,
      ratio_p99_to_floor: round(p99 / floor),
    };
  } finally {
    await driver.stop();
    await rig.stop();
  }
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
