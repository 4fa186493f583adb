/**
 * Protocol 1.2's in-order window (PROTOCOL.md § 3.8): a device may
 * have several events unacknowledged, and the host still delivers them in
 * the order they happened, whatever the line loses, corrupts, duplicates or
 * reorders.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RANKS, type StandardCard, SUITS } from '../../../device-protocol/cards.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type LinkAction, type LinkOptions, LinkSession } from '../../../device-protocol/link.ts';
import type { CardMessage, HelloMessage } from '../../../device-protocol/messages.ts';
import { createRandom } from '../../../simulators/random.ts';

const helloOf = (protocol: string, talker: 'SH' | 'HO' = 'SH'): HelloMessage => ({
  type: 'HELLO',
  model: talker === 'SH' ? 'TS-SHOE-2' : 'tableside',
  serial: talker === 'SH' ? 'SH0042' : 'table-1',
  protocol,
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
});
const DECK: StandardCard[] = SUITS.flatMap((suit) =>
  RANKS.map((rank) => `${rank}${suit}` as const),
);
const card = (index: number): CardMessage => ({
  type: 'CARD',
  card: DECK[index % DECK.length]!,
  back: 'red',
  face: 'down',
});

type Send = Extract<LinkAction, { kind: 'send' }>;
type Deliver = Extract<LinkAction, { kind: 'deliver' }>;
const sends = (actions: LinkAction[]) =>
  actions.filter((action): action is Send => action.kind === 'send');
const delivered = (actions: LinkAction[]) =>
  actions.filter((action): action is Deliver => action.kind === 'deliver');
const cardsOf = (actions: LinkAction[]) =>
  delivered(actions)
    .filter((action) => action.message.type === 'CARD')
    .map((action) => action.seq);

function host(options: Partial<LinkOptions> = {}): LinkSession {
  return new LinkSession({ localTalker: 'HO', peerTalker: 'SH', deferAck: ['CARD'], ...options });
}
function shoe(options: Partial<LinkOptions> = {}): LinkSession {
  return new LinkSession({
    localTalker: 'SH',
    peerTalker: 'HO',
    maxAttempts: 0,
    ackTimeoutMs: 300,
    backoffFactor: 1,
    maxInFlight: 8,
    ...options,
  });
}

/** Feeds every `send` line of `actions` to `to`; returns what `to` did. */
function carry(actions: LinkAction[], to: LinkSession, now: number): LinkAction[] {
  return sends(actions).flatMap((action) => to.receiveBytes(action.line, now));
}

/** ACKs every deferred delivery at once (the journal made it durable). */
function ackDeferred(h: LinkSession, actions: LinkAction[]): LinkAction[] {
  return delivered(actions)
    .filter((action) => action.ack === 'deferred')
    .flatMap((action) => h.ack(action.seq, action.talker));
}

/** A 1.2 shoe and host that exchanged both HELLOs, and one event so that slow start is over. */
function connected(shoeOptions: Partial<LinkOptions> = {}) {
  const h = host();
  const s = shoe(shoeOptions);
  carry(carry(s.send(helloOf('1.2'), 0), h, 0), s, 0);
  carry(carry(h.send(helloOf('1.2', 'HO'), 0), s, 0), h, 0);
  const first = carry(s.send(card(0), 0), h, 0);
  carry(ackDeferred(h, first), s, 0);
  expect(s.pending).toEqual({ inFlight: 0, queued: 0 });
  return { h, s };
}

