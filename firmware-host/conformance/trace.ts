/**
 * Everything that crossed the line during a conformance run, and the checks
 * judged from it as a whole (pure: the trace comes in, verdicts go out).
 * Each judge names the first line that broke its rule and how often it was
 * broken, so a firmware author can find the frame in a capture.
 */
import type { DeviceTalker, Frame, FrameEvent } from '../../device-protocol/frame.ts';
import { decodeMessage, protocolAtLeast } from '../../device-protocol/messages.ts';
import { type CheckId, type CheckResult, resultOf } from './checks.ts';

export type TraceEntry =
  /** A line (or a piece of one) from the device, as the framer read it, MAC still on. */
  | { readonly dir: 'in'; readonly at: number; readonly event: FrameEvent }
  /** A line the host wrote; `frame` is what it meant before any MAC (absent for a deliberately bad line). */
  | { readonly dir: 'out'; readonly at: number; readonly line: string; readonly frame?: Frame }
  /** The host closed and reopened the line. */
  | { readonly dir: 'mark'; readonly at: number; readonly what: 'reopened' };

/** Frames outside the link session (§ 5.2) and the link's own control frames (§ 3.1). */
const UNRELIABLE = new Set(['ACK', 'NAK', 'CHALLENGE', 'PROOF']);
/** Reliable frames that do not wait behind events (§ 3.5). */
const NOT_EVENTS = new Set(['HELLO', 'PING', 'PONG']);

export function isReliableType(type: string): boolean {
  return !UNRELIABLE.has(type);
}

export function isEventType(type: string): boolean {
  return isReliableType(type) && !NOT_EVENTS.has(type);
}

/** The frame's text without a MAC (§ 5.3): a retransmission in a new session carries a new one. */
export function unsealedBody(frame: Frame): string {
  const last = frame.fields.at(-1);
  const fields = last?.startsWith('~') ? frame.fields.slice(0, -1) : frame.fields;
  return [frame.talker, frame.seq, frame.type, ...fields].join(',');
}

function lineOf(frame: Frame): string {
  return `$${[frame.talker, frame.seq, frame.type, ...frame.fields].join(',')}`;
}

function deviceFrames(trace: readonly TraceEntry[]): { at: number; frame: Frame }[] {
  const frames: { at: number; frame: Frame }[] = [];
  for (const entry of trace) {
    if (entry.dir === 'in' && entry.event.kind === 'frame') {
      frames.push({ at: entry.at, frame: entry.event.frame });
    }
  }
  return frames;
}

function counted(count: number, first: string, what: string): string {
  return count === 1 ? `${what}: ${first}` : `${count} times ${what}; first: ${first}`;
}

function verdict(id: CheckId, problems: string[], passed: string): CheckResult {
  if (problems.length === 0) return resultOf(id, 'pass', passed);
  return resultOf(id, 'fail', counted(problems.length, problems[0]!, 'broken'));
}

/** § 2, § 2.2: every line parses; stray bytes before a `$` are reported apart (optional). */
export function judgeFrames(trace: readonly TraceEntry[]): CheckResult[] {
  const bad: string[] = [];
  const stray: string[] = [];
  let frames = 0;
  for (const entry of trace) {
    if (entry.dir !== 'in') continue;
    const event = entry.event;
    if (event.kind === 'frame') frames++;
    else if (event.reason === 'no_start') stray.push(JSON.stringify(event.raw.slice(0, 40)));
    else bad.push(`${event.reason} (${event.detail}) in ${JSON.stringify(event.raw.slice(0, 60))}`);
  }
  return [
    bad.length === 0
      ? resultOf('frames', 'pass', `${frames} frames, all readable`)
      : resultOf(
          'frames',
          'fail',
          `${bad.length} of ${bad.length + frames} lines unreadable; first: ${bad[0]}`,
        ),
    stray.length === 0
      ? resultOf('stray-bytes', 'pass', 'no bytes outside frames')
      : resultOf('stray-bytes', 'fail', counted(stray.length, stray[0]!, 'bytes outside a frame')),
  ];
}

