/**
 * An alarm that cannot go through the journal, because the journal itself
 * failed (a full disk): consumers hear why the table stops. It has no seq,
 * says `journaled: false` and is not replayed.
 */
import type { MqttClient } from 'mqtt';
import { tableTopics } from '../topics.ts';
import { noLog, readTlsFiles, withTimeout } from './connection.ts';
import type { BridgeOptions } from './options.ts';

function unjournaledAlarm(kind: string, message: string): Record<string, unknown> {
  return { type: 'alarm', kind, message, ts: Date.now(), journaled: false };
}

/** On the bridge's own connection: resolves once the broker has it, or after `timeoutMs`. */
export async function publishUnjournaledAlarmOn(
  client: MqttClient | undefined,
  topic: string,
  kind: string,
  message: string,
  timeoutMs: number,
): Promise<void> {
  if (!client) return;
  await withTimeout(
    client.publishAsync(topic, JSON.stringify(unjournaledAlarm(kind, message)), { qos: 1 }),
    timeoutMs,
  ).catch(() => undefined); // best effort: the failure is logged by the caller; a gone broker cannot hear it
}

/**
 * The same alarm from a daemon that never got its bridge up (its journal
 * cannot even be opened, e.g. on a full disk): one short connection of its
 * own (a client id of its own, a clean session, no will), one QoS 1
 * publication, then gone. Resolves whether or not the broker was reachable.
 */
export async function publishAlarmWithoutBridge(
  options: Pick<
    BridgeOptions,
    'url' | 'table' | 'baseTopic' | 'clientId' | 'protocolVersion' | 'username' | 'password' | 'tls'
  >,
  kind: string,
  message: string,
  timeoutMs = 3000,
): Promise<void> {
  const connector = await (await import('../connect.ts')).mqttConnectorFor(options.url);
  const client = connector.connect(options.url, {
    clientId: `${options.clientId ?? `tableside-${options.table}`}-alarm`,
    protocolVersion: options.protocolVersion ?? 4,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: timeoutMs,
    log: noLog,
    ...(options.username !== undefined ? { username: options.username } : {}),
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(await readTlsFiles(options.tls).catch(() => ({}))),
    ...(options.tls?.rejectUnauthorized === false ? { rejectUnauthorized: false } : {}),
  });
  client.on('error', () => undefined);
  const topic = tableTopics(options.baseTopic, options.table).events('alarm');
  try {
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        client.once('connect', () =>
          client.publish(topic, JSON.stringify(unjournaledAlarm(kind, message)), { qos: 1 }, (e) =>
            e ? reject(e) : resolve(),
          ),
        );
        client.once('close', () => reject(new Error('no connection')));
      }),
      timeoutMs,
    );
  } catch {
    // Unreachable: the daemon's own exit line and log say it.
  } finally {
    client.end(true);
  }
}
