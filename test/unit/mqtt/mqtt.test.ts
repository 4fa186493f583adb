import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF } from '../../../firmware-host/mqtt/backoff.ts';
import { findForbiddenKey, screenEvent } from '../../../firmware-host/mqtt/guard.ts';
import { parseRequest } from '../../../firmware-host/mqtt/requests.ts';
import { tableTopics } from '../../../firmware-host/mqtt/topics.ts';

describe('reconnect backoff', () => {
  const options = { initialMs: 500, maxMs: 30_000 };

  it('stays between half and all of an exponentially growing, capped step', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attempt, random) => {
          const step = Math.min(options.maxMs, options.initialMs * 2 ** attempt);
          const delay = backoffDelay(attempt, options, () => random);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(step / 2));
          expect(delay).toBeLessThanOrEqual(step);
        },
      ),
    );
  });

  it('doubles per attempt until the ceiling', () => {
    const fixed = () => 0.5;
    expect([0, 1, 2, 3, 10].map((attempt) => backoffDelay(attempt, options, fixed))).toEqual([
      375, 750, 1500, 3000, 22_500,
    ]);
  });

  it('waits at most 2 s by default before the next connect, however many failed before: a broker that is back is reached within it', () => {
    const top = () => 0.999_999;
    const delays = Array.from({ length: 40 }, (_, attempt) =>
      backoffDelay(attempt, DEFAULT_BACKOFF, top),
    );
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 2000]);
    expect(Math.max(...delays)).toBe(2000);
    // Not a loop against a broker still down: at the ceiling, never under half of it.
    expect(
      Math.min(...delays.slice(2).map((_, i) => backoffDelay(i + 2, DEFAULT_BACKOFF, () => 0))),
    ).toBe(1000);
  });
});

describe('topic map', () => {
  const topics = tableTopics('casino/floor-2', 'bac-07');

  it('places every topic under <base>/<table>', () => {
    expect(topics.bridgeState).toBe('casino/floor-2/bac-07/bridge/state');
    expect(topics.bridgeInfo).toBe('casino/floor-2/bac-07/bridge/info');
    expect(topics.state).toBe('casino/floor-2/bac-07/state');
    expect(topics.deviceAvailability('shoe')).toBe(
      'casino/floor-2/bac-07/devices/shoe/availability',
    );
    expect(topics.events('card')).toBe('casino/floor-2/bac-07/events/card');
    expect(topics.requestFilter).toBe('casino/floor-2/bac-07/bridge/request/+');
    expect(topics.response('new_round')).toBe('casino/floor-2/bac-07/bridge/response/new_round');
  });

  it('reads the op of a request topic and nothing else', () => {
    expect(topics.opOf(topics.request('void_hand'))).toBe('void_hand');
    expect(topics.opOf('casino/floor-2/bac-07/bridge/request/')).toBeUndefined();
    expect(topics.opOf('casino/floor-2/bac-08/bridge/request/void_hand')).toBeUndefined();
    expect(topics.opOf(topics.events('card'))).toBeUndefined();
  });
});

describe('requests', () => {
  it('accepts each op with its fields and keeps the transaction apart', () => {
    expect(parseRequest('player_action', '{"transaction":"a","box":2,"action":"hit"}')).toEqual({
      ok: true,
      request: { op: 'player_action', box: 2, action: 'hit' },
      transaction: 'a',
    });
    expect(parseRequest('health_check', '{}')).toEqual({
      ok: true,
      request: { op: 'health_check' },
      transaction: undefined,
    });
    expect(parseRequest('set_ruleset', '{"ruleset":"peru-triple-shot"}')).toMatchObject({
      ok: true,
    });
    expect(parseRequest('new_shoe', '{}')).toMatchObject({ ok: true });
  });

  it('names what is wrong and still echoes the transaction', () => {
    expect(parseRequest('void_hand', '{"transaction":7}')).toEqual({
      ok: false,
      error: expect.stringMatching(/^bad void_hand request: reason: /),
      transaction: 7,
    });
    expect(parseRequest('new_round', '{"boxes":[0]}')).toMatchObject({
      ok: false,
      error: expect.stringContaining('boxes.0'),
    });
    expect(parseRequest('explode', '{"transaction":"x"}')).toMatchObject({
      ok: false,
      transaction: 'x',
    });
    expect(parseRequest('new_round', '{')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not valid JSON'),
    });
    // Nothing is read into a payload that carries nothing: it is no request at all.
    for (const [text, named] of [
      ['', /^empty payload/],
      ['  \n\t ', /^blank payload/],
    ] as const) {
      expect(parseRequest('health_check', text)).toEqual({
        ok: false,
        error: expect.stringMatching(named),
        transaction: undefined,
      });
    }
  });
});

