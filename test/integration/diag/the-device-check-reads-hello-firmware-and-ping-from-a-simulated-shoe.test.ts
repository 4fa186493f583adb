import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceConfig } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import type { CheckOutcome } from '../../../firmware-host/diag/report.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import {
  SimulatedDevice,
  simulatorFirmwareSha256,
  simulatorModel,
} from '../../../simulators/device.ts';

const sims: SimulatedDevice[] = [];
afterEach(async () => {
  for (const sim of sims.splice(0)) await sim.stop();
});

function simulatedShoe(faults: string[] = []) {
  const wire = createMemoryPair(`diag-device-${Math.random().toString(36).slice(2)}`);
  const sim = new SimulatedDevice({
    kind: 'shoe',
    ruleset: 'tdc-baccarat-no-commission',
    seed: 3,
    transport: wire.device,
    faults,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
  });
  sims.push(sim);
  sim.start();
  return wire;
}

const byName = (results: CheckOutcome[], name: string) =>
  results.find((result) => result.name === `device shoe: ${name}`);

describe('the device check against a simulated shoe', () => {
  it('passes a shoe whose model and firmware are on the allow-list, with a measured ping', async () => {
    const wire = simulatedShoe();
    const device: DeviceConfig = {
      kind: 'shoe',
      transport: wire.host.url,
      model: simulatorModel('shoe'),
      firmware: [simulatorFirmwareSha256('shoe')],
    };
    const results = await checkDevice('shoe', device, { transport: wire.host, observeMs: 1200 });
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['device shoe: open', 'pass'],
      ['device shoe: HELLO', 'pass'],
      ['device shoe: firmware', 'pass'],
      ['device shoe: key', 'warn'],
      ['device shoe: ping', 'pass'],
      ['device shoe: line errors', 'pass'],
    ]);
    expect(byName(results, 'HELLO')!.detail).toContain(simulatorModel('shoe'));
    expect(byName(results, 'ping')!.data!.pings as number).toBeGreaterThan(0);
  });

  it('fails a firmware not on the allow-list and says which hash to add if it is approved', async () => {
    const wire = simulatedShoe(['firmware-mismatch']);
    const device: DeviceConfig = {
      kind: 'shoe',
      transport: wire.host.url,
      model: simulatorModel('shoe'),
      firmware: [simulatorFirmwareSha256('shoe')],
    };
    const results = await checkDevice('shoe', device, { transport: wire.host, observeMs: 800 });
    const firmware = byName(results, 'firmware')!;
    expect(firmware.status).toBe('fail');
    expect(firmware.advice).toContain('devices.shoe.firmware');
  });

  it('warns, without failing, when the allow-list is empty', async () => {
    const wire = simulatedShoe();
    const device: DeviceConfig = { kind: 'shoe', transport: wire.host.url, firmware: [] };
    const results = await checkDevice('shoe', device, { transport: wire.host, observeMs: 800 });
    expect(byName(results, 'firmware')).toMatchObject({ status: 'warn' });
    expect(results.some((result) => result.status === 'fail')).toBe(false);
  });

  it('fails with advice when nothing answers on the line', async () => {
    const wire = createMemoryPair('diag-device-silent');
    wire.device.open();
    const device: DeviceConfig = { kind: 'shoe', transport: wire.host.url, firmware: [] };
    const results = await checkDevice('shoe', device, {
      transport: wire.host,
      observeMs: 600,
      helloTimeoutMs: 600,
    });
    const hello = byName(results, 'HELLO')!;
    expect(hello.status).toBe('fail');
    expect(hello.advice).toMatch(/powered|cable/);
  });
});
