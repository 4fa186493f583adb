import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { until } from '../../helpers/until.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf, uidHex } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)('the shoe firmware names each card by its tag and never guesses', () => {
  let rig: ShoeRig | undefined;
  let driver: DeviceDriver | undefined;
  afterEach(async () => {
    await driver?.stop();
    await rig?.stop();
    rig = undefined;
    driver = undefined;
  });

  it('sends CARD for enrolled tags (face down and up), FOREIGN and NOTAG for the rest', async () => {
    rig = new ShoeRig();
    await rig.startBoard();
    const wire = createMemoryPair(`fw-${Math.random().toString(36).slice(2)}`);
    const registry = registryOf(['red', 'blue']);
    driver = new DeviceDriver({ name: 'shoe', kind: 'shoe', transport: wire.host, registry });
    const observations: Observation[] = [];
    const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
    driver.on('record', (observation) => {
      observations.push(observation);
      observation.ack();
    });
    driver.on('alarm', (alarm) => alarms.push(alarm));
    driver.start();
    const firmware = await rig.startFirmware(wire.device, { registry });
    expect(firmware.currentFault).toBeUndefined();
    await firmware.core.whenReady();
    await driver.whenOnline();

    await rig.dealOne({ uid: tagOf(1, 0), surface: SURFACES.redBack });
    await rig.dealOne({ uid: tagOf(2, 12), surface: SURFACES.blueBack });
    await rig.dealOne({ uid: tagOf(1, 13), surface: SURFACES.face });
    await rig.dealOne({
      uid: [0x04, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99],
      surface: SURFACES.redBack,
    });
    await rig.dealOne({ surface: SURFACES.blueBack });
    await until(() => observations.length >= 3 && alarms.length >= 2, 'three cards and two alarms');

    expect(observations.map((o) => o.record)).toEqual([
      expect.objectContaining({ t: 'card', card: 'AS', back: 'red', face: 'down' }),
      expect.objectContaining({ t: 'card', card: 'KS', back: 'blue', face: 'down' }),
      expect.objectContaining({ t: 'card', card: 'AH', back: 'red', face: 'up' }),
    ]);
    expect(alarms.map((alarm) => [alarm.kind, alarm.uid ?? alarm.fault])).toEqual([
      ['foreign_card', uidHex([0x04, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99])],
      ['device_fault', 'card_unidentified'],
    ]);
    expect(driver.status().identity?.model).toBe('TS-SHOE-FW');
    expect(driver.status().identity?.firmwareSha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
