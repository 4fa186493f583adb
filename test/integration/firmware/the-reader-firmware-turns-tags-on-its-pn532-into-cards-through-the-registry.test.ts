import { afterEach, describe, expect, it } from 'vitest';
import { compressP256, keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { firmwareKeyFromAtecc608 } from '../../../hardware/firmware/firmware-key.ts';
import { type ReaderFirmware, startReaderFirmware } from '../../../hardware/firmware/reader.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { until } from '../../e2e/helpers/environment.ts';
import { EmulatedAtecc608 } from '../../emulators/atecc608.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, tagOf } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)(
  'the reader firmware turns tags on its PN532 into cards through the registry',
  () => {
    let rig: ShoeRig | undefined;
    let driver: DeviceDriver | undefined;
    let reader: ReaderFirmware | undefined;
    afterEach(async () => {
      await reader?.stop();
      await driver?.stop();
      await rig?.stop();
    });

    it('sends TAG for each tag laid on the antenna; the host maps it, or calls it foreign', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const wire = createMemoryPair(`fw-reader-${Math.random().toString(36).slice(2)}`);
      const registry = registryOf(['blue']);
      driver = new DeviceDriver({ name: 'reader', kind: 'reader', transport: wire.host, registry });
      const observations: Observation[] = [];
      const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.on('alarm', (alarm) => alarms.push(alarm));
      driver.start();
      reader = await startReaderFirmware({
        boardUrl: rig.pty.a,
        link: wire.device,
        serial: 'READER-TEST-1',
        boardReadyTimeoutMs: 3_000,
      });
      await driver.whenOnline();
      expect(driver.status().identity).toMatchObject({
        model: 'TS-READER-FW',
        serial: 'READER-TEST-1',
      });

      const { pn532 } = rig;
      for (const uid of [tagOf(1, 25), [0x04, 0xab, 0xab, 0xab, 0xab, 0xab, 0xab], tagOf(1, 51)]) {
        // Each tag stays until the reader has polled it, and is gone until a poll has found the field empty.
        const answered = pn532.targetsAnswered;
        pn532.placeTag({ uid, type: 'ntag21x' });
        await until(() => pn532.targetsAnswered > answered, 'a poll to find the tag');
        pn532.removeTag();
        await until(() => pn532.awaitingTag, 'a poll to find the field empty');
      }
      await until(
        () => observations.length >= 2 && alarms.length >= 1,
        'two cards and the foreign tag alarm',
      );
      expect(observations.map((o) => o.record)).toEqual([
        expect.objectContaining({ t: 'card', card: 'KH', back: 'blue' }),
        expect.objectContaining({ t: 'card', card: 'KC', back: 'blue' }),
      ]);
      expect(alarms).toEqual([
        expect.objectContaining({ kind: 'foreign_card', uid: '04ABABABABABAB' }),
      ]);
    });

    it('with the ATECC608 on its board, proves the chip key to a table that paired it', async () => {
      const chip = new EmulatedAtecc608();
      const publicKey = { type: 'p256' as const, raw: compressP256(chip.provision(0, 0xca4dn)) };
      rig = new ShoeRig();
      rig.otherParts.push(chip);
      await rig.startBoard();
      const wire = createMemoryPair(`fw-reader-${Math.random().toString(36).slice(2)}`);
      driver = new DeviceDriver({
        name: 'reader',
        kind: 'reader',
        transport: wire.host,
        registry: registryOf(['blue']),
        pairedKey: publicKey,
      });
      const observations: Observation[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.start();
      const onBoard = await firmwareKeyFromAtecc608(rig.pty.a, {}, { readyTimeoutMs: 3_000 });
      expect(keyFingerprint(onBoard.key.publicKey)).toBe(keyFingerprint(publicKey));
      reader = await startReaderFirmware({
        boardUrl: rig.pty.a,
        link: wire.device,
        serial: 'READER-TEST-2',
        boardReadyTimeoutMs: 3_000,
        key: onBoard.key,
        ...(onBoard.boardI2c ? { boardI2c: onBoard.boardI2c } : {}),
      });
      const d = driver;
      await until(
        () => d.status().auth.state === 'authenticated',
        'the reader authenticated',
        30_000,
      );
      rig.pn532.placeTag({ uid: tagOf(1, 0), type: 'ntag21x' });
      await until(() => observations.length >= 1, 'the tag as a card', 30_000);
      rig.pn532.removeTag();
      expect(observations[0]!.record).toMatchObject({ t: 'card', card: 'AS', back: 'blue' });
      expect(reader.device.core.authenticated).toBe(true);
      expect(chip.log).toContain('cmd 0x41');
    });
  },
);