/** § 7: each known type decodes, from the talker the device announced. */
export function judgeCodecs(
  trace: readonly TraceEntry[],
  talker: DeviceTalker | undefined,
): CheckResult {
  const problems: string[] = [];
  for (const { frame } of deviceFrames(trace)) {
    if (talker !== undefined && frame.talker !== talker) {
      problems.push(`${lineOf(frame)} comes from ${frame.talker}, the device is ${talker}`);
      continue;
    }
    if (frame.type === 'CHALLENGE' || frame.type === 'PROOF') continue;
    const last = frame.fields.at(-1);
    const plain = last?.startsWith('~') ? { ...frame, fields: frame.fields.slice(0, -1) } : frame;
    const decoded = decodeMessage(plain);
    if (decoded.kind === 'invalid') problems.push(`${lineOf(frame)}: ${decoded.error}`);
  }
  return verdict('codecs', problems, 'every message decodes');
}

/**
 * § 4: a device sends a new event (a seq it never used) only once its latest
 * HELLO is ACKed. Events it sent before, and sends again after a HELLO, are
 * retransmissions (§ 3.7), not new; events before its first HELLO in
 * the run belong to a session that began before the line opened.
 */
export function judgeHoldEvents(trace: readonly TraceEntry[]): CheckResult {
  const problems: string[] = [];
  const seen = new Set<number>();
  let helloSeq: number | undefined;
  let helloLine: string | undefined;
  let helloAcked = false;
  for (const entry of trace) {
    if (entry.dir === 'out') {
      const frame = entry.frame;
      if (frame?.type === 'ACK' && helloSeq !== undefined && frame.fields[0] === String(helloSeq)) {
        helloAcked = true;
      }
      continue;
    }
    if (entry.dir !== 'in' || entry.event.kind !== 'frame') continue;
    const frame = entry.event.frame;
    if (frame.type === 'HELLO') {
      // A copy of the HELLO the host ACKed crossed that ACK on the wire: it is still ACKed.
      if (helloAcked && lineOf(frame) === helloLine) continue;
      if (frame.seq === 0) seen.clear();
      helloSeq = frame.seq;
      helloLine = lineOf(frame);
      helloAcked = false;
      continue;
    }
    if (!isEventType(frame.type)) continue;
    // Before the first HELLO: frames of a session that began before this run (§ 4: NAK hello).
    if (helloSeq !== undefined && !seen.has(frame.seq) && !helloAcked) {
      problems.push(`${lineOf(frame)} before the host ACKed HELLO ${helloSeq}`);
    }
    seen.add(frame.seq);
  }
  return verdict('hold-events', problems, 'no new event before its HELLO was ACKed');
}

/**
 * § 2, § 3.6, § 3.7: one seq never names two different frames (a HELLO
 * at seq 0 is a restart and starts over). HELLOs are left out: a new HELLO
 * may take the seq of one the host has not ACKed (§ 3.8). Gaps are no
 * fault here: a device numbers a frame when it queues it, so a PONG may run
 * ahead of events still waiting for the window.
 */
export function judgeSeqs(trace: readonly TraceEntry[]): CheckResult {
  const problems: string[] = [];
  const bodies = new Map<number, string>();
  for (const { frame } of deviceFrames(trace)) {
    if (!isReliableType(frame.type)) continue;
    if (frame.type === 'HELLO') {
      if (frame.seq === 0) bodies.clear();
      continue;
    }
    const body = unsealedBody(frame);
    const before = bodies.get(frame.seq);
    if (before === undefined) bodies.set(frame.seq, body);
    else if (before !== body) problems.push(`seq ${frame.seq} reused: "${before}" then "${body}"`);
  }
  return verdict('seq', problems, 'each seq names one frame');
}

/**
 * § 3.5, § 3.8: events the host has not ACKed stay within the device's
 * window: 32 for a 1.2 device (the host spoke 1.5), 1 for an older one, and
 * one alone after each HELLO until the host has ACKed an event. A HELLO at
 * seq 0 is a restart (§ 3.7): the device lost what it had in flight, so
 * those events no longer count against its window (the reconnect check
 * names a restart where a reconnect was due).
 */