describe('a 1.2 device', () => {
  it('numbers only its reliable frames: its ACK carries the next seq without taking it', () => {
    const { h, s } = connected();
    const atShoe = carry(h.send({ type: 'GATE', action: 'lock' }, 1), s, 1);
    const ack = sends(atShoe)[0]!;
    expect(ack.type).toBe('ACK');
    const next = sends(s.send(card(1), 2))[0]!;
    expect(next.type).toBe('CARD');
    expect(parseFrameLine(ack.line)).toMatchObject({ frame: { seq: next.seq } });
  });

  it('still numbers every frame when it announced 1.1, as 1.1 says', () => {
    const h = host();
    const s = shoe();
    carry(carry(s.send(helloOf('1.1'), 0), h, 0), s, 0);
    const ack = sends(carry(h.send({ type: 'GATE', action: 'lock' }, 1), s, 1))[0]!;
    const next = sends(s.send(card(1), 2))[0]!;
    expect(next.seq).toBe(ack.seq + 1);
  });

  it('keeps to one event in flight until the host has announced 1.2', () => {
    const h = host();
    const s = shoe();
    carry(carry(s.send(helloOf('1.2'), 0), h, 0), s, 0);
    const out = [1, 2, 3, 4].flatMap((index) => s.send(card(index), 1));
    expect(sends(out)).toHaveLength(1);
    // A 1.1 host: still one at a time after the first is ACKed.
    const atHost = carry(out, h, 2);
    carry(carry(h.send(helloOf('1.1', 'HO'), 3), s, 3), h, 3);
    const afterAck = carry(ackDeferred(h, atHost), s, 4);
    expect(sends(afterAck).filter((action) => action.type === 'CARD')).toHaveLength(1);
  });

  it('sends one event alone after its HELLO, then opens its window once an event is ACKed', () => {
    const h = host();
    const s = shoe();
    carry(carry(h.send(helloOf('1.2', 'HO'), 0), s, 0), h, 0);
    carry(carry(s.send(helloOf('1.2'), 0), h, 0), s, 0);
    const out = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].flatMap((index) => s.send(card(index), 1));
    expect(sends(out)).toHaveLength(1);
    const opened = carry(ackDeferred(h, carry(out, h, 2)), s, 2);
    // The window is 8: the next 8 go at once.
    expect(sends(opened).map((action) => action.type)).toEqual(Array(8).fill('CARD'));
  });

  it('after a reconnect sends its HELLO and only its oldest unacknowledged event, then the rest', () => {
    const { h, s } = connected();
    // The line dies: 8 cards go nowhere, 12 more wait in the queue.
    const lost = Array.from({ length: 20 }, (_, index) => s.send(card(index + 1), 10)).flat();
    expect(sends(lost)).toHaveLength(8);
    const reopened = [...s.send(helloOf('1.2'), 20), ...s.retransmitNow(20)];
    expect(sends(reopened).map((action) => action.type)).toEqual(['HELLO', 'CARD']);
    const all: LinkAction[] = [];
    let wire = reopened;
    for (let now = 21; wire.length > 0 && now < 100; now++) {
      const atHost = carry(wire, h, now);
      all.push(...atHost);
      wire = carry([...atHost, ...ackDeferred(h, atHost)], s, now);
    }
    expect(cardsOf(all)).toHaveLength(20);
    const seqs = cardsOf(all);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(s.pending).toEqual({ inFlight: 0, queued: 0 });
  });

  it('retransmits what it has unacknowledged at once when the host says HELLO (the host reopened the line)', () => {
    const { h, s } = connected();
    const lost = [1, 2, 3].flatMap((index) => s.send(card(index), 10));
    expect(sends(lost)).toHaveLength(3);
    const atShoe = carry(h.send(helloOf('1.2', 'HO'), 50), s, 50);
    expect(sends(atShoe).map((action) => action.type)).toEqual(['ACK', 'CARD', 'CARD', 'CARD']);
    expect(
      sends(atShoe)
        .slice(1)
        .map((action) => action.attempt),
    ).toEqual([2, 2, 2]);
  });
});

