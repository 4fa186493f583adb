/** Shared pieces of the device-authentication tests (protocol 1.4). */
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SimulatedWheel } from '../../../simulators/wheel.ts';

export const SHOE_SCRIPT = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 6 }],
};

export async function ed25519Key(): Promise<DeviceKey> {
  return deviceKey(generatedSigner('ed25519'));
}

export function alarmsOf(driver: DeviceDriver): Extract<DomainEvent, { type: 'alarm' }>[] {
  const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
  driver.on('alarm', (alarm) => alarms.push(alarm));
  return alarms;
}

export { until } from '../../helpers/until.ts';

/** The line with one bit of its MAC (last field) flipped, its CRC made right again. */
export function flipMacBit(line: string): string {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') throw new Error(`not a frame: ${line}`);
  const fields = [...event.frame.fields];
  const mac = fields.at(-1)!;
  const bytes = Buffer.from(mac.slice(1), 'base64url');
  bytes[3]! ^= 0x10;
  fields[fields.length - 1] = `~${bytes.toString('base64url')}`;
  return encodeFrame({ ...event.frame, fields });
}

/**
 * A wheel driver on a line paired with `paired`, fed by a wheel simulator
 * holding `wheelKey`; every record is stored (ACKed) at once. What undoes
 * it goes onto `stops`, to be run last first.
 */
export function pairedWheelBench(
  paired: DeviceKey,
  wheelKey: DeviceKey,
  stops: Array<() => Promise<void>>,
) {
  const wire = createMemoryPair(`paired-wheel-${Math.random().toString(36).slice(2)}`);
  const driver = new DeviceDriver({
    name: 'wheel',
    kind: 'wheel',
    transport: wire.host,
    pairedKey: paired.publicKey,
    timing: { heartbeatMs: 200, offlineAfterMs: 2_000, silenceTimeoutMs: 0 },
  });
  const observations: Observation[] = [];
  driver.on('record', (observation) => {
    observations.push(observation);
    // Stored at once: the RESULT is ACKed only after this.
    observation.ack();
  });
  const alarms = alarmsOf(driver);
  const wheel = new SimulatedWheel({
    transport: wire.device,
    seed: 11,
    key: wheelKey,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
  });
  const written: string[] = [];
  wheel.on('wrote', (line) => written.push(line));
  stops.push(() => driver.stop());
  stops.push(() => wheel.stop());
  driver.start();
  wheel.start();
  return { driver, wheel, observations, alarms, written };
}
