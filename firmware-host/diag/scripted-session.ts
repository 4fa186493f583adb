/**
 * What every `tableside diag --simulate` session shares, whatever its game
 * plays: an embedded broker on a free port, a temporary journal, the real
 * daemon (TableDaemon: drivers, table session, fsynced journal, MQTT bridge)
 * with one simulated device on an in-memory wire, a consumer recording what
 * a table-management system would see, then the journal verified and
 * everything cleaned up. The game's script (simulate.ts: a shoe's cards,
 * simulate-wheel.ts: a wheel's games) plays the device and reads what was
 * published; its judge turns the run into pass/fail rows. Which script a
 * table plays is its plug-in's `diagSimulation`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { MemoryWire } from '../../hardware/transports/memory.ts';
import type { TablesideConfig } from '../config/schema.ts';
import type { TableDaemon } from '../daemon/table-daemon.ts';
import type { DeviceKind } from '../drivers/profiles/registry.ts';
import type { TableTopics } from '../mqtt/topics.ts';
import { until } from './wait.ts';

/** One message the consumer saw. */
export interface Published {
  topic: string;
  payload: string;
  retain: boolean;
}

/** An event as published on `events/…`. */
export type PublishedEvent = Record<string, unknown> & { seq: number; type: string };

/** What a script plays on: the running daemon, its topics, what was published, the device's wire. */
export interface SessionStage {
  readonly daemon: TableDaemon;
  readonly topics: TableTopics;
  readonly published: readonly Published[];
  readonly wire: MemoryWire;
}

/** A game's scripted session: its device and how it plays it. */
export interface SessionScript {
  /** Names its wire, its temporary journal and its consumer: `shoe`, `wheel`. */
  readonly name: string;
  /** The ruleset the daemon's table plays. */
  readonly ruleset: string;
  /** The simulated device's config entry (its id is `kind`), on the memory wire `transport`. */
  device(transport: string): { kind: DeviceKind; model: string; firmware: string[] };
  /** Session settings of the table's config (a shoe's automatic rounds). */
  readonly session?: { autoRound: boolean };
  /** Plays the session on the stage and gathers what the script judges. */
  play(stage: SessionStage): Promise<void>;
}

/** What the runner itself finds of every session. */
export interface SessionVerdict {
  journal: { ok: boolean; records: number; findings: number };
  durationMs: number;
  error?: string;
}

/** The events published, deduped by seq as a consumer does, and how many redeliveries were dropped. */
export function eventsOf(
  published: readonly Published[],
  topics: TableTopics,
): { events: PublishedEvent[]; duplicatesDropped: number } {
  const seen = new Set<number>();
  const events: PublishedEvent[] = [];
  let duplicatesDropped = 0;
  for (const message of published) {
    if (!message.topic.startsWith(`${topics.root}/events/`)) continue;
    const event = JSON.parse(message.payload) as PublishedEvent;
    if (seen.has(event.seq)) {
      duplicatesDropped++;
      continue;
    }
    seen.add(event.seq);
    events.push(event);
  }
  return { events, duplicatesDropped };
}

/** Runs `script` through the real daemon. Never throws: a failure is the verdict's `error`. */
export async function runScriptedSession(
  configured: TablesideConfig,
  script: SessionScript,
): Promise<SessionVerdict> {
  const started = performance.now();
  const [
    { resolveConfig },
    { startEmbeddedBroker },
    { TableDaemon },
    { memoryWire, releaseMemoryWire },
    { tableTopics },
    { verifyJournalDir },
    { logger },
    mqtt,
  ] = await Promise.all([
    import('../config/loader.ts'),
    import('../mqtt/broker.ts'),
    import('../daemon/table-daemon.ts'),
    import('../../hardware/transports/memory.ts'),
    import('../mqtt/topics.ts'),
    import('../journal/verify.ts'),
    import('../log.ts'),
    import('mqtt'),
  ]);
  const verdict: SessionVerdict = {
    journal: { ok: false, records: 0, findings: 0 },
    durationMs: 0,
  };
  const wireName = `diag-${script.name}-${process.pid}-${Math.floor(performance.now())}`;
  const journalDir = await mkdtemp(join(tmpdir(), `tableside-diag-${script.name}-`));
  const cleanups: Array<() => Promise<void>> = [
    async () => rm(journalDir, { recursive: true, force: true }),
  ];
  try {
    const broker = await startEmbeddedBroker({ port: 0 });
    cleanups.push(() => broker.close());
    const device = script.device(`memory://${wireName}`);
    const { config } = resolveConfig(
      {
        table: configured.table,
        ruleset: script.ruleset,
        devices: { [device.kind]: { ...device } },
        mqtt: { url: broker.url, baseTopic: configured.mqtt.baseTopic },
        journal: { dir: journalDir, rotateDaily: false },
        ...(script.session ? { session: script.session } : {}),
      },
      { env: {} },
    );
    cleanups.push(async () => releaseMemoryWire(wireName));
    const topics = tableTopics(config.mqtt.baseTopic, config.table);

    // The consumer: what a table-management system would see.
    const published: Published[] = [];
    const consumer = await mqtt.connectAsync(broker.url, {
      clientId: `tableside-diag-${script.name}-consumer-${process.pid}`,
      reconnectPeriod: 0,
    });
    cleanups.push(async () => {
      // Cleanup: the run is over and reported; the broker may already be gone.
      await consumer.endAsync().catch(() => undefined);
    });
    consumer.on('message', (topic, payload, packet) => {
      published.push({ topic, payload: payload.toString(), retain: packet.retain });
    });
    await consumer.subscribeAsync(`${topics.root}/#`, { qos: 1 });

    const daemon = new TableDaemon({ config, simulate: false, log: logger('diag-daemon') });
    await daemon.start();
    cleanups.push(() => daemon.stop());
    const online = await until(
      () => published.some((m) => m.topic === topics.bridgeState && m.payload === 'online'),
      10_000,
    );
    if (!online)
      throw new Error(`the daemon did not publish ${topics.bridgeState} online within 10 s`);

    await script.play({ daemon, topics, published, wire: memoryWire(wireName) });
    const verified = await verifyJournalDir(journalDir);
    verdict.journal = {
      ok: verified.ok,
      records: verified.records,
      findings: verified.findings.length,
    };
  } catch (error) {
    verdict.error = error instanceof Error ? error.message : String(error);
  } finally {
    for (const cleanup of cleanups.reverse()) {
      // Cleanup: one failing does not stop the others, and the run already holds its verdict.
      await cleanup().catch(() => undefined);
    }
    verdict.durationMs = Math.round(performance.now() - started);
  }
  return verdict;
}
