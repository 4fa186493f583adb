/**
 * docs/asyncapi.yaml against the code, so that the document cannot drift:
 * the official AsyncAPI parser finds no error in it; its channels are the
 * topic map and nothing else; every request op has its request and response
 * message, and each request payload is the op's zod schema plus `auth`; the
 * event types and alarm kinds are the code's; and what a running card table
 * and a running roulette table publish (through a recording MQTT client, no
 * broker) validates against the document's payload schemas, retain and QoS
 * flags included, while malformed payloads are refused. Where the config
 * takes `mqtt.protocolVersion: 5`, the MQTT 5 properties and the answer on a
 * request's Response Topic are checked against the message bindings too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { VERSION } from '../../../device-protocol/version.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { GAME_PLUGINS } from '../../../firmware-host/games/registry.ts';
import { CursorStore } from '../../../firmware-host/journal/cursor.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { MqttBridge } from '../../../firmware-host/mqtt/bridge.ts';
import { requestSchemas } from '../../../firmware-host/mqtt/requests.ts';
import {
  type EventTopicKind,
  REQUEST_OPS,
  type RequestOp,
  tableTopics,
} from '../../../firmware-host/mqtt/topics.ts';
import {
  type AlarmKind,
  type DomainEvent,
  type DomainEventType,
  eventTopicKind,
} from '../../../firmware-host/table/events.ts';
import {
  formatPublicKey,
  generateKeyPair,
  privateKeyPem,
} from '../../../firmware-host/trust/keys.ts';
import { signRequest } from '../../../firmware-host/trust/signed-request.ts';
import {
  ajv,
  channelOf,
  dereference,
  doc,
  type Json,
  matchOf,
  messagesOf,
  payloadValidator,
  pointer,
  text,
  withoutDescriptions,
} from '../../helpers/asyncapi-document.ts';
import { type Publication, recordingClients } from '../../helpers/recording-mqtt.ts';
import { until } from '../../helpers/until.ts';

vi.mock('../../../firmware-host/mqtt/connect.ts', async () => {
  const { recordingConnector } = await import('../../helpers/recording-mqtt.ts');
  return { mqttConnectorFor: async () => recordingConnector };
});

// The code's unions as lists; typecheck fails when a member is added to the code and not here.
const EVENT_KINDS = [
  'card',
  'hand',
  'shoe',
  'alarm',
  'spin',
] as const satisfies readonly EventTopicKind[];
const EVENT_TYPES = [
  'shoe_start',
  'round_start',
  'card',
  'result',
  'last_hand',
  'shoe_end',
  'hand_voided',
  'reshuffle_required',
  'alarm',
  'game_start',
  'no_more_bets',
  'spin',
  'game_voided',
  'closing',
  'games_left',
  'table_closed',
  'table_reopened',
] as const satisfies readonly DomainEventType[];
const ALARM_KINDS = [
  'foreign_card',
  'wrong_back_colour',
  'deck_not_alternated',
  'sequence_mismatch',
  'face_up_card',
  'wrong_card_count',
  'dealer_card_exposed',
  'card_after_shoe_end',
  'shuffle_suspect',
  'missing_burn',
  'unexpected_card',
  'illegal_action',
  'request_refused',
  'device_quarantined',
  'device_requalified',
  'device_unpaired',
  'device_fault',
  'round_after_shoe_end',
  'missing_shuffle',
  'wrong_shoe',
  'rotor_same_direction',
  'ball_with_rotor',
  'few_revolutions',
  'result_without_spin',
  'spin_without_close',
  'no_spin',
  'game_after_closing',
  'reopen_not_closed',
  'device_unauthenticated',
  'link_stalled',
  'link_resumed',
  'device_unreachable',
  'device_reachable',
  'line_attack_counted',
  'line_attack_ended',
] as const satisfies readonly AlarmKind[];
type Complete<Union, Listed> = [Exclude<Union, Listed>] extends [never]
  ? true
  : Exclude<Union, Listed>;
const everyKindListed: Complete<EventTopicKind, (typeof EVENT_KINDS)[number]> = true;
const everyTypeListed: Complete<DomainEventType, (typeof EVENT_TYPES)[number]> = true;
const everyAlarmListed: Complete<AlarmKind, (typeof ALARM_KINDS)[number]> = true;

describe('the AsyncAPI document', () => {
  it('is a valid AsyncAPI 3.0.0 document to the official parser', async () => {
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.info.version).toBe(VERSION);
    const parser = new Parser();
    const { document, diagnostics } = await parser.parse(text);
    // Severity 0 is an error, 1 a warning; the one hint we accept is "3.1.0 exists".
    const serious = diagnostics
      .filter((d) => d.severity <= 1)
      .map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`);
    expect(serious).toEqual([]);
    expect(document).toBeDefined();
    expect(document!.channels().length).toBe(Object.keys(doc.channels).length);

    // The parser does catch a broken document: an operation on a channel that is not there.
    const broken = text.replace("$ref: '#/channels/roads'\n", "$ref: '#/channels/nowhere'\n");
    expect(broken).not.toBe(text);
    const checked = await parser.parse(broken);
    expect(checked.diagnostics.some((d) => d.severity === 0)).toBe(true);
  });

  it('has every $ref resolve and every operation on its own channel messages', () => {
    const refs = [...text.matchAll(/\$ref: '([^']+)'/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    for (const ref of refs) expect(pointer(ref), ref).toBeDefined();
    for (const [id, operation] of Object.entries(doc.operations)) {
      expect(['send', 'receive'], id).toContain(operation.action);
      const channel = operation.channel.$ref;
      for (const message of operation.messages)
        expect(message.$ref.startsWith(`${channel}/messages/`), id).toBe(true);
      if (operation.reply) {
        for (const message of operation.reply.messages) {
          expect(message.$ref.startsWith(`${operation.reply.channel.$ref}/messages/`), id).toBe(
            true,
          );
        }
      }
    }
  });

  it('has a channel for every topic of the topic map, and no other', () => {
    const topics = tableTopics('{base}', '{table}');
    const fromCode = [
      topics.bridgeState,
      topics.bridgeInfo,
      topics.state,
      // What each shipped game publishes besides the state (baccarat's roads), by its name.
      ...new Set(
        GAME_PLUGINS.flatMap((game) =>
          game.publishedFolds().map((fold) => topics.published(fold.name)),
        ),
      ),
      topics.deviceAvailability('{device}'),
      ...EVENT_KINDS.map((kind) => topics.events(kind)),
      topics.journalHead,
      topics.request('{op}'),
      topics.response('{op}'),
    ];
    // requestFilter is the daemon's subscription to the request channel, not a topic of its own.
    expect(topics.requestFilter).toBe(topics.request('+'));
    // Every member of the map is listed above (a new one must be added here and to the document).
    const members = Object.keys(topics).filter(
      (key) => !['root', 'opOf', 'requestFilter'].includes(key),
    );
    expect(members.sort()).toEqual(
      [
        'bridgeState',
        'bridgeInfo',
        'state',
        'published',
        'deviceAvailability',
        'events',
        'journalHead',
        'request',
        'response',
      ].sort(),
    );
    const addresses = Object.values(doc.channels).map((channel) => channel.address);
    expect(addresses.sort()).toEqual([...fromCode].sort());
    for (const channel of Object.values(doc.channels)) {
      const params = [...channel.address.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(channel.parameters ?? {}).sort(), channel.address).toEqual(params.sort());
    }
  });

  it('has a request and a response message for every request op, the request as the code validates it', () => {
    const opParameter = doc.channels.bridgeRequest!.parameters!.op as { enum: string[] };
    expect(opParameter.enum).toEqual([...REQUEST_OPS]);
    const requests = messagesOf('bridgeRequest');
    const responses = messagesOf('bridgeResponse');
    expect(requests.map((m) => m.name).sort()).toEqual([...REQUEST_OPS].sort());
    expect(responses.map((m) => m.name).sort()).toEqual([...REQUEST_OPS].sort());
    const receive = doc.operations.receiveRequest!;
    expect(receive.action).toBe('receive');
    expect(receive.messages).toHaveLength(REQUEST_OPS.length);
    expect(receive.reply?.messages).toHaveLength(REQUEST_OPS.length);
    for (const op of REQUEST_OPS) {
      const message = requests.find((m) => m.name === op)!;
      const payload = structuredClone(message.payload) as { properties: Json };
      // `auth` is taken off (and checked) before the op's schema sees the payload.
      expect(payload.properties.auth, op).toEqual(
        dereference({ $ref: '#/components/schemas/requestAuth' }),
      );
      delete payload.properties.auth;
      const { $schema: _draft, ...fromZod } = z.toJSONSchema(requestSchemas[op as RequestOp], {
        target: 'draft-7',
        io: 'input',
      });
      expect(withoutDescriptions(payload), op).toEqual(fromZod);
      expect(message.correlationId).toEqual({
        description: expect.any(String),
        location: '$message.payload#/transaction',
      });
    }
  });

  it('puts every event type on the channel the code publishes it to, and no other', () => {
    expect([everyKindListed, everyTypeListed, everyAlarmListed]).toEqual([true, true, true]);
    const typesOn = (kind: EventTopicKind) =>
      messagesOf(`${kind}Events`)
        .map(
          (message) =>
            (message.payload as { properties: { type: { const: string } } }).properties.type.const,
        )
        .filter((type) => type !== 'event_withheld');
    for (const kind of EVENT_KINDS) {
      const fromCode = EVENT_TYPES.filter(
        (type) => eventTopicKind({ type } as DomainEvent) === kind,
      );
      // journal_failed is an alarm too (`type: alarm`), published outside the journal.
      expect([...new Set(typesOn(kind))].sort(), kind).toEqual([...fromCode].sort());
    }
    const kinds = (pointer('#/components/schemas/alarmKind') as { enum: string[] }).enum;
    expect([...kinds].sort()).toEqual([...ALARM_KINDS].sort());
  });

  it('gives retained topics retain and QoS 1, events and responses QoS 1 not retained', () => {
    const retained = [
      'bridgeState',
      'bridgeInfo',
      'state',
      'roads',
      'deviceAvailability',
      'journalHead',
    ];
    for (const operation of Object.values(doc.operations)) {
      if (operation.action !== 'send') continue;
      const channel = operation.channel.$ref.replace('#/channels/', '');
      expect(operation.bindings?.mqtt, channel).toMatchObject({
        qos: 1,
        retain: retained.includes(channel),
      });
    }
    const server = (
      doc as unknown as { servers: { broker: { bindings: { mqtt: { lastWill: Json } } } } }
    ).servers.broker;
    expect(server.bindings.mqtt.lastWill).toEqual({
      topic: tableTopics('{base}', '{table}').bridgeState,
      qos: 1,
      message: 'offline',
      retain: true,
    });
  });
});

describe('the payload schemas', () => {
  const validate = (component: string, payload: unknown) =>
    ajv.validate({ $ref: `asyncapi#/components/schemas/${component}` }, payload);

  it('refuse what the code would never publish', () => {
    const card = { seq: 4, ts: 1, type: 'card', card: 'AS', to: 'player', face: 'up' };
    expect(validate('cardEvent', card)).toBe(true);
    // A face-down card is never named.
    expect(validate('cardEvent', { ...card, face: 'down' })).toBe(false);
    expect(validate('cardEvent', { ...card, face: 'down', card: null, hidden: true })).toBe(true);
    expect(validate('cardEvent', { ...card, card: '1S' })).toBe(false);
    expect(validate('cardEvent', { ...card, seq: undefined })).toBe(false);
    expect(validate('cardEvent', { ...card, to: 'box:9' })).toBe(false);
    expect(
      validate('alarmEvent', { seq: 1, ts: 1, type: 'alarm', kind: 'no_such_kind', message: 'x' }),
    ).toBe(false);
    expect(validate('summaryResponse', { status: 'maybe', data: {} })).toBe(false);
    expect(validate('summaryResponse', { status: 'error', code: 'refused' })).toBe(false);
    expect(validate('newRoundRequest', { boxes: [8] })).toBe(false);
    expect(validate('newRoundRequest', { boxes: [1], colour: 'red' })).toBe(false);
    expect(validate('voidHandRequest', {})).toBe(false);
    expect(validate('bareRequest', { transaction: 'x'.repeat(129) })).toBe(false);
    const auth = {
      key: '3f2a-9c01-77de-b410',
      ts: 1,
      nonce: 'n'.repeat(16),
      sig: `${'A'.repeat(86)}==`,
    };
    expect(validate('bareRequest', { auth })).toBe(true);
    expect(validate('bareRequest', { auth: { ...auth, sig: 'short' } })).toBe(false);
    expect(validate('bareRequest', { auth: { ...auth, nonce: 'short' } })).toBe(false);
  });

  it('take requests signed by the code', () => {
    const { privateKey } = generateKeyPair();
    const topics = tableTopics('tableside', 'table-1');
    const signed = signRequest(
      topics.request('void_hand'),
      { reason: 'spilled drink', transaction: 't-1' },
      privateKey,
      {
        ts: 1_764_040_000_000,
      },
    );
    expect(validate('voidHandRequest', signed)).toBe(true);
    expect(validate('voidHandRequest', { ...signed, auth: { ...signed.auth, extra: 1 } })).toBe(
      false,
    );
  });
});

describe('what a running table publishes', () => {
  const cleanup: Array<() => Promise<unknown>> = [];
  const published: Publication[] = [];
  const published311: Publication[] = [];
  const publishedMqtt5: Publication[] = [];
  const directAnswers: Publication[] = [];
  const REPLY_TOPIC = 'supervisors/pit/replies';
  const supervisor = generateKeyPair();

  afterAll(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => undefined);
  });

  /** Runs a table until `enough` says so, sends it `requests`, stops it; returns what it published. */
  async function runTable(
    ruleset: string,
    devices: Json | undefined,
    enough: (events: readonly DomainEvent[]) => boolean,
    requests: Array<{ op: string; fields: Json; sign: boolean; responseTopic?: string }>,
    mqtt5 = false,
  ): Promise<Publication[]> {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-asyncapi-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const tableKey = generateKeyPair();
    const keyPath = join(dir, 'table-key.pem');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(keyPath, privateKeyPem(tableKey.privateKey), { mode: 0o600 });
    const { config } = resolveConfig(
      {
        table: 'asyncapi',
        ruleset,
        ...(devices ? { devices } : {}),
        mqtt: { url: 'mqtt://127.0.0.1:1883', ...(mqtt5 ? { protocolVersion: 5 } : {}) },
        journal: { dir: join(dir, 'journal'), rotateDaily: false, signingKey: keyPath },
        requests: { supervisors: { pit: formatPublicKey(supervisor.publicKey) } },
        // Betting lasts a little on the wheel: with 0, a wheel whose table closed
        // would loop without yielding (simulators/wheel.ts sleeps 0 as no wait).
        simulation: { cardIntervalMs: 0, roundIntervalMs: devices ? 0 : 5, seed: 11 },
      },
      { env: {} },
    );
    const before = recordingClients.length;
    const daemon = new TableDaemon({ config });
    const events: DomainEvent[] = [];
    daemon.on('journaled', (records: readonly JournalRecord[]) => {
      for (const record of records)
        if (record.kind === 'event') events.push(record.data as DomainEvent);
    });
    await daemon.start();
    cleanup.push(() => daemon.stop());
    await until(
      () => recordingClients.length > before && enough(events),
      `${ruleset}: the table to deal`,
    );
    const client = recordingClients.at(-1)!;
    const topics = tableTopics(config.mqtt.baseTopic, config.table);
    for (const [index, { op, fields, sign, responseTopic }] of requests.entries()) {
      const body = { ...fields, transaction: `${op}-${index}` };
      const topic = topics.request(op);
      client.deliver(
        topic,
        sign ? signRequest(topic, body, supervisor.privateKey, { ts: Date.now() }) : body,
        responseTopic === undefined
          ? undefined
          : { responseTopic, correlationData: Buffer.from(`correlation-${index}`) },
      );
      await until(
        () =>
          client.published.some(
            (p) => p.topic === topics.response(op) && p.payload.includes(`"${op}-${index}"`),
          ),
        `the response to ${op}`,
      );
    }
    await daemon.stop();
    expect(client.subscriptions).toEqual([topics.requestFilter]);
    return client.published;
  }

  /**
   * The bridge alone, over a real journal, for what a short bench run does not
   * reach: every event type, a face-down card, an alarm about an undealt card,
   * an event withheld for carrying an order, and the unjournaled alarm.
   */
  async function runBridge(): Promise<Publication[]> {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-asyncapi-bridge-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    let now = Date.UTC(2026, 0, 1, 12);
    const journal = await Journal.open({
      dir: join(dir, 'journal'),
      clock: () => now++,
      table: 't1',
    });
    cleanup.push(() => journal.close());
    const cursor = await CursorStore.open(join(dir, 'mqtt-cursor.json'));
    const before = recordingClients.length;
    const bridge = new MqttBridge({
      url: 'mqtt://127.0.0.1:1883',
      table: 't1',
      baseTopic: 'tableside',
      journal,
      cursor,
      onRequest: () => ({}),
    });
    await bridge.start();
    cleanup.push(() => bridge.stop());
    const rule = 'practice';
    const events: DomainEvent[] = [
      { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 },
      { type: 'round_start', round: 1, boxes: [1, 2] },
      { type: 'card', card: 'AS', to: 'box:1', face: 'up', index: 0, hand: 0 },
      { type: 'card', card: 'KH', to: 'dealer', face: 'down', index: 1 },
      { type: 'result', round: 1, outcome: { winner: 'dealer' }, voided: [2] },
      { type: 'hand_voided', reason: 'misdeal', boxes: 'all', rule },
      { type: 'last_hand', reason: 'cut card', rule },
      { type: 'shoe_end', reason: 'last hand played', rule },
      { type: 'reshuffle_required', reason: 'a card seen', rule },
      {
        type: 'alarm',
        kind: 'sequence_mismatch',
        message: 'expected QS, saw 7D',
        position: 3,
        expected: 'QS',
        seen: '7D',
      },
      { type: 'alarm', kind: 'dealer_card_exposed', message: 'KH was seen', card: 'KH' },
      { type: 'alarm', kind: 'shuffle_suspect', message: 'order kept', order: ['2C', '3C'] },
      { type: 'game_start', game: 1 },
      { type: 'no_more_bets', game: 1 },
      {
        type: 'spin',
        game: 1,
        number: 17,
        colour: 'black',
        rotor: 'cw',
        ball: 'ccw',
        revolutions: 9,
        rpm: 24,
      },
      { type: 'game_voided', game: 1, reason: 'the ball left the wheel', rule: '003 § 11(5)' },
      { type: 'closing', games: 3, rule: '003 § 13(2)' },
      { type: 'games_left', left: 2, rule: '003 § 13(2)' },
      { type: 'table_closed', games: 3, rule: '003 § 13(2)' },
      { type: 'table_reopened', game: 4, reason: 'the pit opens again', rule: '003 § 13(1)' },
    ];
    await journal.append(events.map((data) => ({ kind: 'event' as const, data })));
    await until(
      () => bridge.acknowledgedSeq === journal.lastSeq,
      'the bridge to publish the events',
    );
    await bridge.publishUnjournaledAlarm('journal_failed', 'no space left on the journal disk');
    await bridge.stop();
    const client = recordingClients[before]!;
    const withheld = client.published.filter(
      (p) => p.payload.includes('KH') || p.payload.includes('QS'),
    );
    // The document's promise, kept by the code: no undealt or face-down card leaves.
    expect(withheld).toEqual([]);
    // Its retained topics carry what a daemon would give it (checked in the table runs).
    return client.published.filter((p) => p.topic.includes('/events/'));
  }

  beforeAll(async () => {
    const mqtt311 = await runBridge();
    const cards = await runTable(
      'tdc-baccarat-no-commission',
      { shoe: { kind: 'shoe', transport: 'simulate' } },
      (events) => events.filter((e) => e.type === 'result').length >= 3,
      [
        { op: 'health_check', fields: {}, sign: true, responseTopic: REPLY_TOPIC },
        { op: 'health_check', fields: {}, sign: false },
        { op: 'set_ruleset', fields: { ruleset: 'tdc-blackjack' }, sign: true },
        { op: 'set_ruleset', fields: { ruleset: 'monaco-punto-2000' }, sign: true },
        { op: 'void_hand', fields: { reason: 'a spilled drink' }, sign: true },
        { op: 'player_action', fields: { action: 'fly', colour: 'red' }, sign: true },
        { op: 'new_shoe', fields: { reason: 'end of the test' }, sign: true },
        { op: 'no_such_op', fields: {}, sign: true },
      ],
      true,
    );
    const roulette = await runTable(
      'tdc-roulette',
      undefined,
      (events) => events.filter((e) => e.type === 'spin').length >= 3,
      [
        { op: 'set_ruleset', fields: { ruleset: 'bulgaria-roulette' }, sign: true },
        { op: 'no_more_bets', fields: {}, sign: true },
        { op: 'closing', fields: {}, sign: true },
        { op: 'reopen', fields: { reason: 'closing time called by mistake' }, sign: true },
        { op: 'new_round', fields: {}, sign: true },
      ],
    );
    // MQTT 5 answers on a request's own Response Topic, outside the table's topics.
    directAnswers.push(...cards.filter((p) => p.topic === REPLY_TOPIC));
    cards.splice(0, cards.length, ...cards.filter((p) => p.topic !== REPLY_TOPIC));
    published.push(...mqtt311, ...cards, ...roulette);
    publishedMqtt5.push(...cards);
    mqtt311.push(...roulette);
    published311.push(...mqtt311);
  }, 60_000);

  it('validates every publication against its channel, on every channel the daemon sends to', () => {
    expect(published.length).toBeGreaterThan(50);
    const problems = new Set(
      published.map(matchOf).flatMap((match) => ('problem' in match ? [match.problem] : [])),
    );
    expect([...problems].slice(0, 5)).toEqual([]);
    const seen = new Set(published.map((p) => channelOf(p.topic)!.id));
    const sent = new Set(
      Object.values(doc.operations)
        .filter((o) => o.action === 'send')
        .map((o) => o.channel.$ref.replace('#/channels/', '')),
    );
    expect([...seen].sort()).toEqual([...sent].sort());
  });

  it('exercises every message the daemon sends', () => {
    const matched = new Set(
      published.map(matchOf).flatMap((match) => ('message' in match ? [match.message] : [])),
    );
    const documented = Object.values(doc.operations)
      .filter((operation) => operation.action === 'send')
      .flatMap((operation) => {
        const channel = operation.channel.$ref.replace('#/channels/', '');
        return operation.messages.map((message) => {
          const ref = (pointer(message.$ref) as { $ref: string }).$ref;
          return `${channel}/${(pointer(ref) as { name: string }).name}`;
        });
      });
    expect([...new Set(documented)].filter((message) => !matched.has(message))).toEqual([]);
  });

  it('validated ok and error responses of the ops, and a refused unsigned request', () => {
    const responses = published
      .filter((p) => channelOf(p.topic)!.id === 'bridgeResponse')
      .map(
        (p) => ({ ...(JSON.parse(p.payload) as Json), op: channelOf(p.topic)!.params.op }) as Json,
      );
    const okOps = responses.filter((r) => r.status === 'ok').map((r) => r.op);
    // The others depend on where the simulated game is when they arrive.
    expect(okOps).toEqual(expect.arrayContaining(['health_check', 'new_shoe']));
    expect(responses.map((r) => r.code)).toEqual(
      expect.arrayContaining(['unsigned', 'bad_request', 'other_game', 'shoe_in_play']),
    );
    // Each echoes the transaction it was sent with (`<op>-<index>`).
    for (const response of responses) expect(response.transaction).toMatch(`${response.op}-`);
    const alarms = published
      .filter((p) => p.topic.endsWith('/events/alarm'))
      .map((p) => JSON.parse(p.payload) as Json);
    expect(alarms.map((a) => a.kind)).toContain('request_refused');
  });

  it('publishes with the retain and QoS flags of its operation', () => {
    for (const publication of published) {
      const id = channelOf(publication.topic)!.id;
      const operation = Object.values(doc.operations).find(
        (o) => o.action === 'send' && o.channel.$ref === `#/channels/${id}`,
      )!;
      expect({
        topic: publication.topic,
        qos: publication.qos,
        retain: publication.retain,
      }).toEqual({
        topic: publication.topic,
        qos: operation.bindings!.mqtt!.qos,
        retain: operation.bindings!.mqtt!.retain,
      });
    }
  });

  it('answers an MQTT 5 request on its Response Topic with its Correlation Data (the reply)', () => {
    expect(directAnswers).toHaveLength(1);
    const [answer] = directAnswers;
    const validate = payloadValidator('#/channels/bridgeResponse/messages/healthCheck');
    expect(validate(JSON.parse(answer!.payload)), ajv.errorsText(validate.errors)).toBe(true);
    const binding = dereference(pointer('#/components/messageBindings/response')) as {
      mqtt: { contentType: string };
    };
    expect(answer!.properties).toMatchObject({
      contentType: binding.mqtt.contentType,
      correlationData: Buffer.from('correlation-0'),
    });
  });

  it('sets no MQTT 5 property on MQTT 3.1.1', () => {
    expect(published311.length).toBeGreaterThan(50);
    expect(published311.filter((p) => p.properties !== undefined)).toEqual([]);
  });

  it('sets on MQTT 5 the properties the message bindings and headers name, and no others', () => {
    expect(publishedMqtt5.length).toBeGreaterThan(50);
    for (const publication of publishedMqtt5) {
      const match = matchOf(publication);
      if ('problem' in match) throw new Error(match.problem);
      const message = pointer(match.ref) as { bindings?: unknown; headers?: unknown };
      const binding = (dereference(message.bindings) as { mqtt?: Json } | undefined)?.mqtt;
      const expected: Json = {};
      if (binding?.contentType !== undefined) expected.contentType = binding.contentType;
      if (binding?.payloadFormatIndicator === 1) expected.payloadFormatIndicator = true;
      if (message.headers !== undefined) {
        expected.userProperties = { seq: String((match.payload as { seq: number }).seq) };
      }
      const actual = publication.properties ?? {};
      expect({ topic: publication.topic, ...actual }).toEqual({
        topic: publication.topic,
        ...expected,
      });
    }
  });
});
