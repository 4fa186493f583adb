/**
 * The conformance checks as data: what each one proves, the PROTOCOL.md
 * section it follows, whether a device must pass it, and how long the
 * runner waits for the device before naming the check failed. The runner
 * (suite.ts) scripts the host's frames for the checks that need the line;
 * the checks marked `trace` are judged afterwards from everything the device
 * sent (trace.ts), so they cover the whole run, not one moment of it.
 */
import type { DeviceTalker } from '../../device-protocol/frame.ts';

export type CheckId =
  | 'hello'
  | 'hello-retransmit'
  | 'hold-events'
  | 'host-hello'
  | 'auth'
  | 'hello-proof'
  | 'ping'
  | 'duplicate'
  | 'unknown-type'
  | 'nak-bad-crc'
  | 'nak-malformed'
  | 'nak-too-long'
  | 'stale-ack'
  | 'commands'
  | 'event'
  | 'retransmit'
  | 'nak-resend'
  | 'nak-hello'
  | 'reconnect'
  | 'messages'
  | 'old-session'
  | 'confirm-other-key'
  | 'confirm-bad-signature'
  | 'confirm-none'
  | 'host-lost'
  | 'replayed-handshake'
  | 'keeps-cards'
  | 'frames'
  | 'stray-bytes'
  | 'codecs'
  | 'seq'
  | 'window'
  | 'no-flood'
  | 'ack-timeout';

export interface CheckDefinition {
  readonly id: CheckId;
  /** PROTOCOL.md sections the check follows. */
  readonly section: string;
  /** What a conforming device does, in one line. */
  readonly title: string;
  /** A device that fails a required check does not conform; an optional one is reported only. */
  readonly required: boolean;
  /** Longest wait for the device in this check (milliseconds); 0 for checks judged from the trace. */
  readonly timeoutMs: number;
  /** The wait when a person must act (deal, shuffle, spin), unless `--scripted`. */
  readonly humanTimeoutMs?: number;
  /** Judged from the whole trace after the run. */
  readonly trace?: boolean;
}

