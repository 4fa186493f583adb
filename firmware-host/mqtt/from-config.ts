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

/** Where and as whom the table connects: the broker part of the bridge's options. */
export function connectionFromConfig(
  config: TablesideConfig,
  brokerUrl: string,
  embeddedCredentials?: { username: string; password: string },
): Pick<
  BridgeOptions,
  | 'url'
  | 'table'
  | 'baseTopic'
  | 'clientId'
  | 'keepalive'
  | 'inflight'
  | 'protocolVersion'
  | 'sessionExpirySeconds'
  | 'willDelaySeconds'
  | 'username'
  | 'password'
  | 'tls'
> {
  const { mqtt } = config;
  const embedded = mqtt.url === 'embedded';
  return {
    url: embedded ? brokerUrl : mqtt.url,
    table: config.table,
    baseTopic: mqtt.baseTopic,
    clientId: mqtt.clientId,
    keepalive: mqtt.keepalive,
    inflight: mqtt.inflight,
    protocolVersion: mqtt.protocolVersion,
    sessionExpirySeconds: mqtt.sessionExpirySeconds,
    willDelaySeconds: mqtt.willDelaySeconds,
    // The embedded broker has no TLS listener; its accounts are not the casino's.
    username: embedded ? embeddedCredentials?.username : mqtt.username,
    password: embedded ? embeddedCredentials?.password : mqtt.password,
    tls: embedded ? undefined : mqtt.tls,
  };
}

export function bridgeOptionsFromConfig(
  config: TablesideConfig,
  brokerUrl: string,
  wiring: Pick<BridgeOptions, 'journal' | 'cursor' | 'onRequest'> &
    Partial<Pick<BridgeOptions, 'info' | 'log' | 'backoff' | 'authorize'>> & {
      /** The daemon's own account on the embedded broker (made at start). */
      embeddedCredentials?: { username: string; password: string } | undefined;
    },
): BridgeOptions {
  return {
    ...connectionFromConfig(config, brokerUrl, wiring.embeddedCredentials),
    journal: wiring.journal,
    cursor: wiring.cursor,
    onRequest: wiring.onRequest,
    ...(wiring.authorize ? { authorize: wiring.authorize } : {}),
    ...(wiring.info ? { info: wiring.info } : {}),
    ...(wiring.log ? { log: wiring.log } : {}),
    ...(wiring.backoff ? { backoff: wiring.backoff } : {}),
  };
}