describe('a 1.2 device keeps its frames until the ones before them are ACKed', () => {
  it('keeps an ACKed card whose predecessor lost its ACK, and sends both again after its HELLO', () => {
    const { h, s } = connected();
    const [a, b] = sends([1, 2].flatMap((index) => s.send(card(index), 1)));
    const atHost = [...h.receiveBytes(a!.line, 2), ...h.receiveBytes(b!.line, 2)];
    const acks = sends(ackDeferred(h, atHost));
    // The ACK of the first card is lost on the way; the second arrives.
    expect(s.receiveBytes(acks[1]!.line, 3)).toMatchObject([{ kind: 'acked', seq: b!.seq }]);
    expect(s.pending.inFlight).toBe(2);
    // The line drops and reopens: HELLO, the first card alone (slow start), then the second.
    const reopened = [...s.send(helloOf('1.2'), 10), ...s.retransmitNow(10)];
    expect(sends(reopened).map((action) => action.seq)).toEqual([sends(reopened)[0]!.seq, a!.seq]);
    const hostSide = carry(reopened, h, 11);
    const opened = carry([...hostSide, ...ackDeferred(h, hostSide)], s, 12);
    expect(sends(opened).map((action) => action.seq)).toContain(b!.seq);
    const again = carry(opened, h, 13);
    carry(ackDeferred(h, again), s, 14);
    expect(s.pending).toEqual({ inFlight: 0, queued: 0 });
  });

  it('sends a PONG the restarted host ACKed before its HELLO again after the HELLO, so the order has no hole', () => {
    const { s } = connected();
    // The host dies with a card unACKed; the shoe answers the new host's PING first.
    const [pending] = sends(s.send(card(1), 1));
    const restarted = host();
    const pingAnswer = carry(restarted.send({ type: 'PING', token: 'p1' }, 5), s, 5);
    const pong = sends(pingAnswer).find((action) => action.type === 'PONG')!;
    expect(pong.seq).toBe(pending!.seq + 1);
    const atHost = carry([...pingAnswer, ...sends(s.tick(400))], restarted, 400);
    // The card is refused (no HELLO yet), the PONG taken and ACKed.
    const shoeSide = carry(atHost, s, 401);
    const delivered2: LinkAction[] = [];
    let wire = shoeSide;
    for (let now = 402; wire.length > 0 && now < 500; now++) {
      const hostActions = carry(wire, restarted, now);
      delivered2.push(...hostActions);
      wire = carry([...hostActions, ...ackDeferred(restarted, hostActions)], s, now);
    }
    expect(cardsOf(delivered2)).toEqual([pending!.seq]);
    const later = sends(s.send(card(2), 600));
    const more = carry(later, restarted, 600);
    expect(cardsOf(more)).toEqual([later[0]!.seq]);
    expect(restarted.stats.discarded.order_gap).toBe(0);
  });
});

