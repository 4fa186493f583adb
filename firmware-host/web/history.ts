/**
 * The History page's data: one UTC day of the journal, grouped into the
 * units of the table's game by its plug-in (`dayHistory`: a card table's
 * shoes and hands, a wheel's games), its events screened by the same guard
 * as MQTT (a face-down card stays a back here too), and the requests made
 * from the console that day with who made them.
 */
import type { DayGrouping } from '../games/game.ts';
import type { JournalRecord } from '../journal/record.ts';
import { utcDay } from '../journal/record.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import { type CardExposure, exposureOfInput } from '../mqtt/guard.ts';
import { eventFrameData } from './feed.ts';

/** A day's history: the game's units (`shoes`, `games`), the requests, and any read error. */
export type HistoryDay<Units extends object = object> = { day: string } & Units & {
    /** Operator inputs of the day that changed the table: requests with who made them. */
    requests: Array<{ seq: number; ts: number; what: string; by: string; reason?: string }>;
    /** Set when the journal could not be read to the end (a broken chain, a damaged file). */
    error?: string;
  };

const PAGE = 512;

/** A day grouped by the table's game (`gameOf(ruleset).dayHistory()`). */
export async function readHistoryDay<Units extends object>(
  journal: JournalSource,
  day: string,
  grouping: DayGrouping<Units>,
): Promise<HistoryDay<Units>> {
  const requests: HistoryDay['requests'] = [];
  let error: string | undefined;
  /** The card of the latest input, for the events it caused (an alarm names it only when face up). */
  let exposure: CardExposure | undefined;
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
        const read = { ...record, data: record.data as Record<string, unknown> };
        if (utcDay(record.ts) !== day) {
          // Keeps the game's unit open across midnight, but only shows this day's records.
          grouping.follow(read);
          exposure = undefined;
          continue;
        }
        if (record.kind === 'input') {
          exposure = exposureOfInput(record.data);
          const request = requestOf(record);
          if (request) requests.push(request);
          grouping.take(read);
        } else if (record.kind === 'meta') {
          const meta = record.data as { type: string; ruleset?: string; src?: string };
          if (meta.type === 'ruleset' && meta.src?.startsWith('web:')) {
            requests.push({
              seq: record.seq,
              ts: record.ts,
              what: `ruleset ${meta.ruleset}`,
              by: meta.src.slice(4),
            });
          }
          grouping.take(read);
        } else {
          grouping.take({ ...read, shown: eventFrameData(record, exposure) });
        }
      }
    }
  } catch (failure) {
    error = `the journal could not be read to the end: ${(failure as Error).message}`;
  }
  return { day, ...grouping.units(), requests, ...(error === undefined ? {} : { error }) };
}

/** What a console request's input is called on the page: the button's name, not the record's. */
const REQUEST_NAMES: Readonly<Record<string, string>> = { shuffle: 'new shoe' };

/**
 * A console request of the input, with who made it. Every input journaled as
 * `web:<user>` is one (a console New shoe is a `shuffle`; a shuffler's own
 * shuffle is journaled as its device's, so it is none).
 */
function requestOf(record: JournalRecord): HistoryDay['requests'][number] | undefined {
  const input = record.data as { t?: string; src?: string; reason?: string };
  if (typeof input.src !== 'string' || !input.src.startsWith('web:')) return undefined;
  const type = String(input.t);
  return {
    seq: record.seq,
    ts: record.ts,
    what: Object.hasOwn(REQUEST_NAMES, type) ? REQUEST_NAMES[type]! : type,
    by: input.src.slice(4),
    ...(input.reason ? { reason: input.reason } : {}),
  };
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
