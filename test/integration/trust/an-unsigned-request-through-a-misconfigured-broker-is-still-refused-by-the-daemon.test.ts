/**
 * The casino's broker lets anyone publish (no ACL, anonymous allowed): a
 * request that gets through unsigned, stale, replayed, badly signed or
 * signed by a stranger is still refused by the daemon, with an error on
 * bridge/response carrying the caller's transaction and an alarm on
 * events/alarm; the table does not move. A supervisor's signed request is
 * obeyed and journaled with the supervisor's name. No key material reaches
 * MQTT or the journal.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import { privateKeyPem, rawPublicKey } from '../../../firmware-host/trust/keys.ts';
import { startTestBroker } from '../../helpers/broker.ts';
import { mosquittoMissing } from '../../helpers/tools.ts';
import { BASE, Cleanup, Client, keyFile, settle, startTable, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const noMosquitto = mosquittoMissing('the misconfigured-broker scenario needs it');

describe.skipIf(noMosquitto)('an unsigned request through a misconfigured broker', () => {
  it('is refused by the daemon with a named error and an alarm, and changes nothing', async () => {
    const dir = tempDir(cleanup);
    const alice = await keyFile(dir, 'alice');
    const mallory = await keyFile(dir, 'mallory');
    const broker = await startTestBroker();
    cleanup.add(() => broker.close());
    const journalDir = join(dir, 'journal');
    const notices: string[] = [];
    const daemon = await startTable(
      cleanup,
      {
        table: 't1',
        mqtt: { url: broker.url },
        journal: { dir: journalDir, rotateDaily: false },
        requests: { supervisors: { alice: alice.text } },
      },
      notices,
    );
    const anyone = await Client.connect(cleanup, broker.url);
    await waitFor(() => daemon.brokerConnected, 'the daemon on the broker');
    const before = daemon.lastSeq;
    // Consumers can see that this table obeys signed requests only.
    await waitFor(() => anyone.on(`${BASE}/t1/bridge/info`).length > 0, 'bridge/info');
    expect(JSON.parse(anyone.on(`${BASE}/t1/bridge/info`)[0]!.text)).toMatchObject({
      trust: { requests: 'signed', journalKey: null },
    });

    const now = Date.now();
    const replayed = await anyone.request(
      't1',
      'new_shoe',
      { transaction: 'r-0', reason: 'first' },
      alice,
      { ts: now },
    );
    expect(await anyone.response('t1', 'new_shoe', 'r-0')).toMatchObject({ status: 'ok' });
    const afterGood = daemon.lastSeq;
    expect(afterGood).toBeGreaterThan(before);

    const attempts: [string, () => Promise<unknown>, string, RegExp][] = [
      [
        'unsigned',
        () => anyone.request('t1', 'new_shoe', { transaction: 'r-1', reason: 'x' }),
        'unsigned',
        /unsigned request/,
      ],
      [
        'stranger',
        () => anyone.request('t1', 'new_shoe', { transaction: 'r-2' }, mallory),
        'unknown_key',
        /unknown key/,
      ],
      [
        'stale',
        () =>
          anyone.request('t1', 'new_shoe', { transaction: 'r-3' }, alice, { ts: now - 120_000 }),
        'stale',
        /stale timestamp/,
      ],
      [
        'replayed',
        () =>
          anyone.publish(
            `${BASE}/t1/bridge/request/new_shoe`,
            JSON.stringify({ ...replayed, transaction: 'r-0' }),
          ),
        'replay',
        /replay/,
      ],
      [
        'bad signature',
        () =>
          anyone.publish(
            `${BASE}/t1/bridge/request/void_hand`,
            JSON.stringify({ ...replayed, transaction: 'r-4', reason: 'moved' }),
          ),
        'bad_signature',
        /bad signature/,
      ],
    ];
    for (const [what, send, code, message] of attempts) {
      const responsesBefore = anyone.messages.length;
      await send();
      await waitFor(
        () =>
          anyone.messages.slice(responsesBefore).some((m) => m.topic.includes('/bridge/response/')),
        `the response to the ${what} request`,
      );
      const response = anyone.messages
        .slice(responsesBefore)
        .filter((m) => m.topic.includes('/bridge/response/'))
        .map((m) => JSON.parse(m.text) as Record<string, unknown>)[0]!;
      expect(response, what).toMatchObject({ status: 'error', code });
      expect(String(response.error), what).toMatch(message);
      expect(response.transaction, what).toBeDefined();
      // Refusal windows are one second apart: each refusal here gets its own alarm.
      // fixed wait: timer under test: refusal alarms are limited to one a second: each refusal here must fall in a window of its own
      await settle(1_050);
    }
    await waitFor(
      () => anyone.on(`${BASE}/t1/events/alarm`).length >= attempts.length,
      'the alarms',
    );
    const alarms = anyone
      .on(`${BASE}/t1/events/alarm`)
      .map((m) => JSON.parse(m.text) as Record<string, unknown>);
    expect(alarms.map((alarm) => alarm.code)).toEqual(attempts.map(([, , code]) => code));
    expect(alarms.every((alarm) => alarm.kind === 'request_refused')).toBe(true);
    expect(notices.some((notice) => /refused \(unsigned\)/.test(notice))).toBe(true);

    // Nothing changed but the alarms: no input journaled after the good request.
    const records = [];
    for await (const record of readJournalRecords(journalDir, afterGood + 1)) records.push(record);
    expect(records.map((record) => (record.data as { type?: string }).type)).toEqual(
      attempts.map(() => 'alarm'),
    );
    const inputs = [];
    for await (const record of readJournalRecords(journalDir))
      if (record.kind === 'input') inputs.push(record.data);
    expect(inputs).toEqual([expect.objectContaining({ t: 'shuffle', src: 'mqtt:alice' })]);

    await daemon.stop();
    // No private key material anywhere a key must never be: MQTT and the journal.
    const secrets = [alice, mallory].flatMap((pair) => [
      privateKeyPem(pair.privateKey).split('\n')[1]!,
      pair.privateKey.export({ format: 'jwk' }).d as string,
    ]);
    const journalText = (
      await Promise.all(
        (await readdir(journalDir)).map((name) => readFile(join(journalDir, name), 'utf8')),
      )
    ).join('\n');
    const mqttText = anyone.messages.map((m) => m.text).join('\n');
    for (const secret of secrets) {
      expect(journalText).not.toContain(secret);
      expect(mqttText).not.toContain(secret);
    }
    expect(rawPublicKey(alice.publicKey)).toHaveLength(32);
  });
});
