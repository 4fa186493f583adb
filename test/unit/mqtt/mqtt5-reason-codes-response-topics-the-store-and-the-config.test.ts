import { describe, expect, it } from 'vitest';
import { isConfigError } from '../../../firmware-host/config/errors.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { bridgeOptionsFromConfig } from '../../../firmware-host/mqtt/from-config.ts';
import { JournalBackedStore } from '../../../firmware-host/mqtt/journal-backed-store.ts';
import {
  eventProperties,
  responseProperties,
  responseTopicProblem,
} from '../../../firmware-host/mqtt/properties.ts';
import {
  describeReason,
  isFailure,
  refusesProtocolVersion,
} from '../../../firmware-host/mqtt/reason-codes.ts';

describe('reason codes by name', () => {
  it('names MQTT 5 codes per packet (OASIS MQTT 5.0 § 2.4)', () => {
    expect(describeReason('CONNACK', 0x00, 5)).toBe('CONNACK 0x00 Success');
    expect(describeReason('CONNACK', 0x84, 5)).toBe('CONNACK 0x84 Unsupported Protocol Version');
    expect(describeReason('CONNACK', 0x86, 5)).toBe('CONNACK 0x86 Bad User Name or Password');
    expect(describeReason('PUBACK', 0x87, 5)).toBe('PUBACK 0x87 Not authorized');
    expect(describeReason('PUBACK', 0x97, 5)).toBe('PUBACK 0x97 Quota exceeded');
    expect(describeReason('SUBACK', 0x01, 5)).toBe('SUBACK 0x01 Granted QoS 1');
    expect(describeReason('SUBACK', 0x8f, 5)).toBe('SUBACK 0x8f Topic Filter invalid');
    expect(describeReason('DISCONNECT', 0x8e, 5)).toBe('DISCONNECT 0x8e Session taken over');
    expect(describeReason('DISCONNECT', 0x42, 5)).toBe('DISCONNECT 0x42 unknown code');
  });

  it('reads a CONNACK below 0x80 as an MQTT 3.1.1 return code (§ 3.2.2.3)', () => {
    expect(describeReason('CONNACK', 0x01, 5)).toBe('CONNACK 0x01 unacceptable protocol version');
    expect(describeReason('CONNACK', 0x05, 4)).toBe('CONNACK 0x05 not authorized');
    expect(describeReason('SUBACK', 0x80, 4)).toBe('SUBACK 0x80 Unspecified error');
    expect(refusesProtocolVersion(0x01)).toBe(true);
    expect(refusesProtocolVersion(0x84)).toBe(true);
    expect(refusesProtocolVersion(0x87)).toBe(false);
  });

  it('counts "No matching subscribers" as a success and 0x80 up as failures', () => {
    expect(isFailure(0x10)).toBe(false);
    expect(isFailure(0x00)).toBe(false);
    expect(isFailure(undefined)).toBe(false);
    expect(isFailure(0x80)).toBe(true);
    expect(isFailure(0x87)).toBe(true);
  });
});