export function judgeWindow(
  trace: readonly TraceEntry[],
  protocol: string | undefined,
): CheckResult {
  const limit = protocolAtLeast(protocol, '1.2') ? 32 : 1;
  const problems: string[] = [];
  const unacked = new Set<number>();
  let slowStart = true;
  let helloSeen = false;
  for (const entry of trace) {
    if (entry.dir === 'out') {
      const frame = entry.frame;
      if (frame?.type === 'ACK') {
        const seq = Number(frame.fields[0]);
        if (unacked.delete(seq)) slowStart = false;
      }
      continue;
    }
    if (entry.dir !== 'in' || entry.event.kind !== 'frame') continue;
    const frame = entry.event.frame;
    if (frame.type === 'HELLO') {
      if (frame.seq === 0) unacked.clear();
      slowStart = true;
      helloSeen = true;
      continue;
    }
    // Before the first HELLO: a session that began before the run; its window is not ours to count.
    if (!helloSeen || !isEventType(frame.type) || unacked.has(frame.seq)) continue;
    unacked.add(frame.seq);
    const allowed = slowStart ? 1 : limit;
    if (unacked.size > allowed) {
      problems.push(
        `${lineOf(frame)} made ${unacked.size} events unACKed, ${allowed} allowed${slowStart ? ' (one alone after a HELLO until an event is ACKed)' : ''}`,
      );
    }
  }
  return verdict('window', problems, `at most ${limit} in flight, one alone after each HELLO`);
}

/** § 3.3, § 3.4: a copy follows a timeout or a NAK; ten copies of one line within a second is a flood. */
export function judgeFlood(trace: readonly TraceEntry[]): CheckResult {
  const copies = new Map<string, number[]>();
  let worst: { line: string; count: number } | undefined;
  for (const { at, frame } of deviceFrames(trace)) {
    const line = lineOf(frame);
    const times = copies.get(line) ?? [];
    times.push(at);
    while (times.length > 0 && at - times[0]! > 1000) times.shift();
    copies.set(line, times);
    if (times.length > 10 && (worst === undefined || times.length > worst.count)) {
      worst = { line, count: times.length };
    }
  }
  return worst === undefined
    ? resultOf('no-flood', 'pass', 'no line sent more than 10 times in a second')
    : resultOf('no-flood', 'fail', `sent ${worst.line} ${worst.count} times within one second`);
}

/** The host's ACK timeout (§ 3.11); a device "should use the same or a longer timeout". */
export const HOST_ACK_TIMEOUT_MS = 500;
/** Scheduling on either side shortens a measured wait a little: this much is not held against it. */
const TIMER_SLACK_MS = 50;

/**
 * A host line that asks the device for copies at once (§ 3.3, § 3.4, § 4.2,
 * § 5.2), from its write until the device shows it has read it.
 */
interface Request {
  /** Where the host wrote it in the trace. */
  readonly index: number;
  /** Whether it asks for this device line. */
  readonly asks: (line: string) => boolean;
  /** Lines whose copy already reached the host while the device may not have read it. */
  readonly crossed: Set<string>;
}

function seqOfLine(line: string): string | undefined {
  return line.split(',')[1];
}

/**
 * § 3.11: the shortest wait between two copies of a line that nothing
 * asked for (no NAK naming it, no HELLO either way, no reopened line between).
 * A request counts from when the device could have read it, not from when the
 * host wrote it: until the device ACKs that line or a later one (a line keeps
 * its order, § 1), one copy of each line it asks for may have crossed it on
 * the wire, sent on the device's timer, and the copy it asks for may follow
 * that one at once (§ 3.4, § 6.1 D15).
 */