describe('publication guard', () => {
  it('finds an order key at any depth', () => {
    expect(findForbiddenKey({ a: [{ b: { order: [] } }] })).toBe('a[0].b.order');
    expect(findForbiddenKey({ orders: 1, sorted: true })).toBeUndefined();
    expect(findForbiddenKey([1, { x: [[{ order: 1 }]] }])).toBe('[1].x[0][0].order');
    expect(findForbiddenKey(Object.create({ order: 1 }))).toBeUndefined();
  });

  it('withholds an event carrying an order and hides a face-down card', () => {
    expect(
      screenEvent({ type: 'alarm', kind: 'shuffle_suspect', message: 'm', order: ['AS'] }),
    ).toEqual({
      publish: false,
      reason: expect.stringContaining('"order"'),
    });
    expect(screenEvent({ type: 'card', card: 'KD', to: 'dealer', face: 'down' })).toEqual({
      publish: true,
      event: { type: 'card', to: 'dealer', face: 'down', card: null, hidden: true },
    });
    expect(screenEvent({ type: 'card', card: 'KD', to: 'player', face: 'up' })).toEqual({
      publish: true,
      event: { type: 'card', card: 'KD', to: 'player', face: 'up' },
    });
  });
});

describe('bridge options from the config', () => {
  it('uses the embedded broker URL and drops credentials it cannot use', async () => {
    const { resolveConfig } = await import('../../../firmware-host/config/loader.ts');
    const { bridgeOptionsFromConfig, cursorPathFor } = await import(
      '../../../firmware-host/mqtt/from-config.ts'
    );
    const wiring = { journal: {} as never, cursor: {} as never, onRequest: () => undefined };
    const embedded = resolveConfig(
      { mqtt: { username: 'u', password: 'p' } },
      { cwd: '/srv' },
    ).config;
    expect(bridgeOptionsFromConfig(embedded, 'mqtt://127.0.0.1:1883', wiring)).toMatchObject({
      url: 'mqtt://127.0.0.1:1883',
      table: 'table-1',
      baseTopic: 'tableside',
      username: undefined,
      password: undefined,
    });
    expect(cursorPathFor(embedded)).toBe('/srv/.tableside/journal/mqtt-cursor.json');
    const remote = resolveConfig({
      mqtt: { url: 'mqtts://b:8883', username: 'u', password: 'p' },
    }).config;
    expect(bridgeOptionsFromConfig(remote, 'unused', wiring)).toMatchObject({
      url: 'mqtts://b:8883',
      username: 'u',
      password: 'p',
    });
  });
});

describe('the guard and the shuffler order', () => {
  it('publishes a sequence mismatch without the expected card, which may still be in the shoe', () => {
    const screened = screenEvent(
      {
        type: 'alarm',
        kind: 'sequence_mismatch',
        message: 'card 12 of the shuffled shoe is 8D; the shuffler reported 7H there',
        index: 11,
        position: 11,
        expected: '7H',
        seen: '8D',
      },
      { card: '8D', face: 'up' },
    );
    expect(screened.publish).toBe(true);
    const published = JSON.stringify(screened.publish ? screened.event : {});
    expect(published).not.toContain('7H');
    expect(published).toContain('8D');
    expect(screened).toMatchObject({
      event: { kind: 'sequence_mismatch', expected: null, seen: '8D', withheld: ['expected'] },
    });
  });
});

describe('the guard and alarms about face-down cards (issue 17)', () => {
  const wrongBack = {
    type: 'alarm',
    kind: 'wrong_back_colour',
    message: '7H has a green back; the deck in play is red',
    index: 40,
    card: '7H',
    back: 'green',
    expected: ['red'],
  } as const;

  it('withholds the value of a card that left the shoe face down, from every field and the message', () => {
    for (const exposure of [undefined, { card: '7H', face: 'down' } as const]) {
      const screened = screenEvent(wrongBack, exposure);
      const published = JSON.stringify(screened.publish ? screened.event : {});
      expect(screened.publish).toBe(true);
      expect(published).not.toContain('7H');
      expect(screened).toMatchObject({
        event: { kind: 'wrong_back_colour', card: null, hidden: true, withheld: ['card'] },
      });
    }
  });

  it('publishes the card of an alarm when its input dealt that card face up, and no other', () => {
    expect(screenEvent(wrongBack, { card: '7H', face: 'up' })).toEqual({
      publish: true,
      event: { ...wrongBack },
    });
    const other = screenEvent(
      { ...wrongBack, kind: 'card_after_shoe_end', message: '7H left the shoe after it ended' },
      { card: '9C', face: 'up' },
    );
    expect(JSON.stringify(other)).not.toContain('7H');
  });

  it('hides the seen card of a sequence mismatch when it was dealt face down', () => {
    const screened = screenEvent(
      {
        type: 'alarm',
        kind: 'sequence_mismatch',
        message: 'card 12 of the shuffled shoe is 8D; the shuffler reported 7H there',
        index: 11,
        position: 11,
        expected: '7H',
        seen: '8D',
      },
      { card: '8D', face: 'down' },
    );
    const published = JSON.stringify(screened.publish ? screened.event : {});
    expect(published).not.toMatch(/7H|8D/);
  });
});

describe('the guard and cards held out of turn', () => {
  it('publishes an unexpected card without its value: it is used as the next card, unexposed', () => {
    const screened = screenEvent({
      type: 'alarm',
      kind: 'unexpected_card',
      message: '2H left the shoe out of turn: box 1 is deciding (bet, fold)',
      index: 4,
      card: '2H',
    });
    const published = JSON.stringify(screened.publish ? screened.event : {});
    expect(screened.publish).toBe(true);
    expect(published).not.toContain('2H');
    expect(published).toContain('left the shoe out of turn');
  });
});
