/**
 * device-protocol: the wire protocol between tableside and its devices
 * (spec: device-protocol/PROTOCOL.md). Pure code: no I/O, no clock.
 *
 * Layers, bottom up:
 *
 * - `crc16`, `crc16Hex`: CRC-16/CCITT-FALSE (`crc16Hex('123456789') === '29B1'`).
 * - Frames (`frame.ts`): `encodeFrame({talker, seq, type, fields})` gives the
 *   wire line with CR LF; `parseFrameLine(line)` gives a `FrameEvent`
 *   (`{kind:'frame', frame}` or `{kind:'discard', reason, raw, detail}`) and
 *   never throws; `scanLine` does the same for a whole received line, with
 *   resync on every `$`.
 * - Framing bytes: `FrameDecoder` (pure: `push(chunk)` returns events) or
 *   `Framer` (a stream Transform on @serialport/parser-delimiter, objectMode
 *   output of `FrameEvent`s). Both bound their buffer by the 250-byte line
 *   limit and count discards by reason in `stats`.
 * - Messages (`messages.ts`): `decodeMessage(frame)` gives
 *   `{kind:'message', message}` | `{kind:'unsupported', type}` |
 *   `{kind:'invalid', type, error}`; `messageFrame(talker, seq, message)`
 *   builds a checked frame (throws ProtocolError on a bad message or a
 *   talker that may not send it); `encodeMessage` gives its fields.
 *   `shuffledMessages` / `ShuffleOrderAssembler` split and rebuild a
 *   shuffled order across ORDER chunks.
 * - Link (`link.ts`): `new LinkSession({localTalker, peerTalker, ...})`, a
 *   pure state machine for ACK/NAK, retransmission, dedupe and HELLO. Feed
 *   it `receiveBytes(chunk, now)` (or `receive(event, now)`), `send(message,
 *   now)`, `tick(now)`; carry out the returned `LinkAction`s in order. For the
 *   host, set `deferAck: ['CARD']` and call `ack(seq, talker)` once the card
 *   is durable. A device sets `maxAttempts: 0` (never give a card up) and
 *   calls `retransmitNow(now)` after the HELLO that follows a reopened line.
 *
 * Host driver sketch:
 *
 *   const link = new LinkSession({ localTalker: 'HO', peerTalker: 'SH', deferAck: ['CARD'] });
 *   port.on('data', (chunk) => run(link.receiveBytes(chunk, Date.now())));
 *   // run(): write `send.line` to the port; on `deliver`, journal the message,
 *   // then run(link.ack(seq, talker)); schedule tick() at link.nextDeadline().
 *
 * Device simulator sketch:
 *
 *   const link = new LinkSession({ localTalker: 'SH', peerTalker: 'HO' });
 *   run(link.send({ type: 'HELLO', model, serial, protocol: PROTOCOL_VERSION, firmware, firmwareSha256 }, now));
 *   run(link.send({ type: 'CARD', card: 'AS', back: 'red', face: 'down' }, now)); // held until HELLO is ACKed
 */
export * from './cards.ts';
export * from './coded-error.ts';
export { CRC_INITIAL, crc16, crc16Hex, crc16Update } from './crc.ts';
export * from './errors.ts';
export {
  type DeviceTalker,
  DISCARD_REASONS,
  type DiscardReason,
  type EncodeResult,
  encodeFrame,
  type Frame,
  type FrameDiscard,
  type FrameEvent,
  type FrameReceived,
  frameBody,
  frameProblem,
  isFieldText,
  isFrameType,
  isSeq,
  isTalker,
  LINE_END,
  MAX_LINE_BYTES,
  MAX_SEQ,
  nextSeq,
  parseFrameLine,
  type ScanLineOptions,
  SEQ_MODULUS,
  scanLine,
  TALKERS,
  type Talker,
  tryEncodeFrame,
} from './frame.ts';
export {
  FrameDecoder,
  type FramerOptions,
  type FramerStats,
  framerOptionsSchema,
  LineGuard,
  type ResolvedFramerOptions,
  resolveFramerOptions,
} from './frame-decoder.ts';
export { Framer } from './framer.ts';
export {
  type LinkAction,
  type LinkDiscardReason,
  type LinkOptions,
  LinkSession,
  type LinkStats,
  linkOptionsSchema,
  type ResolvedLinkOptions,
  resolveLinkOptions,
} from './link.ts';
export * from './messages.ts';
export {
  type ShuffleAnnouncement,
  ShuffleOrderAssembler,
  type ShuffleReport,
  shuffledMessages,
} from './shuffle-order.ts';
