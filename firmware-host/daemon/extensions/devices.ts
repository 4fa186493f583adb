/**
 * The table's devices: a driver per configured device (over its transport, or
 * over an in-process wire to tableside's own firmware hosted here, or to a
 * simulator), their records, spin parts, alarms and lid notices taken into the
 * table, and their availability told on the bus. The simulated ends of the
 * `simulate` devices' wires are kept for the simulation extension.
 */

import type { HostSigner } from '../../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import type { DeviceKey } from '../../../hardware/keys/device-key.ts';
import type { Transport } from '../../../hardware/transports/transport.ts';
import { type DeviceConfig, pairingPolicyOf, unpairedSetting } from '../../config/schema.ts';
import type { DeviceDriver, DriverStatus, Observation } from '../../drivers/driver.ts';
import { profileOf } from '../../drivers/profiles/registry.ts';
import type { Logger } from '../../log.ts';
import type { TableLogRecord } from '../../table/log.ts';
import type { DeviceLineChange } from '../bus.ts';
import type { DeviceKeys } from '../device-keys.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

/** The device end of a `simulate` device's wire, for its simulator. */
export interface SimulatedEnd {
  name: string;
  kind: DeviceConfig['kind'];
  device: Transport;
  key: DeviceKey | undefined;
  /** The table's host public key, which a simulated device with a key was paired with (protocol 1.7). */
  hostKey: DevicePublicKey | undefined;
}

export class DevicesExtension implements Extension {
  readonly name = 'devices';
  private readonly teardown = new Teardown();
  private readonly drivers = new Map<string, DeviceDriver>();
  private readonly simulatedEnds: SimulatedEnd[] = [];
  private log: Logger | undefined;
  private context!: ExtensionContext;
  private keys: DeviceKeys = { paired: new Map(), simulated: new Map() };

  /**
   * `keys`: the devices' keys, loaded before the journal opens (an unreadable key file stops the start);
   * `hostKey`: the table's own (host-key.ts), whose CONFIRM paired devices check; absent: one made per process.
   */
  constructor(
    keys: DeviceKeys | undefined,
    private readonly hostKey?: HostSigner,
  ) {
    if (keys) this.keys = keys;
  }

  /** The wires' device ends of the `simulate` devices, once started. */
  get simulated(): readonly SimulatedEnd[] {
    return this.simulatedEnds;
  }

  status(): DriverStatus[] {
    return [...this.drivers.values()].map((driver) => driver.status());
  }

  driver(name: string): DeviceDriver | undefined {
    return this.drivers.get(name);
  }

  async start(context: ExtensionContext): Promise<void> {
    this.context = context;
    this.log = context.log;
    for (const [name, device] of Object.entries(context.config.devices)) {
      const driver = await this.driverFor(name, device, await this.transportFor(name, device));
      this.follow(name, driver);
      this.drivers.set(name, driver);
      driver.start();
      this.teardown.add(() => driver.stop());
    }
  }

  async stop(): Promise<void> {
    if (this.log) await this.teardown.run(this.log);
    this.drivers.clear();
    this.simulatedEnds.splice(0);
  }

  private async transportFor(name: string, device: DeviceConfig): Promise<Transport> {
    if (device.transport === 'simulate') {
      const { createMemoryPair } = await import('../../../hardware/transports/memory.ts');
      const wire = createMemoryPair(`sim-${name}`);
      this.simulatedEnds.push({
        name,
        kind: device.kind,
        device: wire.device,
        key: this.keys.simulated.get(name),
        // A simulator with a key stands for a device paired with this table: it knows the table's host key.
        hostKey: this.keys.simulated.has(name) ? this.hostKey?.publicKey : undefined,
      });
      return wire.host;
    }
    if (device.transport === 'firmware') {
      // tableside's own device firmware, in this process, on a real board.
      const { createMemoryPair } = await import('../../../hardware/transports/memory.ts');
      const wire = createMemoryPair(`firmware-${name}`);
      const { startHostedFirmware } = await import('../hosted-firmware.ts');
      const hosted = await startHostedFirmware(
        name,
        device,
        wire.device,
        `${this.context.config.table}-${name}`.slice(0, 32),
        this.keys.simulated.get(name),
        this.hostKey?.publicKey,
      );
      this.teardown.add(() => hosted.stop());
      return wire.host;
    }
    const { openTransport } = await import('../../../hardware/transports/url.ts');
    return openTransport(device.transport);
  }

