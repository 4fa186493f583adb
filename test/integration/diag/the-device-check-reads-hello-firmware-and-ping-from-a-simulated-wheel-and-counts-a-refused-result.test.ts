import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceConfig } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import type { CheckOutcome } from '../../../firmware-host/diag/report.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SimulatedWheel, WHEEL_FIRMWARE_SHA256, WHEEL_MODEL } from '../../../simulators/wheel.ts';

const wheels: SimulatedWheel[] = [];
afterEach(async () => {
  for (const wheel of wheels.splice(0)) await wheel.stop();
});

function simulatedWheel(faults: string[] = []) {
  const wire = createMemoryPair(`diag-wheel-${Math.random().toString(36).slice(2)}`);
  const wheel = new SimulatedWheel({
    transport: wire.device,
    seed: 9,
    faults,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
  });
  wheels.push(wheel);
  wheel.start();
  return { wire, wheel };
}

const byName = (results: CheckOutcome[], name: string) =>
  results.find((result) => result.name === `device wheel: ${name}`);

describe('the device check against a simulated roulette wheel', () => {
  it('passes a wheel whose model and firmware are on the allow-list, with a measured ping', async () => {
    const { wire } = simulatedWheel();
    const device: DeviceConfig = {
      kind: 'wheel',
      transport: wire.host.url,
      model: WHEEL_MODEL,
      firmware: [WHEEL_FIRMWARE_SHA256],
    };
    const results = await checkDevice('wheel', device, { transport: wire.host, observeMs: 1200 });
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['device wheel: open', 'pass'],
      ['device wheel: HELLO', 'pass'],
      ['device wheel: firmware', 'pass'],
      ['device wheel: key', 'warn'],
      ['device wheel: ping', 'pass'],
      ['device wheel: line errors', 'pass'],
    ]);
    expect(byName(results, 'HELLO')!.detail).toContain(WHEEL_MODEL);
    // A wheel without a key answers the CHALLENGE at once: a bench wheel, not a silent one.
    expect(byName(results, 'key')!.detail).toContain('PROOF,none');
  });

  it('does not pass the line of a wheel whose reader sends an impossible number', async () => {
    const { wire, wheel } = simulatedWheel(['misread=1']);
    wheel.once('ready', () => void wheel.playGame());
    const device: DeviceConfig = { kind: 'wheel', transport: wire.host.url, firmware: [] };
    const results = await checkDevice('wheel', device, { transport: wire.host, observeMs: 1200 });
    const line = byName(results, 'line errors')!;
    expect(line.status).not.toBe('pass');
    expect(JSON.stringify(line)).toMatch(/invalid/);
  });
});