describe('the host, with a 1.2 device', () => {
  it('holds an event that arrives past a corrupted one, NAKs it once, and delivers them in order', () => {
    const { h, s } = connected();
    const lines = sends([1, 2, 3, 4].flatMap((index) => s.send(card(index), 1)));
    expect(lines).toHaveLength(4);
    const [first, second, third, fourth] = lines as [Send, Send, Send, Send];
    // The second frame is corrupted on the wire.
    const corrupted = second.line.replace(/CARD,../, 'CARD,XX');
    const actions = [
      ...h.receiveBytes(first.line, 2),
      ...h.receiveBytes(corrupted, 2),
      ...h.receiveBytes(third.line, 2),
      ...h.receiveBytes(fourth.line, 2),
    ];
    expect(cardsOf(actions)).toEqual([first.seq]);
    expect(actions.filter((action) => action.kind === 'discarded').map((a) => a.reason)).toEqual([
      'bad_crc',
      'held',
      'held',
    ]);
    const naks = sends(actions)
      .filter((action) => action.type === 'NAK')
      .map((action) => parseFrameLine(action.line));
    // The bad_crc NAK already asks for it: no second NAK `missing`.
    expect(naks.map((nak) => (nak.kind === 'frame' ? nak.frame.fields : []))).toEqual([
      [String(second.seq), 'bad_crc'],
    ]);
    // Held events are not ACKed: nothing but the first card's ACK is owed yet.
    expect(h.ack(third.seq)).toEqual([]);
    const filled = h.receiveBytes(second.line, 3);
    expect(cardsOf(filled)).toEqual([second.seq, third.seq, fourth.seq]);
    expect(h.stats.discarded.held).toBe(2);
  });

  it('NAKs a lost event `missing` once, however many arrive after it, and the device resends it at once', () => {
    const { h, s } = connected();
    const [first, lost, ...rest] = sends(
      [1, 2, 3, 4, 5].flatMap((index) => s.send(card(index), 1)),
    );
    const atHost = [first!, ...rest].flatMap((line) => h.receiveBytes(line.line, 2));
    const naks = sends(atHost).filter((action) => action.type === 'NAK');
    expect(naks).toHaveLength(1);
    expect(parseFrameLine(naks[0]!.line)).toMatchObject({
      frame: { fields: [String(lost!.seq), 'missing'] },
    });
    const resent = s.receiveBytes(naks[0]!.line, 3);
    expect(sends(resent)).toMatchObject([{ seq: lost!.seq, attempt: 2 }]);
    expect(cardsOf(carry(resent, h, 4))).toEqual([lost!.seq, ...rest.map((line) => line.seq)]);
  });

  it('drops a second copy of a held event without ACKing it, and asks again for the missing one', () => {
    const { h, s } = connected();
    const [first, second, third] = sends([1, 2, 3].flatMap((index) => s.send(card(index), 1)));
    expect(cardsOf(h.receiveBytes(first!.line, 2))).toEqual([first!.seq]);
    expect(h.receiveBytes(third!.line, 2)).toMatchObject([
      { kind: 'discarded', reason: 'held' },
      { kind: 'send', type: 'NAK' },
    ]);
    const soon = h.receiveBytes(third!.line, 3);
    expect(soon).toMatchObject([{ kind: 'discarded', reason: 'duplicate' }]);
    // A copy after the ACK timeout: the first NAK `missing` may have been lost.
    const again = h.receiveBytes(third!.line, 600);
    expect(again[0]).toMatchObject({ kind: 'discarded', reason: 'duplicate' });
    expect(sends(again).map((action) => parseFrameLine(action.line))).toMatchObject([
      { frame: { type: 'NAK', fields: [String(second!.seq), 'missing'] } },
    ]);
    expect(cardsOf(h.receiveBytes(second!.line, 4))).toEqual([second!.seq, third!.seq]);
  });

  it('delivers a PONG ahead of a missing event at once, and the order then skips it', () => {
    const { h, s } = connected();
    const [lostCard] = sends(s.send(card(1), 1)) as Send[];
    const pongActions = carry(h.send({ type: 'PING', token: 'k1' }, 2), s, 2);
    const pong = sends(pongActions).find((action) => action.type === 'PONG')!;
    expect(pong.seq).toBe(lostCard!.seq + 1);
    const nextCard = sends(s.send(card(2), 3))[0]!;
    const atHost = [...h.receiveBytes(pong.line, 4), ...h.receiveBytes(nextCard.line, 4)];
    expect(delivered(atHost).map((action) => action.message.type)).toEqual(['PONG']);
    const filled = h.receiveBytes(lostCard!.line, 5);
    expect(cardsOf(filled)).toEqual([lostCard!.seq, nextCard.seq]);
  });

  it('stops waiting for a seq that never comes once a frame is far past it, and says so', () => {
    const { h, s } = connected();
    const [first, , third] = sends([1, 2, 3].flatMap((index) => s.send(card(index), 1)));
    expect(cardsOf(h.receiveBytes(third!.line, 2))).toEqual([]);
    // A broken device jumps its seqs far ahead of the one it never sent.
    const jumped = encodeFrame({
      talker: 'SH',
      seq: third!.seq + 100,
      type: 'CARD',
      fields: ['9H', 'red', 'down'],
    });
    const actions = h.receiveBytes(jumped, 3);
    expect(actions[0]).toMatchObject({
      kind: 'discarded',
      reason: 'order_gap',
      seq: first!.seq,
    });
    expect(cardsOf(actions)).toEqual([third!.seq, third!.seq + 100]);
    expect(h.stats.discarded.order_gap).toBe(1);
  });

  it('takes a 1.1 device\u2019s window as it comes, as 1.1 promises nothing more', () => {
    const h = host();
    const s = shoe({ maxInFlight: 4 });
    carry(carry(s.send(helloOf('1.1'), 0), h, 0), s, 0);
    const lines = sends([1, 2, 3].flatMap((index) => s.send(card(index), 1)));
    expect(lines).toHaveLength(3);
    const actions = [lines[2]!, lines[0]!, lines[1]!].flatMap((line) =>
      h.receiveBytes(line.line, 2),
    );
    expect(cardsOf(actions)).toEqual([lines[2]!.seq, lines[0]!.seq, lines[1]!.seq]);
  });
});

