/**
 * Issue 35 item 2: a device kind is one profile. The Acme DS-1 scanner of
 * test/fixtures/vendor-scanner/ (a kind tableside does not ship, with a
 * serial line protocol of its own) is added by registering its transport
 * scheme and its profile in registries this test builds, and nothing else:
 * over a real pty its cards reach the one DeviceDriver, are held until the
 * journal holds them, and its availability and faults reach a real
 * mosquitto. The composition below is what the daemon's devices extension
 * does with any driver (records journaled before the ACK, alarms journaled,
 * availability on the bus).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { issueMessage } from '../../../firmware-host/config/issue-messages.ts';
import { configSchema } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import type { DriverProfile } from '../../../firmware-host/drivers/profile.ts';
import { DEVICE_PROFILES } from '../../../firmware-host/drivers/profiles/registry.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { TRANSPORT_SCHEMES } from '../../../hardware/transports/url.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { acmeScheme } from '../../fixtures/vendor-scanner/adapter.ts';
import { acmeScannerProfile } from '../../fixtures/vendor-scanner/profile.ts';
import { AcmeScanner } from '../../fixtures/vendor-scanner/scanner.ts';
import { PtyPair } from '../../helpers/pty-pair.ts';
import { socatMissing } from '../../helpers/tools.ts';
import { until } from '../../helpers/until.ts';
import {
  BASE,
  cleanupAfterEach,
  mosquittoMissing,
  startMqtt5Table,
  TABLE,
  v5Recorder,
  waitFor,
} from '../mqtt/support.ts';

const FIXTURE = resolve(
  dirname(new URL(import.meta.url).pathname),
  '../../fixtures/vendor-scanner',
);
const missing = mosquittoMissing() ?? socatMissing();
const cleanup = cleanupAfterEach();
const SCANNER_PROFILES: Readonly<Record<string, DriverProfile>> = {
  ...DEVICE_PROFILES,
  [acmeScannerProfile.kind]: acmeScannerProfile,
};

it('the fixture folder holds the whole scanner and imports nothing of another test', () => {
  const files = readdirSync(FIXTURE).sort();
  expect(files).toEqual(['README.md', 'adapter.ts', 'lines.ts', 'profile.ts', 'scanner.ts']);
  for (const file of files.filter((name) => name.endsWith('.ts'))) {
    const imports = [...readFileSync(join(FIXTURE, file), 'utf8').matchAll(/from '([^']+)'/g)].map(
      (match) => resolve(FIXTURE, match[1]!),
    );
    for (const imported of imports) {
      // Its own folder, or the shipped code (device-protocol, hardware, firmware-host), never the tests'.
      expect(
        imported.startsWith(FIXTURE) || !imported.includes('/test/'),
        `${file}: ${imported}`,
      ).toBe(true);
    }
  }
});

it('a config names its kind beside the shipped ones; without its profile the kind is refused naming the kinds known', () => {
  const withScanner = configSchema({ profiles: SCANNER_PROFILES });
  const config = { devices: { scanner: { kind: 'acme-scanner', transport: 'memory://scanner' } } };
  expect(withScanner.parse(config).devices.scanner).toMatchObject({ kind: 'acme-scanner' });
  // What a kind may be given is its profile's to say: the scanner names its cards itself.
  const withRegistry = withScanner.safeParse({
    devices: { scanner: { ...config.devices.scanner, registry: 'decks.json' } },
  });
  expect(withRegistry.error?.issues.map(issueMessage)).toEqual([
    'only a reader, or a shoe running tableside firmware, has a deck registry',
  ]);

  const shipped = configSchema().safeParse(config, { reportInput: true });
  expect(shipped.error?.issues.map(issueMessage)).toEqual([
    'expected one of "shoe", "shuffler", "reader", "wheel", got "acme-scanner"',
  ]);
});

/** A simulated scanner (its profile's simulation) on the device end of a memory wire. */
function simulatedScanner(name: string) {
  const wire = createMemoryPair(name);
  const sim = new SimulatedDevice({
    kind: 'acme-scanner',
    profiles: SCANNER_PROFILES,
    transport: wire.device,
    ruleset: 'tdc-baccarat-no-commission',
    seed: 7,
    rounds: 1,
    reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
  });
  cleanup.later(sim, (device) => device.stop());
  sim.start();
  return { wire, sim };
}

it("tableside's simulator plays its kind as its profile says, and the driver takes each card once", async () => {
  const { wire, sim } = simulatedScanner('acme-sim');
  const driver = new DeviceDriver({
    name: 'scanner',
    profile: acmeScannerProfile,
    transport: wire.host,
  });
  cleanup.later(driver, (started) => started.stop());
  const cards: string[] = [];
  driver.on('record', (observation) => {
    if (observation.record.t === 'card') cards.push(observation.record.card);
    observation.ack();
  });
  driver.start();
  await sim.whenReady();
  expect(sim.talker).toBe('RD');
  expect(sim.identity.model).toBe('ACME-DS1-SIM');
  while (await sim.step());
  await sim.whenDone();
  const planned = sim.steps.flatMap((step) => (step.kind === 'card' ? [step.card] : []));
  expect(planned.length).toBeGreaterThan(0);
  await until(() => cards.length === planned.length, 'every planned card taken');
  expect(cards).toEqual(planned);
});

