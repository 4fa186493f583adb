/**
 * The drill of issue 17 at the LinkSession level: a 1.2 shoe deals at a
 * dealer's pace to a 1.2 host that PINGs it, over a line that corrupts the
 * shoe's frames, loses a few in both directions, is pulled (the shoe reopens
 * its end, sometimes more than once, into the dead line) and whose host
 * restarts; the host's journal makes cards durable a few milliseconds after
 * they arrive. Simulated time, no timers.
 */
import { RANKS, type StandardCard, SUITS } from '../../../device-protocol/cards.ts';
import { type LinkAction, type LinkOptions, LinkSession } from '../../../device-protocol/link.ts';
import type { CardMessage, HelloMessage } from '../../../device-protocol/messages.ts';
import { createRandom } from '../../../simulators/random.ts';

const helloOf = (talker: 'SH' | 'HO'): HelloMessage => ({
  type: 'HELLO',
  model: talker === 'SH' ? 'TS-SHOE-2' : 'tableside',
  serial: talker === 'SH' ? 'SH0042' : 'table-1',
  protocol: '1.2',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
});
const DECK: StandardCard[] = SUITS.flatMap((suit) =>
  RANKS.map((rank) => `${rank}${suit}` as const),
);
export const card = (index: number): CardMessage => ({
  type: 'CARD',
  card: DECK[index % DECK.length]!,
  back: index % 104 < 52 ? 'red' : 'blue',
  face: 'down',
});

export const cardKey = (message: { type: string }) => {
  const { card: code, back } = message as CardMessage;
  return `${code}/${back}`;
};

type Send = Extract<LinkAction, { kind: 'send' }>;
type Deliver = Extract<LinkAction, { kind: 'deliver' }>;
const sends = (actions: LinkAction[]) =>
  actions.filter((action): action is Send => action.kind === 'send');
const delivered = (actions: LinkAction[]) =>
  actions.filter((action): action is Deliver => action.kind === 'deliver');

export interface Drill {
  seed: number;
  cards: number;
  window: number;
  /** Share of the shoe's frames (not its ACKs) that arrive with one byte changed. */
  corrupt: number;
  /** Share of frames lost in either direction. */
  drop: number;
  pulls: number;
  hostRestarts: number;
}

export interface Outcome {
  /** Cards (code and back) in the order the host's journal stored them. */
  stored: string[];
  retransmitted: number;
  orderGaps: number;
}

const HOST: LinkOptions = { localTalker: 'HO', peerTalker: 'SH', deferAck: ['CARD'] };
const DEAL_EVERY_MS = 4;
const PING_EVERY_MS = 100;
const JOURNAL_DELAY_MS = 3;

/** Changes one byte between `$` and `*`, as the simulator's `corrupt-bytes` does. */
export function corrupt(line: string, random: () => number): string {
  const star = line.lastIndexOf('*');
  const at = 1 + Math.floor(random() * (star - 1));
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let replacement = alphabet[Math.floor(random() * alphabet.length)]!;
  if (replacement === line[at]) replacement = replacement === 'A' ? 'B' : 'A';
  return `${line.slice(0, at)}${replacement}${line.slice(at + 1)}`;
}

