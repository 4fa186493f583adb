// The daemon's pure work for one card, without its I/O: the host's link
// session takes the shoe's CARD frame (a deferred ACK, as the daemon's), the
// table session validates it and derives its events, the journal encodes and
// hashes the input and every event into its chain, and each event is
// serialised as the bridge publishes it. The wake-penalty lane times exactly
// this, back to back and after a pause, in a process with the unit's flags.
//
// Plain JavaScript taking its modules as arguments, like relay-cards.mjs: the
// child (wake-penalty-child.mjs) passes dist/'s, the unit test the sources'.
// Its types are in card-work.d.mts. The relay's work is relay-cards.mjs
// itself, on a transport and a publisher that only keep what they are given.
import { EventEmitter } from 'node:events';
import { relayCards } from './relay-cards.mjs';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
const SUITS = ['S', 'H', 'D', 'C'];
const DECKS = 8;
/** Cards dealt from each shoe before the next shuffle: short of the cut card, so no shoe ends. */
const CARDS_PER_SHOE = 300;
const GENESIS = '0'.repeat(64);

/** A seeded shuffle (xorshift32): every run deals the same shoes. */
function shuffledShoe(seed) {
  const cards = [];
  for (let deck = 0; deck < DECKS; deck++)
    for (const suit of SUITS) for (const rank of RANKS) cards.push(`${rank}${suit}`);
  let state = seed >>> 0 || 1;
  for (let index = cards.length - 1; index > 0; index--) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const other = (state >>> 0) % (index + 1);
    [cards[index], cards[other]] = [cards[other], cards[index]];
  }
  return cards;
}

export function makeCardWork({
  LinkSession,
  TableSession,
  encodeRecord,
  hashLine,
  eventPayload,
  protocol,
  ruleset,
  relay = false,
}) {
  const host = new LinkSession({
    localTalker: 'HO',
    peerTalker: 'SH',
    ...(relay ? {} : { deferAck: ['CARD'] }),
  });
  const shoe = new LinkSession({ localTalker: 'SH', peerTalker: 'HO' });
  const table = TableSession.forRuleset(ruleset, { autoRound: true });
  let seq = 0;
  let prev = GENESIS;
  let shoes = 0;
  let cards = [];
  let clock = 0;
  const counts = { cards: 0, events: 0, bytes: 0 };

  // The shoe's HELLO, ACKed: a device sends its events only after that.
  const exchange = (from, to, actions) => {
    for (const action of actions)
      if (action.kind === 'send') exchange(to, from, to.receiveBytes(action.line, clock));
  };
  exchange(
    shoe,
    host,
    shoe.send(
      {
        type: 'HELLO',
        model: 'TS-SHOE-2',
        serial: 'BENCH1',
        protocol,
        firmware: '1.0.0',
        firmwareSha256: '0'.repeat(64),
      },
      clock,
    ),
  );

  const journal = (kind, data, ts) => {
    const line = encodeRecord({ seq: ++seq, ts, kind, prev, data });
    prev = hashLine(line);
    counts.bytes += line.length + 1;
  };
  const feed = (record) => {
    const result = table.feed(record);
    if (!result.ok) throw new Error(`the table refused ${record.t}: ${result.error.message}`);
    return result.events;
  };
  const newShoe = () => {
    shoes++;
    cards = shuffledShoe(shoes);
    if (relay) return;
    const record = { t: 'shuffle', decks: DECKS, backs: ['red'], ts: clock, src: 'bench' };
    journal('input', record, clock);
    for (const event of feed(record)) journal('event', event, clock);
  };

  /** The next CARD frame as the shoe writes it (its own work: not timed). */
  const nextFrame = () => {
    if (cards.length <= DECKS * 52 - CARDS_PER_SHOE) newShoe();
    const card = cards.pop();
    const [action] = shoe.send({ type: 'CARD', card, back: 'red', face: 'up' }, clock);
    return Buffer.from(action.line, 'latin1');
  };

  /** The bare relay's work for one frame: relayCards on a transport that hands it the frame. */
  const relayTake = (() => {
    if (!relay) return undefined;
    const transport = new EventEmitter();
    let written;
    transport.write = (bytes) => {
      written = bytes;
      return Promise.resolve();
    };
    const publisher = {
      publish: (_topic, payload) => {
        counts.bytes += payload.length;
        counts.cards++;
      },
    };
    relayCards({ session: host, transport, publisher, cardTopic: 'bench/relay/events/card' });
    return (frame) => {
      written = undefined;
      transport.emit('data', frame);
      if (!written)
        throw new Error(`the relay did not take the frame ${frame.toString('latin1').trim()}`);
      return written.toString('latin1');
    };
  })();

  /** The daemon's work for one frame; returns the ACK line the host would write. */
  const take = (frame) => {
    if (relayTake) return relayTake(frame);
    clock += 1000;
    let ack;
    for (const action of host.receiveBytes(frame, clock)) {
      if (action.kind !== 'deliver' || action.message.type !== 'CARD') continue;
      const { card, back, face } = action.message;
      const record = { t: 'card', card, back, face, ts: clock, src: 'shoe', dseq: action.seq };
      journal('input', record, clock);
      const events = feed(record);
      for (const event of events) {
        journal('event', event, clock);
        counts.bytes += eventPayload(seq, clock, event).length;
      }
      counts.events += events.length;
      counts.cards++;
      for (const ackAction of host.ack(action.seq)) if (ackAction.kind === 'send') ack = ackAction;
    }
    if (!ack) throw new Error(`the host did not take the frame ${frame.toString('latin1').trim()}`);
    return ack.line;
  };

  /** The shoe hears the ACK, so its window never fills (its own work: not timed). */
  const settle = (ackLine) => {
    shoe.receiveBytes(ackLine, clock);
  };

  return { nextFrame, take, settle, counts, shoes: () => shoes };
}
