/**
 * The MQTT side of a table: the embedded broker (when the config says
 * `embedded`) and the bridge that publishes the journal's events, the
 * retained state, info, roads, heads and device availability, and takes the
 * signed requests. It follows the bus; the table is reached through its port.
 */
import type { TablesideConfig } from '../../config/schema.ts';
import { CursorStore } from '../../journal/cursor.ts';
import { isJournalError } from '../../journal/errors.ts';
import { type Logger, logger } from '../../log.ts';
import type { MqttBridge } from '../../mqtt/bridge.ts';
import type { EmbeddedBroker } from '../../mqtt/broker.ts';
import type { DaemonEvents } from '../bus.ts';
import { embeddedAccess, RefusalAlarms, requestVerifier } from '../trust-setup.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

/**
 * The MQTT cursor reaches the disk every 5 s, or at once 1000 events past
 * the value on disk, not per acknowledged event (issue 16): a rewrite cost
 * two fsyncs and a rename, about 1 ms of CPU, which once a second was still
 * 0.6 ms per card at a 500 ms pace. A crash resends at most that much.
 * Deferred, it fsyncs the file but not its folder (journal/cursor.ts).
 */
const MQTT_CURSOR_DEFER = { ms: 5000, count: 1000 } as const;

export class MqttBridgeExtension implements Extension {
  readonly name = 'mqtt-bridge';
  private broker: EmbeddedBroker | undefined;
  private bridge: MqttBridge | undefined;
  private brokerUrl = '';
  private signed = false;
  /** The alarm of a failed journal, sent to the broker directly (see announceJournalFailure). */
  private journalFailure: Promise<void> | undefined;
  private readonly teardown = new Teardown();
  private log: Logger = logger('daemon');

  /** The broker's address (the embedded broker's once it listens). */
  get brokerAddress(): string {
    return this.brokerUrl;
  }

  get connected(): boolean {
    return this.bridge?.isConnected ?? false;
  }

  get acknowledgedSeq(): number {
    return this.bridge?.acknowledgedSeq ?? 0;
  }

  /** Whether MQTT requests must be signed (requests.supervisors names someone). */
  get requestsSigned(): boolean {
    return this.signed;
  }

  async start(context: ExtensionContext): Promise<void> {
    const { config, clock, bus, table } = context;
    this.log = context.log;
    const { MqttBridge } = await import('../../mqtt/bridge.ts');
    const { bridgeOptionsFromConfig, cursorPathFor } = await import('../../mqtt/from-config.ts');
    const access = config.mqtt.url === 'embedded' ? embeddedAccess(config) : undefined;
    const verifier = requestVerifier(config, clock, context.startedAt);
    this.signed = verifier.enforcing;
    if (!verifier.enforcing) {
      const message =
        'requests.supervisors names no one: MQTT requests are taken unsigned (a bench, not a live table)';
      this.log.warn(message);
      bus.emit('notice', 'warn', message);
    }
    if (access) await this.startBroker(config.mqtt.port, access.policy);
    this.brokerUrl = this.broker?.url ?? config.mqtt.url;
    // Deferred: a crash only resends what the broker had acknowledged (dedup by seq).
    const cursor = await CursorStore.open(cursorPathFor(config), { defer: MQTT_CURSOR_DEFER });
    const bridge = new MqttBridge(
      bridgeOptionsFromConfig(config, this.brokerUrl, {
        journal: context.journal,
        cursor,
        onRequest: (request, origin) => table.handleRequest(request, origin.signer),
        authorize: (topic, payload) => verifier.check(topic, payload),
        embeddedCredentials: access?.credentials,
        info: table.info(),
        log: logger('mqtt'),
      }),
    );
    this.bridge = bridge;
    this.followBridge(context, bridge);
    await bridge.start();
    const unfollow = this.followBus(context, bridge);
    this.teardown.add(async () => {
      await this.journalFailure;
      unfollow();
      await bridge.stop();
      this.bridge = undefined;
      // A cursor write still in flight finishes before stop() resolves: nothing
      // of the table writes to its folder after that. A cursor left behind only
      // sends events again at the next start (consumers deduplicate by seq).
      await cursor.flush().catch(() => undefined);
    });
    for (const [name, payload] of Object.entries(table.published())) {
      bridge.setPublished(name, payload);
    }
    // The bridge reads the snapshot as its events catch up with the journal: a
    // burst of cards made durable together is one snapshot, in their socket write.
    bridge.followState(() => table.snapshot());
  }