interface LineFaults {
  drop: number;
  corrupt: number;
  duplicate: number;
  /**
   * Extra delay up to this many ms. The line stays FIFO, as serial, USB and
   * TCP are: frames overtake one another only by loss and retransmission.
   */
  jitterMs: number;
}

/**
 * A shoe deals `count` cards over a faulty line in both directions; the host
 * ACKs each card once it is delivered (a journal that is instantly durable).
 * Returns the card seqs in the order the host delivered them.
 */
function dealOverFaultyLine(
  seed: number,
  count: number,
  window: number,
  faults: LineFaults,
  outages: { lineDrops: number; hostRestarts: number } = { lineDrops: 0, hostRestarts: 0 },
): { order: number[]; sent: number[] } {
  const random = createRandom(seed).float;
  let h = host();
  const s = shoe({ maxInFlight: window });
  type InFlight = { at: number; to: 'host' | 'shoe'; line: string };
  let wire: InFlight[] = [];
  const lastArrival = { host: 0, shoe: 0 };
  const put = (actions: LinkAction[], to: 'host' | 'shoe', now: number) => {
    for (const action of sends(actions)) {
      if (random() < faults.drop) continue;
      const copies = random() < faults.duplicate ? 2 : 1;
      for (let copy = 0; copy < copies; copy++) {
        let line = action.line;
        if (random() < faults.corrupt) {
          const at = 1 + Math.floor(random() * (line.length - 3));
          line = `${line.slice(0, at)}${line[at] === 'Z' ? 'Y' : 'Z'}${line.slice(at + 1)}`;
        }
        const at = Math.max(lastArrival[to], now + 1 + Math.floor(random() * faults.jitterMs));
        lastArrival[to] = at;
        wire.push({ at, to, line });
      }
    }
  };
  // The host's journal: a card it already stored (same seq) is ACKed again, not stored
  // twice, as the daemon's ledger and restart dedupe do.
  const order: number[] = [];
  const stored = new Set<number>();
  const sent: number[] = [];
  const atHost = (actions: LinkAction[], now: number) => {
    for (const seq of cardsOf(actions)) {
      if (stored.has(seq)) continue;
      stored.add(seq);
      order.push(seq);
    }
    put([...actions, ...ackDeferred(h, actions)], 'shoe', now);
  };
  const outageAt = new Map<number, 'line' | 'host'>();
  for (let drop = 0; drop < outages.lineDrops; drop++) {
    outageAt.set(1 + Math.floor(random() * 3_000), 'line');
  }
  for (let restart = 0; restart < outages.hostRestarts; restart++) {
    outageAt.set(1 + Math.floor(random() * 3_000), 'host');
  }
  put(h.send(helloOf('1.2', 'HO'), 0), 'shoe', 0);
  put(s.send(helloOf('1.2'), 0), 'host', 0);
  for (let index = 0; index < count; index++) {
    const actions = s.send(card(index), 0);
    put(actions, 'host', 0);
  }
  for (let now = 1; now < 600_000; now++) {
    const outage = outageAt.get(now);
    if (outage !== undefined) {
      // Whatever was on the wire is gone.
      wire = [];
      if (outage === 'host') {
        h = host();
        put(h.send(helloOf('1.2', 'HO'), now), 'shoe', now);
      } else {
        put([...s.send(helloOf('1.2'), now), ...s.retransmitNow(now)], 'host', now);
        put(h.send(helloOf('1.2', 'HO'), now), 'shoe', now);
      }
    }
    const due = wire.filter((frame) => frame.at <= now);
    wire = wire.filter((frame) => frame.at > now);
    for (const frame of due) {
      if (frame.to === 'host') atHost(h.receiveBytes(frame.line, now), now);
      else put(s.receiveBytes(frame.line, now), 'host', now);
    }
    put(s.tick(now), 'host', now);
    put(h.tick(now), 'shoe', now);
    if (order.length >= count && s.pending.inFlight === 0 && s.pending.queued === 0) break;
  }
  // Seqs the shoe gave its cards: 1 (after HELLO 0) on, one each.
  for (let index = 0; index < count; index++) sent.push(index + 1);
  return { order, sent };
}