it('diag checks its kind over the line: HELLO, firmware, ping, line errors', async () => {
  const { wire } = simulatedScanner('acme-diag');
  const results = await checkDevice(
    'scanner',
    { kind: 'acme-scanner', transport: wire.host.url, model: 'ACME-DS1-SIM', firmware: [] },
    { transport: wire.host, observeMs: 800, profiles: SCANNER_PROFILES },
  );
  expect(results.map((result) => [result.name, result.status])).toEqual([
    ['device scanner: open', 'pass'],
    ['device scanner: HELLO', 'pass'],
    ['device scanner: firmware', expect.stringMatching(/pass|warn/)],
    ['device scanner: key', 'warn'],
    ['device scanner: ping', 'pass'],
    ['device scanner: line errors', 'pass'],
  ]);
});

it.skipIf(missing)(
  'its cards are journaled before the ACK, once each, and its availability and faults reach MQTT',
  async () => {
    const profiles = SCANNER_PROFILES;
    const schemes = TRANSPORT_SCHEMES.withScheme(acmeScheme);

    const pty = new PtyPair();
    await pty.start();
    cleanup.later(pty, (pair) => pair.stop());
    const scanner = cleanup.later(new AcmeScanner(pty.b), (device) => device.stop());
    await scanner.start();

    const { broker, store, bridge } = await startMqtt5Table(cleanup);
    const consumer = await v5Recorder(cleanup, broker.url);

    const driver = new DeviceDriver({
      name: 'scanner',
      profile: profiles['acme-scanner']!,
      transport: schemes.open(`acme:${pty.a}`),
    });
    cleanup.later(driver, (started) => started.stop());
    // What the devices extension does with every driver, whatever its kind.
    const acked: number[] = [];
    driver.on('record', (observation) => {
      void store.journal
        .append([
          {
            kind: 'input',
            data: { ...observation.record, src: observation.device, dseq: observation.seq },
          },
        ])
        .then(() => {
          acked.push(observation.seq);
          observation.ack();
        });
    });
    driver.on('alarm', (alarm) => void store.journal.append([{ kind: 'event', data: alarm }]));
    driver.on('availability', (availability) =>
      bridge.setDeviceAvailability('scanner', availability),
    );
    driver.start();

    await waitFor(() => driver.availability === 'online', 'the scanner to say who it is');
    expect(scanner.asked).toBeGreaterThanOrEqual(1);
    expect(driver.status()).toMatchObject({
      kind: 'acme-scanner',
      identity: { model: 'ACME-DS1', serial: 'SN77', firmware: '1.2' },
    });

    await scanner.scan('7H', 'red', 'down');
    await scanner.scan('KS', 'red', 'up');
    await scanner.fault('lamp', 'scan head lamp dim');
    await scanner.garble();
    await scanner.scan('2D', 'blue', 'down');

    await waitFor(() => acked.length === 3, 'the three cards ACKed');
    const inputs = (await store.journal.readAll())
      .filter((record) => record.kind === 'input')
      .map((record) => record.data);
    expect(inputs).toEqual([
      expect.objectContaining({ t: 'card', card: '7H', back: 'red', face: 'down', src: 'scanner' }),
      expect.objectContaining({ t: 'card', card: 'KS', back: 'red', face: 'up', src: 'scanner' }),
      expect.objectContaining({
        t: 'card',
        card: '2D',
        back: 'blue',
        face: 'down',
        src: 'scanner',
      }),
    ]);
    expect(driver.status().counters.duplicatesDropped).toBe(0);

    await waitFor(
      () => consumer.on('events/alarm').length >= 2,
      'the scanner fault and the bad line on MQTT',
    );
    const alarms = consumer
      .on('events/alarm')
      .map(
        (message) => JSON.parse(message.text) as { kind: string; message: string; device: string },
      );
    expect(alarms).toEqual([
      expect.objectContaining({
        kind: 'device_fault',
        device: 'scanner',
        message: 'scanner: scanner fault lamp: scan head lamp dim',
      }),
      expect.objectContaining({
        kind: 'device_fault',
        device: 'scanner',
        message: expect.stringContaining('not an Acme DS-1 line: "%%NOISE%%"'),
      }),
    ]);
    await waitFor(
      () =>
        consumer
          .on('devices/scanner/availability')
          .some((message) => message.text.includes('online')),
      'the scanner online on MQTT',
    );
    expect(
      consumer.messages.every((message) => message.topic.startsWith(`${BASE}/${TABLE}/`)),
    ).toBe(true);
  },
);
