import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair, type MemoryEnd } from '../../../hardware/transports/memory.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { until } from '../../helpers/until.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)(
  'a card the host stored is not stored again when the shoe restarts before hearing its ACK',
  () => {
    let rig: ShoeRig | undefined;
    let driver: DeviceDriver | undefined;
    afterEach(async () => {
      await driver?.stop();
      await rig?.stop();
    });

    it('comes back from the outbox with its seq, is recognised and ACKed, and the shoe deals on', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const wire = createMemoryPair(`fw-restart-${Math.random().toString(36).slice(2)}`);
      // The host's ACKs can be lost on the way to the shoe.
      let loseAcks = false;
      const deliver = wire.deliver.bind(wire);
      wire.deliver = (from: MemoryEnd, bytes: Uint8Array) => {
        if (loseAcks && from === 'host') return;
        deliver(from, bytes);
      };
      const registry = registryOf(['red']);
      driver = new DeviceDriver({ name: 'shoe', kind: 'shoe', transport: wire.host, registry });
      const observations: Observation[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.start();
      let firmware = await rig.startFirmware(wire.device, { registry });
      await firmware.core.whenReady();
      await driver.whenOnline();

      await rig.dealOne({ uid: tagOf(1, 0), surface: SURFACES.redBack });
      await waitFor(() => observations.length === 1 && firmware.outstanding === 0);
      loseAcks = true;
      await rig.dealOne({ uid: tagOf(1, 1), surface: SURFACES.redBack });
      await waitFor(() => observations.length === 2);
      // fixed wait: nothing happens: with its ACK lost, nothing may clear 2S from the shoe's outbox: only time shows it
      await sleep(100);
      // The host stored 2S and ACKed it; the shoe never heard: 2S is still in its outbox.
      expect(firmware.outstanding).toBeGreaterThanOrEqual(1);
      expect(readFileSync(rig.outboxPath, 'utf8')).toContain('"card":"2S"');

      // Power cut: the firmware process dies with the card unacknowledged, and starts again.
      await firmware.stop();
      loseAcks = false;
      firmware = await rig.startFirmware(wire.device, { registry });
      await firmware.core.whenReady();
      await waitFor(() => firmware.outstanding === 0);
      expect(observations.map((o) => o.record)).toEqual([
        expect.objectContaining({ card: 'AS' }),
        expect.objectContaining({ card: '2S' }),
      ]);
      expect(driver.status().counters.duplicatesDropped).toBeGreaterThanOrEqual(1);

      await rig.dealOne({ uid: tagOf(1, 2), surface: SURFACES.redBack });
      await waitFor(() => observations.length === 3);
      expect(observations[2]!.record).toMatchObject({ card: '3S' });
    });
  },
);

const waitFor = (predicate: () => boolean) => until(predicate, 'the condition');
