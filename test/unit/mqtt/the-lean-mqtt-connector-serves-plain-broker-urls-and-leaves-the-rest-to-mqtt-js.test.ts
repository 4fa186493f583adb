import { createServer, type Server } from 'node:net';
import * as mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { mqttConnectorFor, plainBrokerUrl } from '../../../firmware-host/mqtt/connect.ts';

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A TCP server on a free port that reports the first byte each connection sends. */
async function firstByteServer(): Promise<{ port: number; firstByte: Promise<number> }> {
  let report: (byte: number) => void = () => undefined;
  const firstByte = new Promise<number>((resolve) => {
    report = resolve;
  });
  const server = createServer((socket) => {
    socket.once('data', (chunk) => {
      report(chunk[0]!);
      socket.destroy();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { port: typeof address === 'object' && address ? address.port : 0, firstByte };
}

describe('plainBrokerUrl', () => {
  it('reads host and port from mqtt:// and mqtts:// URLs', () => {
    expect(plainBrokerUrl('mqtt://broker.casino.example:1884')).toEqual({
      secure: false,
      host: 'broker.casino.example',
      port: 1884,
    });
    expect(plainBrokerUrl('mqtts://10.0.0.5')).toEqual({
      secure: true,
      host: '10.0.0.5',
      port: undefined,
    });
    expect(plainBrokerUrl('mqtt://[::1]:1883/')).toEqual({
      secure: false,
      host: '::1',
      port: 1883,
    });
  });

  it('declines what MQTT.js reads more from: WebSocket, credentials, a query, a path', () => {
    for (const url of [
      'ws://broker:8080/mqtt',
      'wss://broker/mqtt',
      'mqtt://user:secret@broker',
      'mqtt://broker?clientId=t1',
      'mqtt://broker/some/path',
      'not a url',
    ]) {
      expect(plainBrokerUrl(url), url).toBeUndefined();
    }
  });
});

describe('mqttConnectorFor', () => {
  it('hands WebSocket URLs and SOCKS proxies to MQTT.js itself', async () => {
    expect((await mqttConnectorFor('ws://broker:8080/mqtt', {})).connect).toBe(mqtt.connect);
    expect(
      (await mqttConnectorFor('mqtt://broker', { MQTTJS_SOCKS_PROXY: 'socks5://proxy:1080' }))
        .connect,
    ).toBe(mqtt.connect);
    expect((await mqttConnectorFor('mqtt://broker', {})).connect).not.toBe(mqtt.connect);
  });

  it('opens a plain TCP connection for mqtt:// (an MQTT CONNECT comes first)', async () => {
    const server = await firstByteServer();
    const connector = await mqttConnectorFor(`mqtt://127.0.0.1:${server.port}`, {});
    const client = connector.connect(`mqtt://127.0.0.1:${server.port}`, {
      clientId: 'lean-test',
      reconnectPeriod: 0,
    });
    try {
      expect(await server.firstByte).toBe(0x10); // MQTT CONNECT
    } finally {
      client.end(true);
    }
  });

  it('opens TLS for mqtts:// (a TLS handshake comes first)', async () => {
    const server = await firstByteServer();
    const connector = await mqttConnectorFor(`mqtts://127.0.0.1:${server.port}`, {});
    const client = connector.connect(`mqtts://127.0.0.1:${server.port}`, {
      clientId: 'lean-test',
      reconnectPeriod: 0,
    });
    try {
      expect(await server.firstByte).toBe(0x16); // TLS handshake record
    } finally {
      client.end(true);
    }
  });
});