export function judgeAckTimeout(trace: readonly TraceEntry[]): CheckResult {
  const lastCopy = new Map<string, { at: number; crossed: boolean }>();
  const helloSeqs = new Set<string>();
  /** Host seq to where the host last wrote a reliable line with it. */
  const writtenAt = new Map<number, number>();
  let unread: Request[] = [];
  const request = (index: number, asks: (line: string) => boolean) => {
    for (const line of [...lastCopy.keys()]) if (asks(line)) lastCopy.delete(line);
    unread.push({ index, asks, crossed: new Set() });
  };
  let shortest: { line: string; ms: number } | undefined;
  for (const [index, entry] of trace.entries()) {
    if (entry.dir === 'mark') {
      lastCopy.clear();
      unread = [];
      continue;
    }
    if (entry.dir === 'out') {
      const frame = entry.frame;
      if (frame !== undefined && isReliableType(frame.type)) writtenAt.set(frame.seq, index);
      // The host's HELLO or CHALLENGE, or its ACK of the device's HELLO, sends the device's
      // frames again (§ 3.4, § 4, § 5.2).
      if (frame?.type === 'HELLO' || entry.line.includes(',CHALLENGE,')) request(index, () => true);
      if (frame?.type === 'ACK' && helloSeqs.has(frame.fields[0] ?? '')) request(index, () => true);
      if (frame?.type === 'NAK') {
        // A NAK asks for the frame it names at once; one without a seq, for all of them.
        const named = frame.fields[0];
        request(index, (line) => !named || seqOfLine(line) === named);
      }
      continue;
    }
    if (entry.event.kind !== 'frame') continue;
    const frame = entry.event.frame;
    if (frame.type === 'ACK') {
      const read = writtenAt.get(Number(frame.fields[0]));
      if (read !== undefined) unread = unread.filter((pending) => pending.index > read);
    }
    // A PROOF ends the handshake: the events held back for it go at once (§ 5.2).
    if (frame.type === 'PROOF') lastCopy.clear();
    if (frame.type === 'HELLO') {
      helloSeqs.add(String(frame.seq));
      // A new HELLO of the device's own sends what it holds again at once (§ 3.8).
      for (const line of [...lastCopy.keys()]) if (!line.includes(',HELLO,')) lastCopy.delete(line);
    }
    if (!isReliableType(frame.type)) continue;
    const line = lineOf(frame);
    const before = lastCopy.get(line);
    if (before !== undefined && !before.crossed) {
      const ms = Math.round(entry.at - before.at);
      if (shortest === undefined || ms < shortest.ms) shortest = { line, ms };
    }
    let crossed = false;
    for (const pending of unread) {
      if (!pending.asks(line) || pending.crossed.has(line)) continue;
      pending.crossed.add(line);
      crossed = true;
    }
    lastCopy.set(line, { at: entry.at, crossed });
  }
  if (shortest === undefined) return resultOf('ack-timeout', 'pass', 'no line sent again unasked');
  return shortest.ms + TIMER_SLACK_MS >= HOST_ACK_TIMEOUT_MS
    ? resultOf('ack-timeout', 'pass', `shortest wait before a copy: ${shortest.ms} ms`)
    : resultOf(
        'ack-timeout',
        'fail',
        `sent ${shortest.line} again ${shortest.ms} ms after the last copy: the host waits ${HOST_ACK_TIMEOUT_MS} ms, a device as long or longer`,
      );
}

/** Every trace check, in CHECKS order. */
export function judgeTrace(
  trace: readonly TraceEntry[],
  talker: DeviceTalker | undefined,
  protocol: string | undefined,
): CheckResult[] {
  // A line read before the device's first HELLO may hold what a device already running
  // wrote into it before the run (copies bunched up, a line cut off): judged from its HELLO on.
  const first = trace.findIndex(
    (entry) =>
      entry.dir === 'in' && entry.event.kind === 'frame' && entry.event.frame.type === 'HELLO',
  );
  const fromHello = first === -1 ? trace : trace.slice(first);
  const [frames, stray] = judgeFrames(fromHello);
  return [
    judgeHoldEvents(trace),
    frames!,
    stray!,
    judgeCodecs(trace, talker),
    judgeSeqs(trace),
    judgeWindow(trace, protocol),
    judgeFlood(fromHello),
    judgeAckTimeout(fromHello),
  ];
}

/** The trace as text, one line per entry: `→ HO` what the device sent, `HO →` what the host wrote. */
export function renderTrace(trace: readonly TraceEntry[]): string {
  const lines = trace.map((entry) => {
    const at = entry.at.toFixed(0).padStart(7);
    if (entry.dir === 'mark') return `${at} -- the host ${entry.what} the line`;
    if (entry.dir === 'out') return `${at} HO → ${entry.line.trimEnd()}`;
    const event = entry.event;
    return event.kind === 'frame'
      ? `${at} → HO ${lineOf(event.frame)}`
      : `${at} → HO unreadable (${event.reason}: ${event.detail}) ${JSON.stringify(event.raw.slice(0, 80))}`;
  });
  return `${lines.join('\n')}\n`;
}
