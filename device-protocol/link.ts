/**
 * The link session: reliable delivery over one line, as a pure state
 * machine (PROTOCOL.md § 3). No I/O and no clock: every input carries
 * `now` (milliseconds, any monotonic origin) and returns the actions the
 * caller must carry out, in order (write `send.line` to the port, hand
 * `deliver.message` on, ...). Call `tick(now)` by `nextDeadline()` at the
 * latest so that retransmissions happen.
 *
 * Rules, in short:
 * - every received frame but ACK and NAK is ACKed (unknown TYPE included:
 *   ACKed and reported `unsupported`); the ACK of the types in `deferAck`
 *   waits for `ack(seq)` (the host ACKs a CARD once its journal record is
 *   durable), so the device retransmits until then;
 * - a bad CRC, a malformed or an over-long line is answered by a NAK;
 * - a frame already seen (its seq is in the peer's window of recent seqs)
 *   is ACKed again but not delivered; a peer HELLO empties that window,
 *   because a device that restarted starts its seqs over;
 * - own frames are retransmitted after `ackTimeoutMs` (times
 *   `backoffFactor` per attempt, at most `maxAckTimeoutMs`), at most
 *   `maxAttempts` transmissions, then reported `failed` (`maxAttempts: 0`:
 *   never, as a device that must not give a card up); a NAK naming an
 *   unacknowledged frame resends it now (once for all the NAKs read at one
 *   `now`), and so does `retransmitNow()` for every unacknowledged frame (a
 *   device whose line has just reopened);
 * - at most `maxInFlight` event frames are unacknowledged at once; HELLO,
 *   PING and PONG bypass that queue. Without protocol 1.2 on both sides,
 *   only 1 (stop and wait) keeps events in order;
 * - protocol 1.2, the in-order window (PROTOCOL.md § 3.8), keyed on the
 *   HELLOs: a device announcing 1.2 numbers only its reliable frames (its
 *   ACK and NAK carry the next seq without taking it), uses its window only
 *   with a host that announced 1.2, and after each HELLO of its own sends
 *   one event alone until an event is ACKed (slow start, so the host learns
 *   where its events resume); it keeps each frame, even ACKed, until the
 *   frames before it are ACKed, and sends what it keeps again after a
 *   HELLO. The host delivers the events of a 1.2 device
 *   in seq order: one that arrives past a missing seq is held, unACKed,
 *   until the gap fills, and the missing seq is NAKed `missing` once;
 * - a device (any local talker but HO) holds its events until the host has
 *   ACKed its HELLO, and sends HELLO again when the host NAKs with `hello`;
 * - the host answers events from a device that has not said HELLO with a
 *   NAK `hello` (unless `requirePeerHello` is false); it never has to send
 *   its own HELLO.
 *
 * Where it lives (`link/`): `session.ts` is the session both ends share
 * (dedupe, ACK and NAK, the receive path), `outbox.ts` its sending half
 * (queue, seqs, window, retransmission), `peers.ts` what it remembers of
 * each peer; `host-role.ts` and `device-role.ts` are what only the host or
 * only a device does (`role.ts`: the points where the session asks), and
 * `in-order-delivery.ts` the host's ordering of a 1.2 device's events.
 */
export type { LinkAction, LinkDiscardReason, LinkStats } from './link/actions.ts';
export {
  type LinkOptions,
  linkOptionsSchema,
  type ResolvedLinkOptions,
  resolveLinkOptions,
} from './link/options.ts';
export { LinkSession } from './link/session.ts';