  /** The embedded broker, with the access policy of the config's credentials. */
  private async startBroker(
    port: number,
    policy: NonNullable<ReturnType<typeof embeddedAccess>>['policy'],
  ): Promise<void> {
    const { startEmbeddedBroker } = await import('../../mqtt/broker.ts');
    const brokerLog = logger('broker');
    const broker = await startEmbeddedBroker({
      port,
      access: policy,
      onRefused: (what) => brokerLog.warn(what),
    });
    this.broker = broker;
    this.teardown.add(() => broker.close());
  }

  /** Tells the bus of the bridge's connection, its refused requests (alarmed when they repeat) and withheld events. */
  private followBridge({ bus, table, clock }: ExtensionContext, bridge: MqttBridge): void {
    const alarms = new RefusalAlarms(clock);
    bridge.on('connected', () => bus.emit('broker', true, this.brokerUrl));
    bridge.on('disconnected', (reason) => bus.emit('broker', false, reason));
    bridge.on('refused', (op, code, error) => {
      bus.emit('notice', 'warn', `MQTT request ${op} refused (${code}): ${error}`);
      const alarm = alarms.next(op, code, error);
      if (alarm) table.journalAlarm(alarm);
    });
    bridge.on('withheld', (seq, reason) =>
      bus.emit('notice', 'warn', `event ${seq} withheld from MQTT: ${reason}`),
    );
  }

  async stop(): Promise<void> {
    await this.teardown.run(this.log);
  }

  /** What the bridge publishes as the table changes; returns what unsubscribes it. */
  private followBus({ bus, table }: ExtensionContext, bridge: MqttBridge): () => void {
    const listeners: { [E in keyof DaemonEvents]?: (...args: DaemonEvents[E]) => void } = {
      journalFailed: (error) => this.announceJournalFailure(bridge, error),
      deviceAvailability: (device, availability) =>
        bridge.setDeviceAvailability(device, availability),
      info: () => bridge.setInfo(table.info()),
      published: (name, payload) => bridge.setPublished(name, payload),
      head: (head) => bridge.setJournalHead(head),
    };
    const entries = Object.entries(listeners) as Array<[keyof DaemonEvents, () => void]>;
    for (const [event, listener] of entries) bus.on(event, listener);
    return () => {
      for (const [event, listener] of entries) bus.off(event, listener);
    };
  }

  /**
   * The journal failed (a full disk, a dead card): nothing more can be
   * journaled, so the alarm goes to the broker directly, once, and the bridge
   * waits for it before it says offline.
   */
  private announceJournalFailure(bridge: MqttBridge, error: unknown): void {
    if (this.journalFailure !== undefined) return;
    const reason = (error as NodeJS.ErrnoException | undefined)?.code ?? 'error';
    const message = `the journal failed (${reason}: ${error instanceof Error ? error.message : String(error)}); the table stops so that a restart recovers from the journal`;
    this.journalFailure = bridge.publishUnjournaledAlarm('journal_failed', message);
  }
}

/**
 * The journal cannot be opened (a full disk, a damaged file): the bridge
 * never comes up, so the alarm goes to an outside broker on a connection
 * of its own. An embedded broker has nobody connected before the daemon runs.
 */
export async function announceJournalFailureAtStart(
  config: TablesideConfig,
  error: unknown,
): Promise<void> {
  // Locked: another daemon runs this table; its broker hears nothing false from this one.
  if (config.mqtt.url === 'embedded' || (isJournalError(error) && error.code === 'locked')) return;
  const { publishAlarmWithoutBridge } = await import('../../mqtt/bridge.ts');
  const { connectionFromConfig } = await import('../../mqtt/from-config.ts');
  const reason = (error as NodeJS.ErrnoException | undefined)?.code ?? 'error';
  const message = `the journal cannot be opened (${reason}: ${error instanceof Error ? error.message : String(error)}); the table does not start`;
  await publishAlarmWithoutBridge(
    connectionFromConfig(config, config.mqtt.url),
    'journal_failed',
    message,
  );
}
