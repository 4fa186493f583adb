/**
 * `tableside run` with `mqtt.protocolVersion: 5` against a real mosquitto,
 * a simulated shoe dealing: consumers see the events with their MQTT 5
 * properties; a request is answered on its Response Topic with its
 * Correlation Data; the daemon killed (kill -9) and started again within
 * `mqtt.willDelaySeconds` resumes its session, so `bridge/state` never says
 * `offline`; a deliberate stop (SIGINT) does.
 */
import mqtt, { type IPublishPacket } from 'mqtt';
import { afterEach, expect, it } from 'vitest';
import { startTestBroker, type TestBroker } from '../helpers/broker.ts';
import { type CliProcess, startDaemon, tempDir, writeConfig } from './helpers/daemon.ts';
import { mosquittoMissing, skipReason, until } from './helpers/environment.ts';

const missing = skipReason(mosquittoMissing());
const TABLE = 't5';
const WILL_DELAY_SECONDS = 10;

interface Message {
  topic: string;
  text: string;
  packet: IPublishPacket;
  at: number;
}

let broker: TestBroker | undefined;
let consumer: mqtt.MqttClient | undefined;
const daemons: CliProcess[] = [];
afterEach(async () => {
  for (const daemon of daemons.splice(0)) await daemon.kill('SIGKILL');
  await consumer?.endAsync(true);
  await broker?.close();
});

it.skipIf(missing !== undefined)(
  'properties on events, the response topic answered, no offline across a quick restart',
  async () => {
    broker = await startTestBroker();
    const dir = tempDir('mqtt5');
    const config = writeConfig(dir, {
      table: TABLE,
      mqtt: {
        url: broker.url,
        protocolVersion: 5,
        willDelaySeconds: WILL_DELAY_SECONDS,
        sessionExpirySeconds: 60,
      },
      journal: { dir: `${dir}/journal` },
      simulation: { cardIntervalMs: 100, roundIntervalMs: 300, seed: 5 },
    });

    const messages: Message[] = [];
    consumer = mqtt.connect(broker.url, { protocolVersion: 5, reconnectPeriod: 200 });
    consumer.on('message', (topic, payload, packet) =>
      messages.push({ topic, text: payload.toString(), packet, at: Date.now() }),
    );
    await new Promise((resolve) => consumer!.once('connect', resolve));
    await consumer.subscribeAsync([`tableside/${TABLE}/#`, 'replies/#'], { qos: 1 });
    const states = () =>
      messages.filter((m) => m.topic === `tableside/${TABLE}/bridge/state`).map((m) => m.text);
    const cards = () => messages.filter((m) => m.topic === `tableside/${TABLE}/events/card`);

    const first = startDaemon(config);
    daemons.push(first);
    await until(
      () => cards().length >= 3,
      'the first cards',
      30_000,
      () => first.describe(),
    );
    expect(states()).toEqual(['online']);
    for (const card of cards()) {
      const seq = (JSON.parse(card.text) as { seq: number }).seq;
      expect(card.packet.properties).toMatchObject({
        contentType: 'application/json',
        payloadFormatIndicator: true,
        userProperties: { seq: String(seq) },
      });
    }
    expect(first.stderr).toContain('CONNACK 0x00 Success');

    await consumer.publishAsync(
      `tableside/${TABLE}/bridge/request/health_check`,
      JSON.stringify({ transaction: 'e2e' }),
      {
        qos: 1,
        properties: { responseTopic: 'replies/floor', correlationData: Buffer.from('c-17') },
      },
    );
    await until(() => messages.some((m) => m.topic === 'replies/floor'), 'the answer');
    const answer = messages.find((m) => m.topic === 'replies/floor')!;
    expect(JSON.parse(answer.text)).toMatchObject({ status: 'ok', transaction: 'e2e' });
    expect(answer.packet.properties?.correlationData?.toString()).toBe('c-17');

    // Killed, and started again at once.
    const killedAt = Date.now();
    const cardsBefore = cards().length;
    await first.kill('SIGKILL');
    const second = startDaemon(config);
    daemons.push(second);
    await until(
      () => cards().length >= cardsBefore + 3,
      'cards from the restarted daemon',
      WILL_DELAY_SECONDS * 1000,
      () => second.describe(),
    );
    const waitLeft = killedAt + WILL_DELAY_SECONDS * 1000 + 1000 - Date.now();
    // fixed wait: nothing happens: no offline may arrive within the will delay after the kill: only time shows it
    if (waitLeft > 0) await new Promise((resolve) => setTimeout(resolve, waitLeft));
    expect(states()).not.toContain('offline');

    // A deliberate stop says offline at once.
    await second.kill('SIGINT');
    await until(() => states().includes('offline'), 'offline after SIGINT', 10_000);
  },
  60_000,
);