describe('MQTT 5 properties', () => {
  it('gives an event its content type, UTF-8 indicator and seq', () => {
    expect(eventProperties(42)).toEqual({
      contentType: 'application/json',
      payloadFormatIndicator: true,
      userProperties: { seq: '42' },
    });
    expect(responseProperties(Buffer.from('c'))).toEqual({
      contentType: 'application/json',
      payloadFormatIndicator: true,
      correlationData: Buffer.from('c'),
    });
    expect(responseProperties()).not.toHaveProperty('correlationData');
  });

  it('refuses response topics it must not publish to, naming why', () => {
    const root = 'tableside/t1';
    expect(responseTopicProblem('replies/pit-3', root)).toBeUndefined();
    expect(responseTopicProblem('tableside/t2/replies', root)).toBeUndefined();
    expect(responseTopicProblem('tableside/t10/x', root)).toBeUndefined();
    expect(responseTopicProblem('', root)).toMatch(/empty/);
    expect(responseTopicProblem('replies/+', root)).toMatch(/wildcard/);
    expect(responseTopicProblem('replies/#', root)).toMatch(/wildcard/);
    expect(responseTopicProblem('$SYS/x', root)).toMatch(/reserved/);
    expect(responseTopicProblem('a\u0000b', root)).toMatch(/NUL/);
    expect(responseTopicProblem('tableside/t1', root)).toMatch(/table's own topics/);
    expect(responseTopicProblem('tableside/t1/bridge/state', root)).toMatch(/table's own topics/);
    expect(responseTopicProblem('x'.repeat(70_000), root)).toMatch(/65,535/);
  });
});

describe('the journal-backed store', () => {
  it('keeps nothing, acknowledges every put and delete, and has nothing to resend', async () => {
    const store = new JournalBackedStore();
    const packet = { cmd: 'publish', messageId: 7, topic: 't', payload: 'p', qos: 1 } as const;
    const put = await new Promise<unknown>((resolve) => store.put(packet as never, resolve));
    expect(put).toBeUndefined();
    const got = await new Promise<unknown>((resolve) => store.get({ messageId: 7 }, resolve));
    expect(got).toBeInstanceOf(Error);
    const deleted = await new Promise<unknown[]>((resolve) =>
      store.del({ messageId: 7 }, (...args) => resolve(args)),
    );
    expect(deleted).toEqual([undefined, { messageId: 7 }]);
    const resent: unknown[] = [];
    for await (const item of store.createStream()) resent.push(item);
    expect(resent).toEqual([]);
  });
});

describe('the MQTT 5 config keys', () => {
  const issuesOf = (raw: unknown, env = {}) => {
    try {
      resolveConfig(raw, { env });
    } catch (error) {
      if (isConfigError(error)) return error.issues.map((i) => `${i.path}: ${i.message}`);
      throw error;
    }
    return [];
  };

  it('defaults to 3.1.1, with a session expiry and a will delay for when 5 is chosen', () => {
    const { config } = resolveConfig({});
    expect(config.mqtt).toMatchObject({
      protocolVersion: 4,
      sessionExpirySeconds: 300,
      willDelaySeconds: 10,
    });
  });

  it('refuses MQTT 5 with the embedded broker, naming the key and the way out', () => {
    expect(issuesOf({ mqtt: { protocolVersion: 5 } })).toEqual([
      'mqtt.protocolVersion: the embedded broker (aedes) speaks MQTT 3.1.1 only: set protocolVersion to 4, or set url to an MQTT 5 broker such as mosquitto 2',
    ]);
    // The broker URL may come from the environment.
    expect(
      issuesOf({ mqtt: { protocolVersion: 5 } }, { TABLESIDE_MQTT_URL: 'mqtt://broker:1883' }),
    ).toEqual([]);
  });

  it('refuses a will delay longer than the session, and other versions', () => {
    expect(
      issuesOf({
        mqtt: {
          url: 'mqtt://b:1883',
          protocolVersion: 5,
          sessionExpirySeconds: 5,
          willDelaySeconds: 30,
        },
      }),
    ).toEqual([
      'mqtt.willDelaySeconds: expected at most sessionExpirySeconds (5): the broker publishes the will when the session ends, whichever comes first',
    ]);
    expect(issuesOf({ mqtt: { url: 'mqtt://b:1883', protocolVersion: 3 } })).toEqual([
      expect.stringMatching(/^mqtt\.protocolVersion: /),
    ]);
    expect(issuesOf({ mqtt: { url: 'mqtt://b:1883', sessionExpirySeconds: -1 } })).toEqual([
      expect.stringMatching(/^mqtt\.sessionExpirySeconds: /),
    ]);
  });

  it('hands the keys to the bridge', () => {
    const { config } = resolveConfig({
      mqtt: {
        url: 'mqtt://b:1883',
        protocolVersion: 5,
        sessionExpirySeconds: 900,
        willDelaySeconds: 20,
      },
    });
    const wiring = { journal: {} as never, cursor: {} as never, onRequest: () => undefined };
    expect(bridgeOptionsFromConfig(config, 'unused', wiring)).toMatchObject({
      protocolVersion: 5,
      sessionExpirySeconds: 900,
      willDelaySeconds: 20,
    });
  });
});
