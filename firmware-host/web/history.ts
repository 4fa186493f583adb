/**
 * The History page's data: the shoes and hands of one UTC day, read from the
 * journal and screened by the same guard as MQTT (a face-down card stays a
 * back here too). Each hand keeps its events in order, so a disputed hand
 * can be replayed card by card (001 § 11) and exported as it was journaled.
 */
import type { JournalRecord } from '../journal/record.ts';
import { utcDay } from '../journal/record.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import { type CardExposure, exposureOfInput } from '../mqtt/guard.ts';
import type { DomainEvent } from '../table/events.ts';
import { eventFrameData } from './feed.ts';

export interface HistoryHand {
  round: number;
  seq: number;
  ts: number;
  /** Screened events of the hand, in journal order. */
  events: Record<string, unknown>[];
  result?: { winner?: unknown; announcement?: unknown; outcome: Record<string, unknown> };
  voided?: { reason: string; by?: string };
}

export interface HistoryShoe {
  seq: number;
  ts: number;
  /** Events before the first hand and outside any hand (burns, markers, shoe alarms). */
  events: Record<string, unknown>[];
  hands: HistoryHand[];
  ended?: string;
}

export interface HistoryDay {
  day: string;
  shoes: HistoryShoe[];
  /** Operator inputs of the day that changed the table: requests with who made them. */
  requests: Array<{ seq: number; ts: number; what: string; by: string; reason?: string }>;
  /** Set when the journal could not be read to the end (a broken chain, a damaged file). */
  error?: string;
}

const PAGE = 512;

export async function readHistoryDay(journal: JournalSource, day: string): Promise<HistoryDay> {
  const history: HistoryDay = { day, shoes: [], requests: [] };
  let shoe: HistoryShoe | undefined;
  let hand: HistoryHand | undefined;
  /** The card of the latest input, for the events it caused (an alarm names it only when face up). */
  let exposure: CardExposure | undefined;
  const shoeNow = (record: JournalRecord) => {
    shoe ??= { seq: record.seq, ts: record.ts, events: [], hands: [] };
    if (!history.shoes.includes(shoe)) history.shoes.push(shoe);
    return shoe;
  };
  try {
    for (
      let from = await firstSeqFrom(journal, Date.parse(`${day}T00:00:00Z`));
      from <= journal.lastSeq;
    ) {
      const page = await journal.readRange(from, PAGE);
      if (page.length === 0) break;
      from = page.at(-1)!.seq + 1;
      for (const record of page) {
        if (record.ts >= Date.parse(`${day}T00:00:00Z`) + DAY_MS) {
          from = Number.POSITIVE_INFINITY; // the day is over
          break;
        }
        if (utcDay(record.ts) !== day) {
          // Keeps the shoe and hand open across midnight, but only shows this day's records.
          if (record.kind === 'event') followShape(record);
          exposure = undefined;
          continue;
        }
        if (record.kind === 'input') {
          exposure = exposureOfInput(record.data);
          const input = record.data as { t?: string; src?: string; reason?: string };
          if (
            typeof input.src === 'string' &&
            input.src.startsWith('web:') &&
            input.t !== 'shuffle'
          ) {
            history.requests.push({
              seq: record.seq,
              ts: record.ts,
              what: String(input.t),
              by: input.src.slice(4),
              ...(input.reason ? { reason: input.reason } : {}),
            });
          }
          if (input.t === 'void' && hand) {
            hand.voided = { reason: input.reason ?? '', ...(input.src ? { by: input.src } : {}) };
          }
          continue;
        }
        if (record.kind === 'meta') {
          const meta = record.data as { type: string; ruleset?: string; src?: string };
          if (meta.type === 'ruleset' && meta.src?.startsWith('web:')) {
            history.requests.push({
              seq: record.seq,
              ts: record.ts,
              what: `ruleset ${meta.ruleset}`,
              by: meta.src.slice(4),
            });
          }
          continue;
        }
        const event = record.data as DomainEvent;
        const shown = eventFrameData(record, exposure);
        if (event.type === 'shoe_start') {
          shoe = { seq: record.seq, ts: record.ts, events: [shown], hands: [] };
          history.shoes.push(shoe);
          hand = undefined;
        } else if (event.type === 'round_start') {
          hand = { round: event.round, seq: record.seq, ts: record.ts, events: [shown] };
          shoeNow(record).hands.push(hand);
        } else if (hand) {
          hand.events.push(shown);
          if (event.type === 'hand_voided' && event.boxes === 'all') {
            hand.voided = { ...hand.voided, reason: event.reason };
          }
          if (event.type === 'result') {
            // As the feed shows it: the outcome the table exposed, not the journal's whole one.
            const outcome = (shown.outcome ?? {}) as Record<string, unknown>;
            hand.result = {
              winner: outcome.winner,
              announcement: outcome.announcement,
              outcome,
            };
            hand = undefined;
          }
        } else {
          shoeNow(record).events.push(shown);
          if (event.type === 'shoe_end') shoeNow(record).ended = event.reason;
        }
      }
    }
  } catch (error) {
    history.error = `the journal could not be read to the end: ${(error as Error).message}`;
  }
  return history;

  /** Outside the day, only where a shoe or hand starts and ends matters. */
  function followShape(record: JournalRecord): void {
    if (record.kind !== 'event') return;
    const event = record.data as DomainEvent;
    if (event.type === 'shoe_start') {
      shoe = undefined;
      hand = undefined;
    } else if (event.type === 'round_start' || event.type === 'result') {
      hand = undefined;
    }
  }
}

const DAY_MS = 86_400_000;

/**
 * The first seq stamped at or after `ts`, found by bisection (records are
 * stamped in order by one clock), so a day's history does not read the
 * table's whole past. A little before it, to pick up the shoe in play.
 */
async function firstSeqFrom(journal: JournalSource, ts: number): Promise<number> {
  let low = 1;
  let high = journal.lastSeq;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    let record: JournalRecord | undefined;
    try {
      [record] = await journal.readRange(middle, 1);
    } catch {
      return 1; // a damaged stretch: read from the start and say where it breaks
    }
    if (!record) break;
    if (record.ts < ts) low = middle + 1;
    else high = middle;
  }
  return Math.max(1, low - BACKTRACK);
}

/** Records read before the day's first, to know the shoe and hand in play at midnight. */
const BACKTRACK = 2000;

/** `YYYY-MM-DD` or a clear error. */
export function parseDay(value: string | null, now: number): string {
  if (value === null || value === '') return utcDay(now);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
    throw new RangeError(`day ${JSON.stringify(value)}: expected a date as YYYY-MM-DD`);
  }
  return value;
}