describe('a window over a faulty line', () => {
  it('delivers every card exactly once and in the order dealt, whatever the line does (seeded)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(2, 8, 16, 32),
        fc.record({
          drop: fc.double({ min: 0, max: 0.2, noNaN: true }),
          corrupt: fc.double({ min: 0, max: 0.15, noNaN: true }),
          duplicate: fc.double({ min: 0, max: 0.2, noNaN: true }),
          jitterMs: fc.integer({ min: 1, max: 20 }),
        }),
        (seed, window, faults) => {
          const { order, sent } = dealOverFaultyLine(seed, 120, window, faults);
          expect(order).toEqual(sent);
        },
      ),
      { numRuns: 40, seed: 1202 },
    );
  });

  it('stores every card once and in order across line drops and host restarts (seeded)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom(4, 16, 32),
        fc.record({
          drop: fc.double({ min: 0, max: 0.1, noNaN: true }),
          corrupt: fc.double({ min: 0, max: 0.1, noNaN: true }),
          duplicate: fc.double({ min: 0, max: 0.1, noNaN: true }),
          jitterMs: fc.integer({ min: 1, max: 10 }),
        }),
        fc.record({
          lineDrops: fc.integer({ min: 0, max: 4 }),
          hostRestarts: fc.integer({ min: 0, max: 3 }),
        }),
        (seed, window, faults, outages) => {
          const { order, sent } = dealOverFaultyLine(seed, 150, window, faults, outages);
          expect(order).toEqual(sent);
        },
      ),
      { numRuns: 40, seed: 1203 },
    );
  });

  it('the same line with a 1.1 window (no ordering) does reorder cards: the hazard 1.2 removes', () => {
    // Not a property: one seeded run that shows what the ordering is for.
    const random = createRandom(7).float;
    const h = host();
    const s = shoe({ maxInFlight: 8 });
    carry(carry(s.send(helloOf('1.1'), 0), h, 0), s, 0);
    const lines = sends([0, 1, 2, 3, 4, 5, 6, 7].flatMap((index) => s.send(card(index), 1)));
    const shuffled = [...lines].sort(() => random() - 0.5);
    const order = cardsOf(shuffled.flatMap((line) => h.receiveBytes(line.line, 2)));
    expect(order).not.toEqual([...order].sort((a, b) => a - b));
    // With 1.2 on both sides the same shuffle is delivered in order.
    const { h: h2, s: s2 } = connected();
    const lines2 = sends([0, 1, 2, 3, 4, 5, 6, 7].flatMap((index) => s2.send(card(index), 1)));
    const order2 = cardsOf(
      lines2
        .map((line, index) => ({ line, key: shuffled.indexOf(lines[index]!) }))
        .sort((a, b) => a.key - b.key)
        .flatMap(({ line }) => h2.receiveBytes(line.line, 2)),
    );
    expect(order2).toEqual([...order2].sort((a, b) => a - b));
    expect(order2).toHaveLength(8);
  });
});
