/**
 * Issue 24, item 1: a retained blank `new_shoe` started a new shoe at once
 * and again at each restart, because the broker hands a retained request to
 * the table at every connect. Now a request the broker delivers as retained
 * is refused (`retained`, naming how to clear it) on every table; MQTT 5
 * keeps the flag of a live one (retain as published), so it is refused at
 * once; the embedded broker does not take a retained request at all.
 */
import { describe, expect, it } from 'vitest';
import type { Consumer } from './helpers/consumer.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { RequestTable } from './helpers/request-table.ts';

const missing = skipReason(socatMissing());

/** The next answer on `bridge/response/<op>` after `from` in the consumer's messages. */
async function answerAfter(consumer: Consumer, op: string, from: number, table: RequestTable) {
  const topic = `${table.root}/bridge/response/${op}`;
  await until(
    () => consumer.messages.slice(from).some((m) => m.topic === topic),
    `an answer on ${topic}`,
    30_000,
    () => table.describe(),
  );
  const found = consumer.messages.slice(from).find((m) => m.topic === topic)!;
  return JSON.parse(found.payload) as Record<string, unknown>;
}

/** The shoes started and the inputs journaled from MQTT requests, for "nothing changed". */
async function changes(table: RequestTable) {
  const records = await table.journal();
  return {
    shoes: records.filter((r) => (r.data as { type?: string }).type === 'shoe_start').length,
    mqttInputs: records.filter(
      (r) => r.kind === 'input' && String((r.data as { src?: string }).src).startsWith('mqtt'),
    ).length,
  };
}

// The cases share nothing (a broker, a daemon, a pty and a journal each) and mostly wait on
// restarts and round trips over MQTT: side by side, the file takes as long as its slowest case.
describe
  .skipIf(missing !== undefined)
  .concurrent('a retained MQTT request is never obeyed and is refused at every restart', () => {
    it('on mosquitto (MQTT 3.1.1), signed table: a retained blank new_shoe is refused at once and at each of two restarts', async ({
      onTestFinished,
    }) => {
      const t = await RequestTable.create('retained-signed', {
        broker: 'mosquitto',
        game: 'cards',
        signed: true,
      });
      onTestFinished(() => t.close());
      let consumer = await t.start();
      const setup = await consumer.request('new_shoe', {
        raw: t.signed('new_shoe', { transaction: 'setup' }),
      });
      expect(setup, t.describe()).toMatchObject({ status: 'ok' });
      const before = await changes(t);

      let from = consumer.messages.length;
      await t.publishRetained('new_shoe', ' ');
      // Live, MQTT 3.1.1 hides the retain flag: it is refused as what it is, unsigned.
      expect(await answerAfter(consumer, 'new_shoe', from, t)).toMatchObject({
        status: 'error',
        code: 'unsigned',
      });
      // The answer goes out before the alarm: the kill below must not fall between the two.
      await until(
        () => consumer.ofType('alarm').some((alarm) => alarm.code === 'unsigned'),
        'the unsigned request alarm',
      );
      for (const restart of [1, 2]) {
        await t.kill();
        from = consumer.messages.length;
        consumer = await t.start();
        const answer = await answerAfter(consumer, 'new_shoe', from, t);
        expect(answer, `restart ${restart}`).toMatchObject({ status: 'error', code: 'retained' });
        expect(String(answer.error)).toMatch(
          /retained request is never obeyed.*mosquitto_pub -r -n/,
        );
      }
      // Stale by now and retained besides: a signed request left behind is refused for the latter.
      await t.kill();
      await t.publishRetained('new_shoe', t.signed('new_shoe', { transaction: 'left' }));
      from = consumer.messages.length;
      consumer = await t.start();
      expect(await answerAfter(consumer, 'new_shoe', from, t)).toMatchObject({
        status: 'error',
        code: 'retained',
        transaction: 'left',
      });
      const health = await consumer.request('health_check', {
        raw: t.signed('health_check', { transaction: 'after' }),
      });
      expect(health).toMatchObject({ status: 'ok' });
      expect(await changes(t)).toEqual(before);
      const alarms = consumer.ofType('alarm').filter((a) => a.kind === 'request_refused');
      expect(alarms.map((a) => a.code)).toEqual(expect.arrayContaining(['unsigned', 'retained']));
    });

    it('on mosquitto, bench table: a request left retained while the table was down is refused at start', async ({
      onTestFinished,
    }) => {
      const t = await RequestTable.create('retained-bench', {
        broker: 'mosquitto',
        game: 'cards',
        signed: false,
      });
      onTestFinished(() => t.close());
      await t.publishRetained('new_shoe', JSON.stringify({ transaction: 'left', reason: 'old' }));
      const consumer = await t.start();
      expect(await answerAfter(consumer, 'new_shoe', 0, t)).toMatchObject({
        status: 'error',
        code: 'retained',
        transaction: 'left',
      });
      const health = await consumer.request('health_check', { transaction: 'after' });
      expect(health).toMatchObject({ status: 'ok' });
      expect(await changes(t)).toEqual({ shoes: 0, mqttInputs: 0 });
    });

    it('on mosquitto with MQTT 5: a signed request published retained is refused at once', async ({
      onTestFinished,
    }) => {
      const t = await RequestTable.create('retained-v5', {
        broker: 'mosquitto',
        game: 'cards',
        signed: true,
        protocolVersion: 5,
      });
      onTestFinished(() => t.close());
      const consumer = await t.start();
      const from = consumer.messages.length;
      await t.publishRetained('new_shoe', t.signed('new_shoe', { transaction: 'now' }));
      expect(await answerAfter(consumer, 'new_shoe', from, t)).toMatchObject({
        status: 'error',
        code: 'retained',
        transaction: 'now',
      });
      expect(await changes(t)).toEqual({ shoes: 0, mqttInputs: 0 });
    });

    it('on the embedded broker: a retained request is refused by the broker and never reaches the table', async ({
      onTestFinished,
    }) => {
      const t = await RequestTable.create('retained-embedded', {
        broker: 'embedded',
        game: 'cards',
        signed: true,
      });
      onTestFinished(() => t.close());
      const consumer = await t.start();
      await t.publishRetained('new_shoe', t.signed('new_shoe', { transaction: 'now' }));
      await until(
        () =>
          /new_shoe refused: a request may not be retained/.test(
            `${t.daemon?.stdout}${t.daemon?.stderr}`,
          ),
        "the broker's refusal in the daemon's log",
        20_000,
        () => t.describe(),
      );
      const health = await consumer.request('health_check', {
        raw: t.signed('health_check', { transaction: 'after' }),
      });
      expect(health).toMatchObject({ status: 'ok' });
      expect(consumer.messages.some((m) => m.topic.endsWith('/bridge/response/new_shoe'))).toBe(
        false,
      );
      expect(await changes(t)).toEqual({ shoes: 0, mqttInputs: 0 });
    });
  });
