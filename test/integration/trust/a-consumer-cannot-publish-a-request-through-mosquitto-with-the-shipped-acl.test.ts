/**
 * The shipped Mosquitto ACL (hardware/deploy/mosquitto/tableside.acl) on a
 * real mosquitto with a password file made by mosquitto_passwd: a
 * consumer's credentials cannot publish a request nor fake an event; one
 * table's daemon cannot publish under another table; anonymous clients are
 * refused; a supervisor's request, signed by `tableside request --key`,
 * reaches the table and is obeyed.
 */
import { join } from 'node:path';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import { runCli } from '../../helpers/cli.ts';
import { commandMissing, mosquittoMissing, skipReason } from '../../helpers/tools.ts';
import {
  BASE,
  Cleanup,
  Client,
  keyFile,
  settle,
  startBrokerWithShippedAcl,
  startTable,
  tempDir,
  waitFor,
} from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const missing = skipReason(
  mosquittoMissing('the shipped-ACL scenario needs it'),
  commandMissing('mosquitto_passwd', 'the shipped-ACL scenario needs it'),
);

const PASSWORDS = {
  'table-t1': 'table-one-secret',
  'table-t2': 'table-two-secret',
  'consumer-pit': 'consumer-secret',
  'supervisor-pit': 'supervisor-secret',
};

describe.skipIf(missing)('the shipped Mosquitto ACL', () => {
  it("keeps consumers read-only, each table under its own topics, and lets a supervisor's signed request through", async () => {
    const dir = tempDir(cleanup);
    const broker = await startBrokerWithShippedAcl(cleanup, dir, PASSWORDS);

    const alice = await keyFile(dir, 'alice');
    const journalDir = join(dir, 'journal');
    const daemon = await startTable(cleanup, {
      table: 't1',
      mqtt: { url: broker.url, username: 'table-t1', password: PASSWORDS['table-t1'] },
      journal: { dir: journalDir, rotateDaily: false },
      requests: { supervisors: { alice: alice.text } },
    });
    await waitFor(() => daemon.brokerConnected, 'the daemon on the broker');

    const auth = (user: keyof typeof PASSWORDS) => ({ username: user, password: PASSWORDS[user] });
    const supervisor = await Client.connect(cleanup, broker.url, auth('supervisor-pit'));
    const consumer = await Client.connect(cleanup, broker.url, auth('consumer-pit'));
    const otherTable = await Client.connect(cleanup, broker.url, auth('table-t2'), '');
    await waitFor(() => supervisor.on(`${BASE}/t1/bridge/state`).length > 0, 'the table online');

    // Anonymous and wrong-password clients are refused.
    await expect(
      mqtt.connectAsync(broker.url, { reconnectPeriod: 0, connectTimeout: 3000 }),
    ).rejects.toThrow();
    await expect(
      mqtt.connectAsync(broker.url, {
        reconnectPeriod: 0,
        connectTimeout: 3000,
        username: 'consumer-pit',
        password: 'guess',
      }),
    ).rejects.toThrow();

    // A consumer's request (even one carrying a supervisor's signature) and fake events go nowhere.
    const before = daemon.lastSeq;
    await consumer.request('t1', 'new_shoe', { transaction: 'c-1', reason: 'consumer' }, alice);
    await consumer.publish(
      `${BASE}/t1/events/card`,
      JSON.stringify({ seq: 999, type: 'card', card: 'AS' }),
    );
    // Table 2's daemon cannot speak for table 1.
    await otherTable.publish(
      `${BASE}/t1/events/card`,
      JSON.stringify({ seq: 998, type: 'card', card: 'KS' }),
    );
    await otherTable.publish(
      `${BASE}/t1/bridge/request/new_shoe`,
      JSON.stringify({ transaction: 'o-1' }),
    );
    await settle(800);
    const seen = supervisor.messages.map((m) => m.topic);
    expect(seen.filter((topic) => topic.includes('/bridge/request/'))).toEqual([]);
    expect(seen.filter((topic) => topic.includes('/bridge/response/'))).toEqual([]);
    expect(supervisor.on(`${BASE}/t1/events/card`)).toEqual([]);
    expect(daemon.lastSeq).toBe(before);

    // The supervisor signs one from a terminal; the table obeys and journals who asked.
    const keyPath = join(dir, 'alice.pem');
    const cli = runCli(
      [
        'request',
        'new_shoe',
        'reason=pit boss',
        'transaction=s-1',
        '--key',
        keyPath,
        '--url',
        broker.url,
        '--table',
        't1',
        '--username',
        'supervisor-pit',
        '--password',
        PASSWORDS['supervisor-pit'],
      ],
      { env: { TABLESIDE_LOG_LEVEL: 'warn' } },
    );
    const result = await cli.done;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ status: 'ok', transaction: 's-1' });
    const inputs = [];
    for await (const record of readJournalRecords(journalDir))
      if (record.kind === 'input') inputs.push(record.data);
    expect(inputs).toEqual([expect.objectContaining({ t: 'shuffle', src: 'mqtt:alice' })]);
    // The consumer reads the table's events.
    await waitFor(
      () => consumer.on(`${BASE}/t1/events/shoe`).length > 0,
      'the shoe_start at the consumer',
    );
  });
});
