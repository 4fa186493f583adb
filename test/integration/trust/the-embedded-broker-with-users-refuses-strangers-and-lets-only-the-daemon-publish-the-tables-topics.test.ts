/**
 * The embedded broker (aedes) with `mqtt.users`: anonymous clients and bad
 * passwords are refused; a consumer reads but publishes nothing; a
 * supervisor publishes requests but cannot fake the table's events; only
 * the daemon (its own account, made at start) publishes events. With no
 * users (a bench) anyone connects and may send requests, but still not
 * events.
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../../firmware-host/trust/password.ts';
import { freePort } from '../../helpers/ports.ts';
import { BASE, Cleanup, Client, keyFile, settle, startTable, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

describe('the embedded broker', () => {
  it('with users: refuses strangers, keeps consumers read-only and events to the daemon', async () => {
    const dir = tempDir(cleanup);
    const alice = await keyFile(dir, 'alice');
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
      requests: { supervisors: { alice: alice.text } },
    });
    await waitFor(() => daemon.brokerConnected, 'the daemon on its broker');

    const refused = (options: mqtt.IClientOptions) =>
      expect(
        mqtt.connectAsync(url, { reconnectPeriod: 0, connectTimeout: 3000, ...options }),
      ).rejects.toThrow();
    await refused({});
    await refused({ username: 'pit', password: 'wrong' });
    await refused({ username: 'nobody', password: 'pit-password' });
    await refused({ username: 'tableside-daemon-t1', password: 'guess' });

    const pit = await Client.connect(cleanup, url, { username: 'pit', password: 'pit-password' });
    const boss = await Client.connect(cleanup, url, {
      username: 'boss',
      password: 'boss-password',
    });
    await waitFor(
      () => pit.on(`${BASE}/t1/bridge/state`).length > 0,
      'the table online at the consumer',
    );

    const before = daemon.lastSeq;
    await pit.request('t1', 'new_shoe', { transaction: 'p-1' }, alice);
    await settle(300);
    expect(daemon.lastSeq).toBe(before);
    expect(boss.messages.filter((m) => m.topic.includes('/bridge/'))).toEqual(
      boss.messages.filter(
        (m) => m.topic.endsWith('/bridge/state') || m.topic.endsWith('/bridge/info'),
      ),
    );

    await boss.request('t1', 'new_shoe', { transaction: 'b-1', reason: 'boss' }, alice);
    expect(await boss.response('t1', 'new_shoe', 'b-1')).toMatchObject({ status: 'ok' });
    await waitFor(() => boss.on(`${BASE}/t1/events/shoe`).length > 0, "the daemon's shoe event");
    // The consumer that tried to publish a request was dropped by the broker.
    expect(pit.closed).toBe(true);
    // A supervisor faking a card: refused, and dropped too; a reader sees no card.
    const reader = await Client.connect(cleanup, url, {
      username: 'pit',
      password: 'pit-password',
    });
    await boss.publish(
      `${BASE}/t1/events/card`,
      JSON.stringify({ seq: 77, type: 'card', card: 'AS' }),
    );
    await waitFor(() => boss.closed, 'the faker disconnected');
    await settle(300);
    expect(reader.on(`${BASE}/t1/events/card`)).toEqual([]);
  });

  it('with no users (a bench): anyone may connect and send requests, nobody but the daemon publishes events', async () => {
    const dir = tempDir(cleanup);
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    const notices: string[] = [];
    const daemon = await startTable(
      cleanup,
      {
        table: 't1',
        mqtt: { url: 'embedded', port },
        journal: { dir: join(dir, 'journal'), rotateDaily: false },
      },
      notices,
    );
    expect(notices.join('\n')).toMatch(/requests are taken unsigned/);
    await waitFor(() => daemon.brokerConnected, 'the daemon on its broker');
    const anyone = await Client.connect(cleanup, url);
    for (const [topic, text] of [
      [`${BASE}/t1/events/card`, JSON.stringify({ seq: 5, type: 'card', card: 'KH' })],
      [`${BASE}/t1/state`, JSON.stringify({ fake: true })],
    ] as const) {
      const faker = await Client.connect(cleanup, url, {}, '');
      await faker.publish(topic, text);
      await waitFor(() => faker.closed, `the faker of ${topic} disconnected`);
    }
    // `tableside diag` checks the round trip under diag/: still open.
    await anyone.publish(`${BASE}/t1/diag/check`, 'ping');
    await waitFor(() => anyone.on(`${BASE}/t1/diag/check`).length > 0, 'the diag round trip');
    expect(anyone.closed).toBe(false);
    await anyone.request('t1', 'new_shoe', { transaction: 'a-1' });
    expect(await anyone.response('t1', 'new_shoe', 'a-1')).toMatchObject({ status: 'ok' });
    await waitFor(() => anyone.on(`${BASE}/t1/events/shoe`).length > 0, 'the shoe event');
    expect(anyone.on(`${BASE}/t1/events/card`)).toEqual([]);
    expect(anyone.on(`${BASE}/t1/state`).some((m) => m.text.includes('fake'))).toBe(false);
  });
});
