import { describe, expect, it } from 'vitest';
import { isProtocolError } from '../../../device-protocol/errors.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type LinkAction, type LinkOptions, LinkSession } from '../../../device-protocol/link.ts';
import type { CardMessage, HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { createRandom } from '../../../simulators/random.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const HELLO: HelloMessage = shoeHello();
const card = (code: CardMessage['card']): CardMessage => ({
  type: 'CARD',
  card: code,
  back: 'red',
  face: 'down',
});

const sends = (actions: LinkAction[]) =>
  actions.filter(
    (action): action is Extract<LinkAction, { kind: 'send' }> => action.kind === 'send',
  );
const delivered = (actions: LinkAction[]) =>
  actions.filter(
    (action): action is Extract<LinkAction, { kind: 'deliver' }> => action.kind === 'deliver',
  );
const kinds = (actions: LinkAction[]) => actions.map((action) => action.kind);
const typesSent = (actions: LinkAction[]) => sends(actions).map((action) => action.type);

function host(options: Partial<LinkOptions> = {}): LinkSession {
  return new LinkSession({ localTalker: 'HO', peerTalker: 'SH', ...options });
}
function shoe(options: Partial<LinkOptions> = {}): LinkSession {
  return new LinkSession({ localTalker: 'SH', peerTalker: 'HO', ...options });
}

/** Feeds every `send` line of `actions` to `to`; returns what `to` did. */
function carry(actions: LinkAction[], to: LinkSession, now: number): LinkAction[] {
  return sends(actions).flatMap((action) => to.receiveBytes(action.line, now));
}

/** A shoe and a host that have exchanged HELLO and its ACK. */
function connected(hostOptions: Partial<LinkOptions> = {}, shoeOptions: Partial<LinkOptions> = {}) {
  const h = host(hostOptions);
  const s = shoe(shoeOptions);
  const toHost = s.send(HELLO, 0);
  const toShoe = carry(toHost, h, 0);
  carry(toShoe, s, 0);
  expect(s.helloAcknowledged).toBe(true);
  return { h, s };
}

/** Deterministic PRNG for lossy-channel runs (no Math.random in tests either). */
const seededFloats = (seed: number): (() => number) => createRandom(seed).float;

describe('link session: HELLO', () => {
  it('holds a device\u2019s events until the host has ACKed its HELLO', () => {
    const h = host();
    const s = shoe();
    const helloOut = s.send(HELLO, 0);
    expect(typesSent(helloOut)).toEqual(['HELLO']);
    expect(sends(s.send(card('AS'), 0))).toEqual([]);
    expect(s.pending).toEqual({ inFlight: 1, queued: 1 });
    const hostActions = carry(helloOut, h, 1);
    expect(kinds(hostActions)).toEqual(['send', 'deliver']);
    expect(h.peerHello()).toEqual(HELLO);
    const shoeActions = carry(hostActions, s, 2);
    expect(kinds(shoeActions)).toEqual(['acked', 'send']);
    expect(typesSent(shoeActions)).toEqual(['CARD']);
  });

  it('lets the host NAK events from a device it has not heard HELLO from, and the device recovers', () => {
    const { s } = connected();
    // The host restarts: a fresh session that never saw the HELLO.
    const restarted = host();
    const cardOut = s.send(card('KH'), 10);
    const refused = carry(cardOut, restarted, 10);
    expect(kinds(refused)).toEqual(['discarded', 'send']);
    expect(refused[0]).toMatchObject({ reason: 'hello_required' });
    expect(parseFrameLine(sends(refused)[0]!.line)).toMatchObject({
      frame: { type: 'NAK', fields: ['1', 'hello'] },
    });
    // The shoe answers with a new HELLO, then resends the card with its original seq.
    const again = carry(refused, s, 11);
    expect(typesSent(again)).toEqual(['HELLO']);
    expect(s.helloAcknowledged).toBe(false);
    const helloAck = carry(again, restarted, 12);
    const resent = carry(helloAck, s, 13);
    expect(sends(resent)).toMatchObject([{ type: 'CARD', seq: sends(cardOut)[0]!.seq }]);
    expect(delivered(carry(resent, restarted, 14)).map((action) => action.message)).toEqual([
      card('KH'),
    ]);
  });

  it('sends one new HELLO however many events the host refused', () => {
    const { s } = connected({}, { maxInFlight: 3 });
    const restarted = host();
    const out = [card('AS'), card('2S'), card('3S')].flatMap((message) => s.send(message, 0));
    const naks = carry(out, restarted, 1);
    expect(typesSent(naks)).toEqual(['NAK', 'NAK', 'NAK']);
    const answer = carry(naks, s, 2);
    expect(typesSent(answer)).toEqual(['HELLO']);
    const resent = carry(carry(answer, restarted, 3), s, 4);
    expect(typesSent(resent)).toEqual(['CARD', 'CARD', 'CARD']);
    const cards = delivered(carry(resent, restarted, 5)).map(
      (action) => (action.message as CardMessage).card,
    );
    expect(cards).toEqual(['AS', '2S', '3S']);
  });

  it('refuses events after the host reopened its line until a new HELLO, and a device whose HELLO went into the closed port sends it again at once', () => {
    const { h, s } = connected();
    // A card goes into a line that is being pulled: never read.
    const lost = s.send(card('KH'), 10);
    expect(typesSent(lost)).toEqual(['CARD']);
    // Both ends reopen. The device's HELLO is written before the host's port is open: lost too.
    h.lineReopened();
    expect(typesSent(s.send(HELLO, 100))).toEqual(['HELLO']);
    const resent = s.retransmitNow(100);
    expect(typesSent(resent)).toEqual(['CARD']);
    // The host reads the card but never saw the HELLO since it reopened: NAK hello.
    const refused = carry(resent, h, 101);
    expect(refused[0]).toMatchObject({ kind: 'discarded', reason: 'hello_required' });
    expect(typesSent(refused)).toEqual(['NAK']);
    // The device sends its HELLO again now, not after its ACK timeout (300 ms).
    const again = carry(refused, s, 102);
    expect(typesSent(again)).toEqual(['HELLO']);
    const card1 = carry(carry(again, h, 103), s, 104);
    expect(sends(card1)).toMatchObject([{ type: 'CARD', seq: sends(lost)[0]!.seq }]);
    expect(delivered(carry(card1, h, 105)).map((action) => action.message)).toEqual([card('KH')]);
  });

  it('takes events as before when the device said HELLO after the host reopened', () => {
    const { h, s } = connected();
    h.lineReopened();
    carry(carry(s.send(HELLO, 50), h, 50), s, 51);
    expect(delivered(carry(s.send(card('QS'), 52), h, 52)).map((a) => a.message)).toEqual([
      card('QS'),
    ]);
  });

  it('lets a device accept host commands without a host HELLO', () => {
    const s = shoe();
    const h = host();
    const actions = carry(h.send({ type: 'GATE', action: 'lock' }, 0), s, 0);
    expect(delivered(actions).map((action) => action.message)).toEqual([
      { type: 'GATE', action: 'lock' },
    ]);
    expect(typesSent(actions)).toEqual(['ACK']);
  });

  it('treats a repeated HELLO as a restart: it empties the duplicate window', () => {
    const { h } = connected();
    const first = shoe();
    carry(first.send(HELLO, 0), h, 0);
    const rebooted = shoe();
    const helloActions = carry(rebooted.send(HELLO, 0), h, 5);
    expect(delivered(helloActions)).toHaveLength(1);
  });
});

describe('link session: delivery', () => {
  it('ACKs every valid frame and delivers its message', () => {
    const { h, s } = connected();
    const actions = carry(s.send(card('AS'), 10), h, 10);
    expect(kinds(actions)).toEqual(['send', 'deliver']);
    expect(parseFrameLine(sends(actions)[0]!.line)).toMatchObject({
      frame: { type: 'ACK', fields: ['1'] },
    });
    expect(delivered(actions)[0]).toMatchObject({
      talker: 'SH',
      seq: 1,
      message: card('AS'),
      ack: 'sent',
    });
  });

  it('ACKs an unknown TYPE and reports it unsupported; ACKs a bad message and reports it invalid', () => {
    const { h, s } = connected();
    const unsupported = carry(s.sendRaw('FROB', ['1'], 10), h, 10);
    expect(kinds(unsupported)).toEqual(['send', 'unsupported']);
    carry(unsupported, s, 11);
    const invalid = carry(s.sendRaw('CARD', ['ZZ', 'red', 'up'], 12), h, 12);
    expect(kinds(invalid)).toEqual(['send', 'invalid']);
    expect(invalid[1]).toMatchObject({ error: expect.stringMatching(/card/) });
  });

  it('re-sends a lost frame after the timeout and delivers it once', () => {
    const { h, s } = connected({}, { ackTimeoutMs: 100, backoffFactor: 1 });
    s.send(card('AS'), 100); // lost on the wire
    expect(s.nextDeadline()).toBe(200);
    expect(sends(s.tick(199))).toEqual([]);
    const resent = s.tick(200);
    expect(sends(resent)).toMatchObject([{ type: 'CARD', attempt: 2 }]);
    const actions = carry(resent, h, 201);
    expect(delivered(actions)).toHaveLength(1);
    expect(kinds(carry(actions, s, 202))).toEqual(['acked']);
    expect(s.nextDeadline()).toBeUndefined();
  });

  it('ACKs a duplicate again when the first ACK was lost, but delivers it only once', () => {
    const { h, s } = connected({}, { ackTimeoutMs: 100 });
    const out = s.send(card('AS'), 0);
    expect(delivered(carry(out, h, 1))).toHaveLength(1); // its ACK is lost
    const resent = s.tick(100);
    const second = carry(resent, h, 101);
    expect(kinds(second)).toEqual(['send', 'discarded']);
    expect(second[1]).toMatchObject({ reason: 'duplicate', seq: 1 });
    expect(kinds(carry(second, s, 102))).toEqual(['acked']);
    expect(h.stats.duplicates).toBe(1);
  });

  it('delivers frames duplicated on the wire once each', () => {
    const { h, s } = connected();
    const out = s.send(card('AS'), 0);
    const line = sends(out)[0]!.line;
    const actions = [...h.receiveBytes(line + line + line, 1)];
    expect(delivered(actions)).toHaveLength(1);
    expect(typesSent(actions)).toEqual(['ACK', 'ACK', 'ACK']);
  });

  it('delivers reordered frames each once when several are in flight', () => {
    const { h, s } = connected({}, { maxInFlight: 4 });
    const out = [card('AS'), card('2S'), card('3S'), card('4S')].flatMap((message) =>
      s.send(message, 0),
    );
    const lines = sends(out).map((action) => action.line);
    expect(lines).toHaveLength(4);
    const shuffled = [lines[2]!, lines[0]!, lines[3]!, lines[1]!, lines[0]!];
    const actions = shuffled.flatMap((line) => h.receiveBytes(line, 1));
    expect(delivered(actions).map((action) => (action.message as CardMessage).card)).toEqual([
      '3S',
      'AS',
      '4S',
      '2S',
    ]);
    const acks = carry(actions, s, 2);
    expect(kinds(acks).filter((kind) => kind === 'acked')).toHaveLength(4);
    expect(s.pending).toEqual({ inFlight: 0, queued: 0 });
  });

  it('sends one event at a time by default, the next once the first is ACKed', () => {
    const { h, s } = connected();
    const out = [card('AS'), card('2S'), card('3S')].flatMap((message) => s.send(message, 0));
    expect(typesSent(out)).toEqual(['CARD']);
    expect(s.pending).toEqual({ inFlight: 1, queued: 2 });
    const next = carry(carry(out, h, 1), s, 2);
    expect(kinds(next)).toEqual(['acked', 'send']);
    // PING does not wait behind the queued events.
    expect(typesSent(s.send({ type: 'PING' }, 3))).toEqual(['PING']);
  });

  it('answers PING with PONG echoing the token', () => {
    const { h, s } = connected();
    const atShoe = carry(h.send({ type: 'PING', token: 'k7' }, 0), s, 0);
    expect(typesSent(atShoe)).toEqual(['ACK', 'PONG']);
    const atHost = carry(atShoe, h, 1);
    expect(delivered(atHost).map((action) => action.message)).toEqual([
      { type: 'PONG', token: 'k7' },
    ]);
  });

  it('discards frames from a talker other than its peer, and its own echo', () => {
    const { h } = connected();
    const shuffler = new LinkSession({ localTalker: 'SF' });
    const fromShuffler = carry(shuffler.send({ type: 'PING' }, 0), h, 0);
    expect(fromShuffler).toMatchObject([{ kind: 'discarded', reason: 'wrong_talker' }]);
    const echo = h.receiveBytes(sends(h.send({ type: 'PING' }, 0))[0]!.line, 0);
    expect(echo).toMatchObject([{ kind: 'discarded', reason: 'wrong_talker' }]);
  });
});

describe('link session: NAK and retransmission limit', () => {
  it('NAKs a frame with a bad CRC, naming its seq, and the sender resends at once', () => {
    const { h, s } = connected();
    const line = sends(s.send(card('KH'), 0))[0]!.line;
    const corrupted = line.replace('KH', 'KD');
    const hostActions = h.receiveBytes(corrupted, 1);
    expect(kinds(hostActions)).toEqual(['discarded', 'send']);
    expect(parseFrameLine(sends(hostActions)[0]!.line)).toMatchObject({
      frame: { type: 'NAK', fields: ['1', 'bad_crc'] },
    });
    const shoeActions = carry(hostActions, s, 2);
    expect(kinds(shoeActions)).toEqual(['nak_received', 'send']);
    expect(sends(shoeActions)[0]).toMatchObject({ line, attempt: 2 });
    expect(delivered(carry(shoeActions, h, 3))).toHaveLength(1);
  });

  it('NAKs malformed and over-long lines but not bare noise', () => {
    const h = host();
    expect(typesSent(h.receiveBytes('$SH,1,CARD\r\n', 0))).toEqual(['NAK']);
    expect(typesSent(h.receiveBytes(`$SH,2,${'x'.repeat(300)}\r\n`, 0))).toEqual(['NAK']);
    expect(typesSent(h.receiveBytes('line noise\r\n', 0))).toEqual([]);
    expect(h.stats.naksSent).toBe(2);
  });

  it('resends everything unacknowledged on a NAK without seq, and ignores a NAK for a seq it is not waiting for', () => {
    const { h, s } = connected({}, { maxInFlight: 3 });
    const lines = sends([card('AS'), card('2S')].flatMap((message) => s.send(message, 0)));
    expect(lines).toHaveLength(2);
    const nak = (fields: string[]) => encodeFrame({ talker: 'HO', seq: 99, type: 'NAK', fields });
    expect(typesSent(s.receiveBytes(nak(['', 'malformed']), 1))).toEqual(['CARD', 'CARD']);
    expect(typesSent(s.receiveBytes(nak(['500', 'bad_crc']), 2))).toEqual([]);
    void h;
  });

  it('gives up after maxAttempts transmissions with backoff and reports the failure', () => {
    const { s } = connected({}, { ackTimeoutMs: 100, backoffFactor: 2, maxAttempts: 4 });
    const all: LinkAction[] = [...s.send(card('AS'), 0)];
    const deadlines: number[] = [];
    for (let step = 0; step < 10; step++) {
      const deadline = s.nextDeadline();
      if (deadline === undefined) break;
      deadlines.push(deadline);
      all.push(...s.tick(deadline));
    }
    expect(deadlines).toEqual([100, 300, 700, 1500]);
    expect(sends(all).map((action) => action.attempt)).toEqual([1, 2, 3, 4]);
    expect(all.at(-1)).toEqual({
      kind: 'failed',
      seq: 1,
      type: 'CARD',
      reason: 'no_ack',
      attempts: 4,
    });
    expect(s.stats.failed).toBe(1);
  });

  it('retransmits forever with maxAttempts 0, each wait growing only up to maxAckTimeoutMs', () => {
    const { h, s } = connected(
      {},
      { ackTimeoutMs: 100, backoffFactor: 2, maxAttempts: 0, maxAckTimeoutMs: 1_000 },
    );
    const all: LinkAction[] = [...s.send(card('AS'), 0)];
    const waits: number[] = [];
    let last = 0;
    for (let step = 0; step < 300; step++) {
      const deadline = s.nextDeadline()!;
      waits.push(deadline - last);
      last = deadline;
      all.push(...s.tick(deadline));
    }
    expect(all.some((action) => action.kind === 'failed')).toBe(false);
    expect(sends(all)).toHaveLength(301);
    expect(waits.slice(0, 6)).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(Math.max(...waits)).toBe(1_000);
    // The host is still there: the 301st copy is delivered and ACKed like the first.
    const hostActions = carry(sends(all).slice(-1), h, last);
    expect(delivered(hostActions)).toHaveLength(1);
    expect(kinds(carry(hostActions, s, last))).toEqual(['acked']);
    expect(s.pending).toEqual({ inFlight: 0, queued: 0 });
  });

  it('retransmits every unacknowledged frame at once on retransmitNow, but not one just sent', () => {
    const { s } = connected({}, { ackTimeoutMs: 300, maxAttempts: 0 });
    const first = sends(s.send(card('AS'), 10));
    const ping = sends(s.send({ type: 'PING', token: 'p1' }, 20));
    // The line was down for a while; it reopens at 5000: HELLO first, then what was pending.
    const hello = sends(s.send(HELLO, 5_000));
    const again = sends(s.retransmitNow(5_000));
    expect(hello.map((action) => action.type)).toEqual(['HELLO']);
    expect(again.map((action) => [action.type, action.seq, action.attempt])).toEqual([
      ['CARD', first[0]!.seq, 2],
      ['PING', ping[0]!.seq, 2],
    ]);
    expect(again[0]!.line).toBe(first[0]!.line);
    // Their timers restarted: nothing is due before 5300.
    expect(s.nextDeadline()).toBe(5_300);
    expect(sends(s.retransmitNow(5_000))).toEqual([]);
  });

  it("sends its HELLO again on the host's HELLO only once the HELLO's ACK is overdue", () => {
    const hostHello: HelloMessage = { ...HELLO, model: 'TABLESIDE', serial: 'table' };
    const h = host();
    const s = shoe({ ackTimeoutMs: 300, maxAttempts: 0 });
    const ours = sends(s.send(HELLO, 0));
    // The two HELLOs cross on the wire: the host's arrives before its ACK of ours.
    const crossing = s.receiveBytes(sends(h.send(hostHello, 0))[0]!.line, 50);
    expect(typesSent(crossing)).toEqual(['ACK']);
    // Its timer still runs: unanswered at 300 ms, it goes again.
    expect(sends(s.tick(300)).map((action) => [action.type, action.seq])).toEqual([
      ['HELLO', ours[0]!.seq],
    ]);
    // A host that (re)opens after the HELLO's ACK was due gets it at once.
    const late = s.receiveBytes(sends(h.send(hostHello, 0))[0]!.line, 1_000);
    expect(typesSent(late)).toEqual(['ACK', 'HELLO']);
  });

  it('drops an unacknowledged HELLO when it sends a new one, so no stale HELLO reads as a restart', () => {
    const s = shoe({ maxAttempts: 0 });
    const old = sends(s.send(HELLO, 0));
    const fresh = sends(s.send(HELLO, 1_000));
    expect(fresh[0]!.seq).toBe(old[0]!.seq + 1);
    expect(s.pending).toEqual({ inFlight: 1, queued: 0 });
    expect(typesSent(s.retransmitNow(2_000))).toEqual(['HELLO']);
    expect(sends(s.tick(10_000)).map((action) => action.seq)).toEqual([fresh[0]!.seq]);
  });

  it('the host too drops its unacknowledged HELLO when it sends a new one after reopening its line', () => {
    const h = host({ maxAttempts: 0 });
    const hostHello: HelloMessage = { ...HELLO, model: 'tableside', serial: 'table-1' };
    const old = sends(h.send(hostHello, 0));
    h.lineReopened();
    const fresh = sends(h.send(hostHello, 1_000));
    expect(fresh[0]!.seq).not.toBe(old[0]!.seq);
    expect(h.pending).toEqual({ inFlight: 1, queued: 0 });
    // Only the new HELLO is ever sent again: the device never reads the old one as a restart.
    const again = [5_000, 10_000, 20_000].flatMap((at) => sends(h.tick(at)));
    expect(again.length).toBeGreaterThan(0);
    expect(new Set(again.map((action) => action.seq))).toEqual(new Set([fresh[0]!.seq]));
  });

  it('moves on to the next event after a failure', () => {
    const { s } = connected({}, { ackTimeoutMs: 10, maxAttempts: 1 });
    s.send(card('AS'), 0);
    s.send(card('2S'), 0);
    expect(kinds(s.tick(10))).toEqual(['failed', 'send']);
  });

  it('reports queue_full past maxQueued', () => {
    const { s } = connected({}, { maxQueued: 2 });
    s.send(card('AS'), 0); // in flight
    s.send(card('2S'), 0);
    s.send(card('3S'), 0);
    expect(s.send(card('4S'), 0)).toMatchObject([{ kind: 'failed', reason: 'queue_full' }]);
  });
});

describe('link session: sequence numbers', () => {
  it('numbers its frames with wrap from 65535 to 0', () => {
    const h = host({ initialSeq: 65534 });
    const seqs = [0, 1, 2].map(
      (index) => sends(h.send({ type: 'PING', token: `p${index}` }, 0))[0]!.seq,
    );
    expect(seqs).toEqual([65534, 65535, 0]);
  });

  it('delivers across the peer\u2019s wrap and still drops duplicates there', () => {
    const h = host();
    const s = shoe({ initialSeq: 65533, maxInFlight: 8 });
    carry(carry(s.send(HELLO, 0), h, 0), s, 0); // HELLO takes 65533
    const out = [card('AS'), card('2S'), card('3S'), card('4S')].flatMap((message) =>
      s.send(message, 1),
    );
    expect(sends(out).map((action) => action.seq)).toEqual([65534, 65535, 0, 1]);
    const lines = sends(out).map((action) => action.line);
    const actions = [...lines, lines[1]!, lines[2]!].flatMap((line) => h.receiveBytes(line, 2));
    expect(delivered(actions).map((action) => action.seq)).toEqual([65534, 65535, 0, 1]);
    expect(h.stats.duplicates).toBe(2);
  });

  it('forgets old seqs beyond its window, so a seq reused after the wrap is new', () => {
    const h = host({ dedupeWindow: 4 });
    const s = shoe({ initialSeq: 10 });
    carry(carry(s.send(HELLO, 0), h, 0), s, 0);
    const first = sends(s.send(card('AS'), 0))[0]!.line; // seq 11
    carry(h.receiveBytes(first, 0), s, 0);
    for (let index = 0; index < 6; index++) carry(carry(s.send({ type: 'PING' }, 0), h, 0), s, 0);
    // Seq 11 has left the window of 4: the same seq is delivered as new (as after 65536 frames).
    expect(delivered(h.receiveBytes(first, 1))).toHaveLength(1);
  });
});

describe('link session: deferred ACK', () => {
  it('ACKs a CARD only when the caller confirms it durable, dropping retransmissions meanwhile', () => {
    const { h, s } = connected({ deferAck: ['CARD'] }, { ackTimeoutMs: 100 });
    const out = s.send(card('AS'), 0);
    const first = carry(out, h, 1);
    expect(kinds(first)).toEqual(['deliver']);
    expect(first[0]).toMatchObject({ ack: 'deferred', seq: 1, talker: 'SH' });
    const whileWriting = carry(s.tick(100), h, 101);
    expect(whileWriting).toMatchObject([{ kind: 'discarded', reason: 'duplicate' }]);
    const acked = h.ack(1, 'SH');
    expect(typesSent(acked)).toEqual(['ACK']);
    expect(h.ack(1, 'SH')).toEqual([]);
    expect(kinds(carry(acked, s, 102))).toEqual(['acked']);
    // A late copy after the ACK is ACKed again, not delivered.
    expect(typesSent(h.receiveBytes(sends(out)[0]!.line, 103))).toEqual(['ACK']);
  });

  it('ACKs other types at once while CARD is deferred', () => {
    const { h, s } = connected({ deferAck: ['CARD'] });
    expect(typesSent(carry(s.send({ type: 'LID', state: 'open' }, 0), h, 0))).toEqual(['ACK']);
  });

  it('NAKs a rejected message and delivers its retransmission again', () => {
    const { h, s } = connected({ deferAck: ['CARD'] });
    const out = s.send(card('AS'), 0);
    carry(out, h, 0);
    const rejected = h.reject(1, 'rejected', 'SH');
    expect(parseFrameLine(sends(rejected)[0]!.line)).toMatchObject({
      frame: { type: 'NAK', fields: ['1', 'rejected'] },
    });
    const resent = carry(rejected, s, 1);
    expect(delivered(carry(resent, h, 2))).toMatchObject([{ seq: 1, ack: 'deferred' }]);
  });
});

describe('link session: deferred ACKs across a reconnect', () => {
  const frameLine = (seq: number, type: string, fields: string[]) =>
    encodeFrame({ talker: 'SH', seq, type, fields });
  const helloFields = [
    HELLO.model,
    HELLO.serial,
    HELLO.protocol,
    HELLO.firmware,
    HELLO.firmwareSha256,
  ];

  it('still ACKs a card stored after the device reconnected and said HELLO again', () => {
    const h = host({ deferAck: ['CARD'] });
    h.receiveBytes(frameLine(0, 'HELLO', helloFields), 0);
    expect(delivered(h.receiveBytes(frameLine(1, 'CARD', ['AS', 'red', 'down']), 1))).toHaveLength(
      1,
    );
    // The line drops before the journal is done; the device reconnects and keeps counting.
    h.receiveBytes(frameLine(2, 'HELLO', helloFields), 2);
    const acked = h.ack(1, 'SH');
    expect(sends(acked).map((send) => parseFrameLine(send.line))).toMatchObject([
      { frame: { type: 'ACK', fields: ['1'] } },
    ]);
    expect(h.ack(1, 'SH')).toEqual([]);
  });

  it('drops the ACKs it owed when the device restarted and counts from 0 again', () => {
    const h = host({ deferAck: ['CARD'] });
    h.receiveBytes(frameLine(400, 'HELLO', helloFields), 0);
    h.receiveBytes(frameLine(401, 'CARD', ['AS', 'red', 'down']), 1);
    h.receiveBytes(frameLine(0, 'HELLO', helloFields), 2);
    // Seq 401 is no frame of the restarted device: an ACK for it could only mislead.
    expect(h.ack(401, 'SH')).toEqual([]);
    // Its own new frames are delivered, not taken for duplicates.
    expect(delivered(h.receiveBytes(frameLine(1, 'CARD', ['KD', 'red', 'down']), 3))).toHaveLength(
      1,
    );
  });
});

describe('link session: options', () => {
  it('validates its options with clear errors', () => {
    const bad: Array<[object, RegExp]> = [
      [{ localTalker: 'XX' }, /localTalker/],
      [{ localTalker: 'HO', peerTalker: 'HO' }, /peerTalker/],
      [{ localTalker: 'HO', ackTimeoutMs: 0 }, /ackTimeoutMs/],
      [{ localTalker: 'HO', maxAttempts: -1 }, /maxAttempts/],
      [{ localTalker: 'HO', maxAttempts: 1.5 }, /maxAttempts/],
      [{ localTalker: 'HO', maxAckTimeoutMs: 0 }, /maxAckTimeoutMs/],
      [{ localTalker: 'HO', dedupeWindow: 40000 }, /dedupeWindow/],
      [{ localTalker: 'HO', deferAck: ['card'] }, /deferAck/],
      [{ localTalker: 'HO', typo: 1 }, /typo/],
    ];
    for (const [options, pattern] of bad) {
      try {
        new LinkSession(options as LinkOptions);
        expect.unreachable(`accepted ${JSON.stringify(options)}`);
      } catch (error) {
        expect(isProtocolError(error) && error.code === 'bad_options').toBe(true);
        expect((error as Error).message).toMatch(pattern);
      }
    }
    expect(host().options).toMatchObject({
      ackTimeoutMs: 500,
      maxAttempts: 5,
      maxInFlight: 1,
      dedupeWindow: 128,
    });
  });

  it('refuses to send ACK or NAK by hand and messages its talker may not send', () => {
    const h = host();
    for (const message of [
      { type: 'ACK', ackedSeq: 1 },
      { type: 'NAK', reason: 'x' },
      card('AS'),
    ] as Message[]) {
      expect(() => h.send(message, 0)).toThrow(/ACK|NAK|may not come from HO/);
    }
  });
});

describe('link session over a lossy line', () => {
  it.each([1, 2, 3, 4, 5])(
    'delivers every card once and in order with loss, duplication and corruption (seed %i)',
    (seed) => {
      const random = seededFloats(seed);
      const h = host({ deferAck: ['CARD'], ackTimeoutMs: 50, maxAttempts: 40 });
      const s = shoe({ ackTimeoutMs: 50, maxAttempts: 40 });
      const cards: CardMessage[] = Array.from({ length: 60 }, (_, index) =>
        card((['AS', '2H', '3D', '4C', 'TS', 'KH'] as const)[index % 6]!),
      );
      const received: CardMessage[] = [];
      const failures: LinkAction[] = [];
      let toHost: string[] = [];
      let toShoe: string[] = [];
      const mangle = (line: string): string[] => {
        const roll = random();
        if (roll < 0.15) return []; // lost
        if (roll < 0.25) return [line, line]; // duplicated
        if (roll < 0.32) {
          const at = 1 + Math.floor(random() * (line.length - 3));
          return [
            line.slice(0, at) +
              String.fromCharCode(line.charCodeAt(at) ^ 0x04) +
              line.slice(at + 1),
          ];
        }
        return [line];
      };
      const route = (actions: LinkAction[], from: 'host' | 'shoe') => {
        for (const action of actions) {
          if (action.kind === 'send')
            (from === 'shoe' ? toHost : toShoe).push(...mangle(action.line));
          if (action.kind === 'failed') failures.push(action);
          if (action.kind === 'deliver' && from === 'host' && action.message.type === 'CARD') {
            received.push(action.message);
            route(h.ack(action.seq, action.talker), 'host');
          }
        }
      };
      route(s.send(HELLO, 0), 'shoe');
      for (const message of cards) route(s.send(message, 0), 'shoe');
      for (let now = 1; now < 200_000 && received.length < cards.length; now += 10) {
        const forHost = toHost;
        const forShoe = toShoe;
        toHost = [];
        toShoe = [];
        for (const line of forHost) route(h.receiveBytes(line, now), 'host');
        for (const line of forShoe) route(s.receiveBytes(line, now), 'shoe');
        route(s.tick(now), 'shoe');
        route(h.tick(now), 'host');
      }
      expect(failures).toEqual([]);
      expect(received).toEqual(cards);
      // The line really was bad: the sessions had to retransmit, NAK and drop duplicates.
      expect(s.stats.retransmitted).toBeGreaterThan(5);
      expect(h.stats.naksSent + s.stats.naksSent).toBeGreaterThan(0);
      expect(h.stats.duplicates).toBeGreaterThan(0);
    },
  );
});