/** In the order they run; the trace checks come last. */
export const CHECKS: readonly CheckDefinition[] = [
  {
    id: 'hello',
    section: '§ 4.1, § 7.1',
    title: 'sends a valid HELLO first',
    required: true,
    timeoutMs: 10_000,
  },
  {
    id: 'hello-retransmit',
    section: '§ 3.4',
    title: 'sends the same HELLO line again while its ACK is withheld',
    required: true,
    timeoutMs: 10_000,
  },
  {
    id: 'hold-events',
    section: '§ 4.1',
    title: 'sends no new event before its HELLO is ACKed',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'host-hello',
    section: '§ 4.3, § 3.1',
    title: "ACKs the host's HELLO",
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'auth',
    section: '§ 5.2',
    title: 'answers CHALLENGE with a PROOF (1.4 and later)',
    required: false,
    timeoutMs: 6_000,
  },
  {
    id: 'hello-proof',
    section: '§ 5.2',
    title:
      "(1.7, --host-key) its PROOF covers its HELLO as sent (seq, every field) with hello_acked=no, and it seals nothing before the host's CONFIRM",
    required: true,
    timeoutMs: 1_000,
  },
  {
    id: 'ping',
    section: '§ 3.10, § 3.1',
    title: 'ACKs a PING and answers PONG echoing its token',
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'duplicate',
    section: '§ 3.6',
    title: 'ACKs a repeated frame again without acting on it twice',
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'unknown-type',
    section: '§ 7.6, § 3.1',
    title: 'ACKs a frame of a type it does not know',
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'nak-bad-crc',
    section: '§ 3.3, § 2.2, § 10',
    title: 'NAKs a frame with a bad CRC, naming its seq and bad_crc',
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'nak-malformed',
    section: '§ 3.3, § 2.2',
    title: 'NAKs a malformed frame with reason malformed',
    required: false,
    timeoutMs: 3_000,
  },
  {
    id: 'nak-too-long',
    section: '§ 3.3, § 2.2, § 10',
    title: 'survives a line over 250 bytes (NAK too_long) and keeps answering',
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'stale-ack',
    section: '§ 3.1',
    title: 'ignores an ACK for a seq it is not waiting for',
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'commands',
    section: '§ 3.1, § 7.2, § 7.3',
    title: "ACKs the host's commands for its talker (INDICATE, GATE; SHUFFLE)",
    required: true,
    timeoutMs: 5_000,
  },
  {
    id: 'event',
    section: '§ 7, § 7.2-7.4, § 7.5',
    title: 'reports an event when the device is used (a card, a shuffle, a spin)',
    required: true,
    timeoutMs: 20_000,
    humanTimeoutMs: 120_000,
  },
  {
    id: 'retransmit',
    section: '§ 3.4, § 3.7',
    title: 'sends the same event line again while its ACK is withheld',
    required: true,
    timeoutMs: 10_000,
  },
  {
    id: 'nak-resend',
    section: '§ 3.3, § 3.4',
    title: 'resends a frame at once on a NAK naming it',
    required: true,
    timeoutMs: 2_000,
  },
  {
    id: 'nak-hello',
    section: '§ 4.2, § 3.7',
    title: 'on NAK,<seq>,hello says HELLO again, then resends the event with its seq',
    required: true,
    timeoutMs: 10_000,
  },
  {
    id: 'reconnect',
    section: '§ 3.4, § 3.7, § 3.9',
    title: 'after the line drops and reopens, sends the unACKed event again with its seq',
    required: true,
    timeoutMs: 10_000,
  },
  {
    id: 'messages',
    section: '§ 7, § 7.2-7.4, § 7.5',
    title:
      'goes on once the event is ACKed, to a whole report (a CARD; SHUFFLED with its ORDER; a TAG or CARD; a RESULT)',
    required: true,
    timeoutMs: 30_000,
    humanTimeoutMs: 120_000,
  },
  {
    id: 'old-session',
    section: '§ 5.2',
    title:
      "(hostile host) after a stranger's CHALLENGE, takes no frame sealed under the session it ended",
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'confirm-other-key',
    section: '§ 5.2',
    title: '(hostile host) takes no session from a CONFIRM signed by another host key',
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'confirm-bad-signature',
    section: '§ 5.2',
    title:
      '(hostile host) takes no session from a CONFIRM naming the paired host key with a signature it did not make',
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'confirm-none',
    section: '§ 5.2',
    title: '(hostile host) takes no session its PROOF answered until a CONFIRM comes',
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'host-lost',
    section: '§ 5.2',
    title:
      '(hostile host) with no CONFIRM within 3 s of its first unconfirmed PROOF, says HELLO again (host_lost)',
    required: true,
    timeoutMs: 6_000,
  },
  {
    id: 'replayed-handshake',
    section: '§ 5.2',
    title:
      "(hostile host) takes no session from the genuine host's CHALLENGE and CONFIRM of an earlier session, replayed",
    required: true,
    timeoutMs: 3_000,
  },
  {
    id: 'keeps-cards',
    section: '§ 5.2, § 3.7',
    title:
      '(hostile host) keeps every unACKed event while no host confirms, and sends them again with their seqs, in order, to the genuine host',
    required: true,
    timeoutMs: 6_000,
  },
  {
    id: 'frames',
    section: '§ 2, § 2.1, § 2.2',
    title: 'every line it sends has a good CRC, the frame grammar and at most 250 bytes',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'stray-bytes',
    section: '§ 2, § 2.2',
    title: 'sends no bytes outside frames (boot text, noise)',
    required: false,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'codecs',
    section: '§ 7',
    title: 'every message it sends has the fields of its type, from its own talker',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'seq',
    section: '§ 2, § 3.6, § 3.7',
    title: 'never gives two different frames one seq',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'window',
    section: '§ 3.5, § 3.8',
    title: 'keeps to its window: one event alone after each HELLO, at most 32 (1.2) or 1 in flight',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'no-flood',
    section: '§ 3.4',
    title: 'retransmits on its timer, not in a burst (at most 10 copies of a line a second)',
    required: true,
    timeoutMs: 0,
    trace: true,
  },
  {
    id: 'ack-timeout',
    section: '§ 3.4, § 3.11, § 4.1',
    title: "waits at least the host's ACK timeout (500 ms) before it sends a line again unasked",
    required: false,
    timeoutMs: 0,
    trace: true,
  },
];

/** The checks that run only given the table's host key (`--host-key`, 1.7): the paired host's and the hostile hosts'. */
export const PAIRED_HOST_CHECKS: readonly CheckId[] = [
  'hello-proof',
  'old-session',
  'confirm-other-key',
  'confirm-bad-signature',
  'confirm-none',
  'host-lost',
  'replayed-handshake',
  'keeps-cards',
];

export function checkDefinition(id: CheckId): CheckDefinition {
  const definition = CHECKS.find((check) => check.id === id);
  if (definition === undefined) throw new Error(`no conformance check ${id}`);
  return definition;
}

/** What a person does for each talker to produce an event, unless `--scripted`. */
export const HUMAN_STEP: Readonly<Record<DeviceTalker, string>> = {
  SH: 'deal one card from the shoe',
  SF: 'let the shuffler shuffle the deck it was asked for (or start a shuffle)',
  RD: 'present one tagged card to the reader',
  RW: 'spin the wheel: rotor, then ball, until the ball comes to rest',
};

export type CheckStatus = 'pass' | 'fail' | 'skip';

/** The outcome of one check: `detail` says what the device did. */
export interface CheckResult {
  readonly id: CheckId;
  readonly section: string;
  readonly title: string;
  readonly required: boolean;
  readonly status: CheckStatus;
  readonly detail: string;
  readonly ms?: number;
}

export function resultOf(
  id: CheckId,
  status: CheckStatus,
  detail: string,
  options: { required?: boolean; ms?: number } = {},
): CheckResult {
  const definition = checkDefinition(id);
  return {
    id,
    section: definition.section,
    title: definition.title,
    required: options.required ?? definition.required,
    status,
    detail,
    ...(options.ms === undefined ? {} : { ms: options.ms }),
  };
}