  private async driverFor(
    name: string,
    device: DeviceConfig,
    transport: Transport,
  ): Promise<DeviceDriver> {
    const { DeviceDriver } = await import('../../drivers/driver.ts');
    const { config, clock, table } = this.context;
    const allowedFirmware =
      device.firmware.length > 0 && device.model ? { [device.model]: device.firmware } : undefined;
    const policy = pairingPolicyOf(device);
    return new DeviceDriver({
      name,
      kind: device.kind,
      transport,
      hostSerial: config.table,
      clock,
      ...(this.hostKey === undefined ? {} : { hostKey: this.hostKey }),
      ...(allowedFirmware ? { allowedFirmware } : {}),
      ...(this.keys.paired.has(name) ? { pairedKey: this.keys.paired.get(name)! } : {}),
      timing: {
        ...(device.stalledAfterMs === undefined ? {} : { stalledAfterMs: device.stalledAfterMs }),
        ...(device.unreachableAfterMs === undefined
          ? {}
          : { unreachableAfterMs: device.unreachableAfterMs }),
      },
      ...(policy === 'bench' || policy === 'refused'
        ? {
            unpaired: {
              policy: policy === 'bench' ? 'allow' : 'refuse',
              setting: unpairedSetting(name),
            },
          }
        : {}),
      // The back colours of a shuffle the device does not name (a shuffler's): the ones the table (its journal) expects next.
      expectedBacks: () => table.expectedShuffleBacks(),
      // A registry names a reader's tags (the config takes one for a reader only); hosted firmware reads its own.
      ...(device.registry && device.transport !== 'firmware'
        ? { registry: await loadRegistry(device.registry) }
        : {}),
    });
  }

  /** Takes a driver's records, spin parts, alarms and notices in, and tells the bus of its availability. */
  private follow(name: string, driver: DeviceDriver): void {
    const { bus, table } = this.context;
    driver.on('record', (observation) => void this.onObservation(observation));
    // A kind that spins (the wheel's profile) takes back the spin under way; another has none.
    driver.restoreSpin(table.spinUnderWay(name));
    driver.on('spinPart', (part) => table.journalSpinPart(part));
    // A quarantined device is online but refused: MQTT says `quarantined`, not `online`.
    const publishAvailability = () =>
      bus.emit(
        'deviceAvailability',
        name,
        driver.availability === 'online' && driver.isQuarantined
          ? 'quarantined'
          : driver.availability,
      );
    driver.on('availability', (availability, reason) => {
      publishAvailability();
      bus.emit('availability', name, availability, reason);
    });
    driver.on('quarantine', () => {
      publishAvailability();
      bus.emit('info');
    });
    driver.on('alarm', (event) => table.journalAlarm(event));
    driver.on('link', (change) => {
      this.logLine(name, change);
      bus.emit('deviceLine', name, change);
    });
    driver.on('notice', (notice) => {
      bus.emit('notice', 'info', `${name}: ${notice.type} ${JSON.stringify(notice)}`);
      if (notice.type !== 'LID') return;
      if (notice.state === 'closed') this.onShoeLoaded(name, notice.ack);
      else notice.ack();
    });
    bus.emit('deviceAvailability', name, 'offline');
  }

  /** Every reopen in the log with its reason and delay, so a line that does not come back is explained. */
  private logLine(name: string, change: DeviceLineChange): void {
    const log = this.context.log;
    const fields = {
      device: name,
      url: change.url,
      reason: change.reason,
      attempt: change.attempt,
    };
    switch (change.state) {
      case 'reopening':
        log.warn(
          { ...fields, delayMs: change.delayMs },
          `${name}: ${change.url} not open (${change.reason}); next try in ${change.delayMs} ms (attempt ${change.attempt})`,
        );
        return;
      case 'open':
        log.info(fields, `${name}: ${change.url} open`);
        return;
      case 'failed':
        log.error(fields, `${name}: ${change.url} given up: ${change.reason}`);
        return;
      default:
        return;
    }
  }

  private async onObservation(observation: Observation): Promise<void> {
    const { table, bus, log } = this.context;
    const record: TableLogRecord = {
      ...observation.record,
      src: observation.device,
      dseq: observation.seq,
    };
    if (table.alreadyJournaled(observation.device, observation.seq, record)) {
      log.info(
        { device: observation.device, seq: observation.seq },
        'retransmission of a journaled record: ACKed, not applied again',
      );
      observation.ack();
      return;
    }
    try {
      await table.ingest(record);
      observation.ack();
    } catch (error) {
      // Not ACKed: the device retransmits it, and a restart recovers.
      log.error({ err: error, device: observation.device }, 'record not journaled');
      bus.emit('notice', 'error', `journal failed: ${(error as Error).message}`);
    }
  }

  /**
   * A shoe-only table (no shuffler reporting shuffles): closing the shoe's
   * lid when no shoe is in play is the dealer loading a new shoe. The lid is
   * ACKed to the shoe only once the new shoe's records are durable (at once
   * when it starts nothing): a crash in between loses no shoe start, since
   * the shoe sends the lid again and the replayed table still awaits a shoe.
   */
  private onShoeLoaded(device: string, ack: () => void): void {
    const { config, table, bus } = this.context;
    // From the config, not the drivers: a shoe's lid can come before the next device's driver is made.
    const hasShuffler = Object.values(config.devices).some(
      (each) => profileOf(each.kind).reportsShuffles,
    );
    const refused = this.drivers.get(device)?.isQuarantined ?? false;
    if (hasShuffler || refused || table.expecting().kind !== 'shuffle') {
      ack();
      return;
    }
    table.newShoe(`${device} lid closed on a new shoe`, device).then(ack, (error: unknown) =>
      // Not ACKed: after the restart a failed journal needs, the shoe sends the lid again.
      bus.emit('notice', 'error', `new shoe not journaled: ${(error as Error).message}`),
    );
  }
}

async function loadRegistry(path: string) {
  const { DeckRegistry } = await import('../../../hardware/readers/deck-registry.ts');
  return DeckRegistry.load(path);
}
