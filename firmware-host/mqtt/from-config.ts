/**
 * From the validated config to the bridge's options, so the daemon wires
 * the bridge in a few lines. The embedded broker's URL is known only once
 * it has started, hence `brokerUrl`.
 */
import { join } from 'node:path';
import type { TablesideConfig } from '../config/schema.ts';
import type { BridgeOptions } from './bridge.ts';

/** Where the bridge keeps the last seq the broker acknowledged: beside the journal it indexes. */
export function cursorPathFor(config: TablesideConfig): string {
  return join(config.journal.dir, 'mqtt-cursor.json');
}

export function bridgeOptionsFromConfig(
  config: TablesideConfig,
  brokerUrl: string,
  wiring: Pick<BridgeOptions, 'journal' | 'cursor' | 'onRequest'> &
    Partial<Pick<BridgeOptions, 'info' | 'log' | 'backoff'>>,
): BridgeOptions {
  const { mqtt } = config;
  const embedded = mqtt.url === 'embedded';
  return {
    url: embedded ? brokerUrl : mqtt.url,
    table: config.table,
    baseTopic: mqtt.baseTopic,
    clientId: mqtt.clientId,
    keepalive: mqtt.keepalive,
    inflight: mqtt.inflight,
    // The embedded broker has no accounts and no TLS listener.
    username: embedded ? undefined : mqtt.username,
    password: embedded ? undefined : mqtt.password,
    tls: embedded ? undefined : mqtt.tls,
    ...wiring,
  };
}
