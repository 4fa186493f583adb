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
 * - Framing bytes: `FrameDecoder` (pure: `push(chunk)` returns events,
 *   `end()` reports an unterminated tail). It bounds its buffer by the
 *   250-byte line limit and counts discards by reason in `stats`.
 * - Messages (`messages.ts`): `decodeMessage(frame)` gives
 *   `{kind:'message', message}` | `{kind:'unsupported', type}` |
 *   `{kind:'invalid', type, error}`; `messageFrame(talker, seq, message)`
 *   builds a checked frame (throws ProtocolError on a bad message or a
 *   talker that may not send it); `encodeMessage` gives its fields.
 *   `shuffledMessages` / `ShuffleOrderAssembler` split and rebuild a
 *   shuffled order across ORDER chunks.
 * - Link (`link.ts`): `new LinkSession({localTalker, peerTalker, ...})`, a
 *   pure state machine for ACK/NAK, retransmission, dedupe and HELLO, fed
 *   framer events (`receive(event, now)`) or bytes (`receiveBytes`).
 * - Endpoint (`endpoint/`): one end of a line, the decoder, authentication
 *   (`auth/`) and the link session composed: `new HostEndpoint({peer, ...})`
 *   or `new DeviceEndpoint({talker, hello, ...})`. Feed it
 *   `receive(bytes, now)`, `send(message, now)`, `tick(now)`,
 *   `lineOpened(now)`; carry out the returned actions in order (`write` its
 *   line, `deliver` the message, set the `timer`). The host calls
 *   `ack(seq, now)` once a deferred message (a CARD) is durable.
 *   `hardware/transports/endpoint-runner.ts` does all of that over a real line.
 *
 * Host driver sketch:
 *
 *   const host = new HostEndpoint({ peer: 'SH', link: { deferAck: ['CARD'] }, fresh });
 *   port.on('open', () => run(host.lineOpened(now())));
 *   port.on('data', (chunk) => run(host.receive(chunk, now())));
 *   // run(): `write`: write its line; `deliver`: journal the message, then
 *   // run(host.ack(seq, now())); `timer`: run(host.tick(now())) at `at`.
 *
 * Device simulator sketch:
 *
 *   const shoe = new DeviceEndpoint({ talker: 'SH', hello, fresh });
 *   run(shoe.lineOpened(now())); // its HELLO
 *   run(shoe.send({ type: 'CARD', card: 'AS', back: 'red', face: 'down' }, now())); // held until HELLO is ACKed
 */
export * from './cards.ts';
export * from './coded-error.ts';
export { CRC_INITIAL, crc16, crc16Hex, crc16Update } from './crc.ts';
export {
  DEVICE_SESSION_DEFAULTS,
  type DeviceAuthReport,
  DeviceEndpoint,
  type DeviceEndpointAction,
  type DeviceEndpointOptions,
  type RestoredFrames,
} from './endpoint/device-endpoint.ts';
export {
  type HostAuthReport,
  HostEndpoint,
  type HostEndpointAction,
  type HostEndpointOptions,
} from './endpoint/host-endpoint.ts';
export { type EndpointAction, LinkEndpoint, type WriteAction } from './endpoint/link-endpoint.ts';
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
