/**
 * Issue 24, item 5: the embedded broker let a consumer read `$SYS` (who is
 * connected, from where, the broker's load). Now a subscription to `$SYS/…`
 * from anyone but the daemon gets a failure SUBACK (0x80) and nothing from
 * it arrives; the client stays connected and reads the table as before.
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../firmware-host/trust/password.ts';
import { freePort } from '../../helpers/ports.ts';
import { BASE, Cleanup, Client, startTable, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('the embedded broker', () => {
  it('refuses $SYS to consumers and supervisors, and they still read the table', async () => {
    const dir = tempDir(cleanup);
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    const daemon = await startTable(cleanup, {
      table: 't1',
      mqtt: {
        url: 'embedded',
        port,
        users: {
          pit: { role: 'consumer', passwordHash: await hashPassword('pit-password') },
          boss: { role: 'supervisor', passwordHash: await hashPassword('boss-password') },
        },
      },
      journal: { dir: join(dir, 'journal'), rotateDaily: false },
    });
    await waitFor(() => daemon.brokerConnected, 'the daemon on its broker');

    for (const [username, password] of [
      ['pit', 'pit-password'],
      ['boss', 'boss-password'],
    ] as const) {
      const reader = await Client.connect(cleanup, url, { username, password }, '');
      // The SUBACK's own codes (MQTT.js rejects on a failure code, with the packet).
      const suback = (filter: string) =>
        reader.client.subscribeAsync(filter, { qos: 1 }).then(
          (granted) => granted.map((g) => g.qos),
          (error: { packet?: { granted?: number[] } }) => error.packet?.granted,
        );
      expect(await suback('$SYS/#'), username).toEqual([128]);
      expect(await suback(`${BASE}/t1/#`), username).toEqual([1]);
      // aedes announces every new client on $SYS: one connects, and the reader hears nothing of it.
      const other = await mqtt.connectAsync(url, {
        username: 'pit',
        password: 'pit-password',
        reconnectPeriod: 0,
      });
      await other.endAsync(true);
      await waitFor(
        () => reader.on(`${BASE}/t1/bridge/state`).length > 0,
        `the table's state at ${username}`,
      );
      // A round trip through the broker after the announcement: anything sent before it has arrived.
      await reader.client.subscribeAsync(`${BASE}/t1/bridge/info`, { qos: 1 });
      expect(
        reader.messages.filter((m) => m.topic.startsWith('$SYS')),
        username,
      ).toEqual([]);
      expect(reader.closed, username).toBe(false);
    }
  });
});