export function runDrill(drill: Drill): Outcome {
  const random = createRandom(drill.seed).float;
  const shoe = new LinkSession({
    localTalker: 'SH',
    peerTalker: 'HO',
    maxAttempts: 0,
    ackTimeoutMs: 300,
    backoffFactor: 1,
    maxInFlight: drill.window,
  });
  let host = new LinkSession(HOST);
  let orderGaps = 0;
  // What the journal stored; a card it already holds (same seq: the shoe keeps counting)
  // is ACKed again and not stored twice, as the daemon's ledger and restart dedupe do.
  const stored: string[] = [];
  const storedSeqs = new Set<number>();
  let journalQueue: Array<{ seq: number; at: number }> = [];

  type OnWire = { at: number; to: 'host' | 'shoe'; line: string };
  let wire: OnWire[] = [];
  let lineUp = true;
  const lastArrival = { host: 0, shoe: 0 };
  const put = (actions: LinkAction[], to: 'host' | 'shoe', now: number) => {
    if (!lineUp) return;
    for (const action of sends(actions)) {
      if (random() < drill.drop) continue;
      let line = action.line;
      if (to === 'host' && action.type !== 'ACK' && random() < drill.corrupt) {
        line = corrupt(line, random);
      }
      const at = Math.max(lastArrival[to], now + 1 + Math.floor(random() * 3));
      lastArrival[to] = at;
      wire.push({ at, to, line });
    }
  };
  const atHost = (actions: LinkAction[], now: number) => {
    for (const action of actions) {
      if (action.kind === 'discarded' && action.reason === 'order_gap') orderGaps++;
    }
    for (const action of delivered(actions)) {
      if (action.message.type !== 'CARD') continue;
      if (storedSeqs.has(action.seq)) {
        // A retransmission of a card already durable: ACKed again, not stored twice.
        journalQueue.push({ seq: action.seq, at: now });
        continue;
      }
      storedSeqs.add(action.seq);
      stored.push(cardKey(action.message));
      journalQueue.push({ seq: action.seq, at: now + JOURNAL_DELAY_MS });
    }
    put(actions, 'shoe', now);
  };

  // Outages at random moments of the deal; a pull lasts 50-400 ms, and the shoe
  // reopens its end into the dead line up to twice before it comes back.
  const dealTime = drill.cards * DEAL_EVERY_MS;
  const events = new Map<number, Array<'pull' | 'restart'>>();
  const at = (when: number, what: 'pull' | 'restart') =>
    events.set(when, [...(events.get(when) ?? []), what]);
  for (let pull = 0; pull < drill.pulls; pull++) at(1 + Math.floor(random() * dealTime), 'pull');
  for (let restart = 0; restart < drill.hostRestarts; restart++) {
    at(1 + Math.floor(random() * dealTime), 'restart');
  }
  let reopenAt: number | undefined;
  const deadReopens: number[] = [];

  put(host.send(helloOf('HO'), 0), 'shoe', 0);
  put(shoe.send(helloOf('SH'), 0), 'host', 0);
  let dealt = 0;
  let now = 1;
  for (; now < 600_000; now++) {
    for (const what of events.get(now) ?? []) {
      wire = [];
      if (what === 'restart') {
        host = new LinkSession(HOST);
        journalQueue = [];
        if (lineUp) put(host.send(helloOf('HO'), now), 'shoe', now);
      } else if (lineUp) {
        lineUp = false;
        reopenAt = now + 50 + Math.floor(random() * 350);
        for (let again = Math.floor(random() * 3); again > 0; again--) {
          deadReopens.push(now + 1 + Math.floor(random() * (reopenAt - now - 1)));
        }
      }
    }
    if (deadReopens.includes(now)) {
      // The shoe's end opened while the host's was still gone: HELLO into the void.
      shoe.send(helloOf('SH'), now);
      shoe.retransmitNow(now);
    }
    if (reopenAt === now) {
      reopenAt = undefined;
      lineUp = true;
      put([...shoe.send(helloOf('SH'), now), ...shoe.retransmitNow(now)], 'host', now);
      put([...host.send(helloOf('HO'), now), ...host.tick(now)], 'shoe', now);
    }
    if (dealt < drill.cards && now % DEAL_EVERY_MS === 0) {
      put(shoe.send(card(dealt), now), 'host', now);
      dealt++;
    }
    if (now % PING_EVERY_MS === 0)
      put(host.send({ type: 'PING', token: `P${now}` }, now), 'shoe', now);
    const due = wire.filter((frame) => frame.at <= now);
    wire = wire.filter((frame) => frame.at > now);
    for (const frame of due) {
      if (frame.to === 'host') atHost(host.receiveBytes(frame.line, now), now);
      else put(shoe.receiveBytes(frame.line, now), 'host', now);
    }
    const durable = journalQueue.filter((entry) => entry.at <= now);
    journalQueue = journalQueue.filter((entry) => entry.at > now);
    for (const entry of durable) put(host.ack(entry.seq, 'SH'), 'shoe', now);
    put(shoe.tick(now), 'host', now);
    put(host.tick(now), 'shoe', now);
    // A retransmission storm: the verdict is in, and simulating it on would take minutes.
    if (shoe.stats.retransmitted > 20 * drill.cards) break;
    const settled = shoe.pending.inFlight === 0 && shoe.pending.queued === 0;
    if (dealt === drill.cards && settled && reopenAt === undefined && now > dealTime) break;
  }
  return { stored, retransmitted: shoe.stats.retransmitted, orderGaps };
}
