/**
 * Protocol 1.7 (PROTOCOL.md § 5.2), on tableside's own shoe firmware given
 * its table's host key at pairing, on the emulated StandardFirmata board: a
 * host that holds the shoe's paired key but not the table's host key (a man
 * in the middle) keeps starting sessions whose CONFIRM the shoe refuses.
 * Within the CONFIRM wait the shoe reports its host lost and blinks its
 * status LED, and the card it names stays in its outbox; once its own table
 * proves the pairing, the LED is steady again and the card is dealt there.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { SHOE_PINS } from '../../../hardware/firmware/shoe.ts';
import { deviceKey, generatedSigner, hostSignerOf } from '../../../hardware/keys/device-key.ts';
import { openTransport } from '../../../hardware/transports/url.ts';
import { TcpServerTransport } from '../../../simulators/tcp-server.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { until } from '../../helpers/until.ts';
import { socatMissing } from '../devices/pty.ts';
import { registryOf, ShoeRig, sleep, tagOf } from './shoe-rig.ts';

const skip = socatMissing();

describe.skipIf(skip)("the shoe firmware given its table's host key", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  function hostOn(
    port: number,
    shoeKey: Awaited<ReturnType<typeof deviceKey>>,
    hostKey: ReturnType<typeof hostSignerOf>,
  ) {
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: openTransport(`tcp://127.0.0.1:${port}`),
      hostSerial: 'table-7',
      pairedKey: shoeKey.publicKey,
      hostKey,
    });
    const cards: string[] = [];
    driver.on('record', (observation: Observation) => {
      cards.push(JSON.stringify(observation.record));
      observation.ack();
    });
    driver.on('notice', (notice) => {
      if ('ack' in notice && typeof notice.ack === 'function') notice.ack();
    });
    driver.start();
    cleanups.push(() => driver.stop());
    return { driver, cards };
  }

  it('blinks its LED while a host without that key talks to it, and deals to its table once it proves itself', async () => {
    const rig = new ShoeRig();
    cleanups.push(() => rig.stop());
    await rig.startBoard();
    const shoeKey = await deviceKey(generatedSigner('ed25519'));
    const tableHost = hostSignerOf(generatedSigner('ed25519'));
    const server = new TcpServerTransport(0, '127.0.0.1');
    await server.listen();
    const firmware = await rig.startFirmware(server, {
      registry: registryOf(['red']),
      tagTimeoutMs: 250,
      i2cTimeoutMs: 2_000,
      pn532: { ackTimeoutMs: 1_000 },
      key: shoeKey,
      hostKey: tableHost.publicKey,
    });
    cleanups.push(() => firmware.stop());
    const lost: string[] = [];
    let found = 0;
    firmware.on('hostLost', (detail) => lost.push(detail));
    firmware.on('hostFound', () => found++);
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 30_000);

    const rogue = hostOn(server.boundPort!, shoeKey, hostSignerOf(generatedSigner('ed25519')));
    await until(() => lost.length > 0, 'the shoe reporting its host lost', 30_000);
    // Blinking: the LED is seen off and on again while the man in the middle holds the line.
    await until(
      () => !rig.board.output(SHOE_PINS.statusLed),
      'the status LED off in a blink',
      5_000,
    );
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED on in a blink', 5_000);
    rig.board.setInput(SHOE_PINS.lid, true);
    // fixed wait: emulated timing: the dealer holds the lid open for 50 ms
    await sleep(50);
    rig.board.setInput(SHOE_PINS.lid, false);
    await rig.deal({ uid: tagOf(1, 0), surface: SURFACES.redBack }, 80);
    expect(firmware.outstanding).toBeGreaterThanOrEqual(1);
    await rogue.driver.stop();
    expect(rogue.cards).toEqual([]);
    expect(found).toBe(0);

    const table = hostOn(server.boundPort!, shoeKey, tableHost);
    await until(() => found === 1, 'the shoe seeing its table prove the pairing', 30_000);
    await until(
      () => table.cards.some((card) => card.includes('"AS"')),
      'the card dealt to the table',
      30_000,
    );
    // Steady again: lit, and still lit a blink's length later.
    await until(() => rig.board.output(SHOE_PINS.statusLed), 'the status LED lit', 5_000);
    // fixed wait: emulated timing: longer than one 250 ms blink, to see the LED stay lit
    await sleep(400);
    expect(rig.board.output(SHOE_PINS.statusLed)).toBe(true);
    expect(lost).toHaveLength(1);
  }, 120_000);
});
