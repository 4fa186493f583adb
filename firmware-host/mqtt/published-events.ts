/**
 * The casino's copy decides: a consumer's archive of the events the bridge
 * published (e.g. a `mosquitto_sub` capture) checked against the journal.
 * Every published event must still be in the journal as the event the
 * bridge would publish from it now; a record rewritten after the last
 * signed head (a power cut leaves some unsealed) then differs from what
 * the casino already holds, whatever chain was recomputed.
 *
 * Pure: takes the capture's text and the journal's records.
 */
import { isDeepStrictEqual } from 'node:util';
import type { JournalRecord } from '../journal/record.ts';
import { publicationOf } from './bridge.ts';
import { type CardExposure, exposureOfInput } from './guard.ts';

/** One published event read from a capture. */
export interface CapturedEvent {
  /** 1-based line of the capture. */
  line: number;
  /** The topic, when the capture has it (`mosquitto_sub -v`). */
  topic: string | undefined;
  payload: Record<string, unknown>;
}

export interface CaptureReading {
  events: CapturedEvent[];
  /** Lines that are not a published event (named, not fatal: a capture may hold other topics). */
  skipped: { line: number; reason: string }[];
}

/**
 * Reads a capture, one message per line, as any of
 *
 *   mosquitto_sub -v -t 'tableside/+/events/#'           → `<topic> <payload>`
 *   mosquitto_sub -t 'tableside/+/events/#'              → `<payload>`
 *   mosquitto_sub -F '%j' -t 'tableside/+/events/#'      → `{"topic":…,"payload":…}`
 *
 * Kept: payloads with a numeric `seq` on an events topic (or no topic).
 * Alarms the journal could not hold (`journaled: false`) have no seq.
 */
export function readCapture(text: string): CaptureReading {
  const events: CapturedEvent[] = [];
  const skipped: CaptureReading['skipped'] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed === '') continue;
    const message = messageOf(trimmed);
    if (typeof message === 'string') {
      skipped.push({ line, reason: message });
      continue;
    }
    if (message.topic !== undefined && !/\/events\/[^/]+$/.test(message.topic)) {
      skipped.push({ line, reason: `not an events topic: ${message.topic}` });
      continue;
    }
    if (message.payload.journaled === false) continue;
    if (!Number.isSafeInteger(message.payload.seq)) {
      skipped.push({ line, reason: 'the payload has no seq' });
      continue;
    }
    events.push({ line, ...message });
  }
  return { events, skipped };
}

function messageOf(
  line: string,
): { topic: string | undefined; payload: Record<string, unknown> } | string {
  const asObject = (text: string): Record<string, unknown> | undefined => {
    try {
      const value: unknown = JSON.parse(text);
      return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  if (line.startsWith('{')) {
    const whole = asObject(line);
    if (!whole) return 'not a JSON object';
    // `-F '%j'`: the message as JSON, its payload a string (or an object with %J).
    if (typeof whole.topic === 'string' && 'payload' in whole) {
      const payload =
        typeof whole.payload === 'string'
          ? asObject(whole.payload)
          : asObject(JSON.stringify(whole.payload));
      return payload ? { topic: whole.topic, payload } : 'the payload is not a JSON object';
    }
    return { topic: undefined, payload: whole };
  }
  const space = line.indexOf(' ');
  if (space < 0) return 'neither `<topic> <payload>` nor a JSON payload';
  const payload = asObject(line.slice(space + 1));
  return payload ? { topic: line.slice(0, space), payload } : 'the payload is not a JSON object';
}

export interface PublishedFinding {
  problem: 'missing' | 'differs';
  seq: number;
  /** The capture's line. */
  line: number;
  message: string;
}

export interface PublishedReport {
  ok: boolean;
  /** Published events checked (a resend counts again). */
  checked: number;
  firstSeq: number | undefined;
  lastSeq: number | undefined;
  findings: PublishedFinding[];
}

/**
 * Compares every captured event with the journal record of its seq, as the
 * bridge would publish it (screened, with the card exposure of the input
 * before it; with none too, as after a reconnect mid-journal).
 */
export function checkPublishedEvents(
  records: Iterable<JournalRecord>,
  captured: readonly CapturedEvent[],
): PublishedReport {
  const bySeq = new Map<number, { record: JournalRecord; exposure: CardExposure | undefined }>();
  let exposure: CardExposure | undefined;
  for (const record of records) {
    if (record.kind === 'input') exposure = exposureOfInput(record.data);
    bySeq.set(record.seq, { record, exposure });
  }
  const findings: PublishedFinding[] = [];
  let firstSeq: number | undefined;
  let lastSeq: number | undefined;
  for (const event of captured) {
    const seq = event.payload.seq as number;
    firstSeq = Math.min(firstSeq ?? seq, seq);
    lastSeq = Math.max(lastSeq ?? seq, seq);
    const found = bySeq.get(seq);
    if (!found) {
      findings.push({
        problem: 'missing',
        seq,
        line: event.line,
        message: `seq ${seq} was published (${describe(event.payload)}) but the journal has no record ${seq}: it was removed`,
      });
      continue;
    }
    if (found.record.kind !== 'event') {
      findings.push({
        problem: 'differs',
        seq,
        line: event.line,
        message: `seq ${seq} was published as an event (${describe(event.payload)}); the journal's record ${seq} is ${found.record.kind === 'input' ? 'an input' : 'a meta record'}`,
      });
      continue;
    }
    const candidates = [publicationOf(found.record, found.exposure)];
    if (found.exposure) candidates.push(publicationOf(found.record, undefined));
    const matches = candidates.some(
      (candidate) =>
        (event.topic === undefined || event.topic.endsWith(`/events/${candidate.kind}`)) &&
        isDeepStrictEqual(JSON.parse(candidate.payload), event.payload),
    );
    if (!matches) {
      const journaled = JSON.parse(candidates[0]!.payload) as Record<string, unknown>;
      findings.push({
        problem: 'differs',
        seq,
        line: event.line,
        message: `seq ${seq} was published as ${describe(event.payload)}; the journal now makes it ${describe(journaled)}${firstDifference(event.payload, journaled)}: the record was changed`,
      });
    }
  }
  return { ok: findings.length === 0, checked: captured.length, firstSeq, lastSeq, findings };
}

function describe(payload: Record<string, unknown>): string {
  const type = String(payload.type ?? '?');
  const card = typeof payload.card === 'string' ? ` ${payload.card}` : '';
  return `${type}${card}`;
}

function firstDifference(published: Record<string, unknown>, journaled: Record<string, unknown>) {
  for (const key of new Set([...Object.keys(published), ...Object.keys(journaled)])) {
    if (!isDeepStrictEqual(published[key], journaled[key])) {
      return ` (${key}: published ${JSON.stringify(published[key])}, journal ${JSON.stringify(journaled[key])})`;
    }
  }
  return '';
}
