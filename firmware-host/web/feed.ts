/**
 * The console's live data: the journal's events (the same events, screened
 * by the same guard as MQTT), the table snapshot and what the game publishes
 * besides it (its plug-in's published folds: baccarat's roads), pushed as
 * Server-Sent Events. Each event frame has `id: <seq>`, so a browser that
 * reconnects sends `Last-Event-ID` and gets exactly what it missed: the
 * backlog is read from the journal, then the live records follow, each seq
 * once. Each event frame also names the seq of the frame before it
 * (`after`), so the page can prove it saw no gap.
 *
 *   hello  {from, user, role, csrf, table, ruleset, game}   (no id)
 *   state  the table snapshot                                (no id)
 *   roads  the scoreboard (baccarat tables: a frame per name the game publishes) (no id)
 *   wheel  the wheel watch (roulette tables, wheel-watch.ts)  (no id)
 *   (message) {seq, ts, after, type, ...event}               id: seq
 */
import type { ServerResponse } from 'node:http';
import { resultWordsOf } from '../games/registry.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { JournalSource } from '../mqtt/bridge.ts';
import {
  type CardExposure,
  exposureOfInput,
  findForbiddenKey,
  screenEvent,
} from '../mqtt/guard.ts';
import type { DomainEvent } from '../table/events.ts';
import { eventTopicKind } from '../table/events.ts';

/** What the feed needs of the daemon. */
export interface FeedSource {
  readonly journal: JournalSource;
  snapshot(): Record<string, unknown>;
  /** What the table's game publishes besides its state, by name: each a frame of that name (baccarat's `roads`). */
  published(): Readonly<Record<string, Record<string, unknown>>>;
  /** The wheel watch (roulette tables: last spins, hot and cold numbers, bias verdicts). */
  wheel?(): Record<string, unknown> | undefined;
  /** Called after each durable batch (and ruleset change); returns an unsubscribe function. */
  onChange(listener: () => void): () => void;
}

/**
 * One event as the console (and MQTT) may show it. `exposure`: the card of
 * the journal input whose event this is (`exposureOfInput`), as the bridge
 * passes it: an alarm names that card only when it left the shoe face up.
 */
export function eventFrameData(
  record: JournalRecord,
  exposure?: CardExposure,
): Record<string, unknown> {
  const event = record.data as DomainEvent;
  const screened = screenEvent(event, exposure);
  if (!screened.publish) {
    return {
      seq: record.seq,
      ts: record.ts,
      topic: 'alarm',
      type: 'event_withheld',
      reason: screened.reason,
    };
  }
  // A result in the game's own sentences, the same on every page (History, the Table page).
  const words = resultWordsOf(screened.event as DomainEvent);
  return {
    seq: record.seq,
    ts: record.ts,
    topic: eventTopicKind(event),
    ...screened.event,
    ...(words ? { words } : {}),
  };
}

/** The snapshot if the guard lets it out, else a notice saying why not. */
export function screenedSnapshot(
  snapshot: Record<string, unknown>,
): { ok: true; snapshot: Record<string, unknown> } | { ok: false; reason: string } {
  const forbidden = findForbiddenKey(snapshot);
  return forbidden
    ? { ok: false, reason: `state withheld: it carries "${forbidden}"` }
    : { ok: true, snapshot };
}

export interface StreamOptions {
  source: FeedSource;
  /** The last seq the client has (Last-Event-ID or ?since=); absent: from now. */
  since: number | undefined;
  hello: Record<string, unknown>;
  /** Where a client with nothing starts (the seq before the shoe in play began); default: now. */
  freshFrom?: number | undefined;
  heartbeatMs?: number;
  /** Whether the login the stream was opened with still holds (checked on each heartbeat and on `revalidate`). */
  stillAllowed?: () => boolean;
}

const BACKLOG_PAGE = 256;
/** Bytes a stream may have waiting for a slow browser before it is closed. */
const MAX_BUFFERED = 1024 * 1024;

export class EventStream {
  private readonly response: ServerResponse;
  private readonly source: FeedSource;
  /** The highest journal seq this stream has dealt with (sent or skipped). */
  private cursor: number;
  /** The seq of the last event frame sent (or the starting point). */
  private lastSent: number;
  private live = false;
  private closed = false;
  private readonly queued: JournalRecord[] = [];
  private readonly unsubscribers: Array<() => void> = [];
  private heartbeat: NodeJS.Timeout | undefined;
  private refreshPending = false;
  private readonly stillAllowed: () => boolean;
  /** The card of the latest journal input read, for the events it caused (see guard.ts). */
  private exposure: CardExposure | undefined;

  constructor(response: ServerResponse, options: StreamOptions) {
    this.response = response;
    this.source = options.source;
    this.stillAllowed = options.stillAllowed ?? (() => true);
    const lastSeq = options.source.journal.lastSeq;
    // A client ahead of the journal (another table's id, a restored journal) starts from now.
    const since =
      options.since !== undefined && options.since <= lastSeq ? options.since : undefined;
    const fresh =
      options.freshFrom !== undefined && options.freshFrom <= lastSeq ? options.freshFrom : lastSeq;
    this.cursor = since ?? fresh;
    this.lastSent = this.cursor;
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    response.on('close', () => this.close());
    // Subscribed before the backlog is read: nothing made durable in between is missed.
    this.unsubscribers.push(
      this.source.journal.onDurable((records) => {
        if (this.live) this.sendRecords(records);
        else this.queued.push(...records);
      }),
      this.source.onChange(() => this.refreshSoon()),
    );
    // Browsers retry 0.4 s after a drop (a daemon restart): the first card back is on screen within a second.
    this.write(`retry: 400\n\n`);
    this.frame('hello', { ...options.hello, from: this.cursor, resumed: since !== undefined });
    this.sendState();
    this.heartbeat = setInterval(
      () => (this.revalidate() ? this.write(': keep-alive\n\n') : undefined),
      options.heartbeatMs ?? 15_000,
    );
    this.heartbeat.unref();
    void this.catchUp();
  }

  /** Closes the stream when its login ended (logged out, expired); true while it holds. */
  revalidate(): boolean {
    if (this.closed) return false;
    if (this.stillAllowed()) return true;
    this.close();
    return false;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** The backlog is sent: each record now goes out as it becomes durable. */
  get isLive(): boolean {
    return this.live;
  }

  private async catchUp(): Promise<void> {
    try {
      while (!this.closed && this.cursor < this.source.journal.lastSeq) {
        const page = await this.source.journal.readRange(this.cursor + 1, BACKLOG_PAGE);
        if (page.length === 0) break; // the rest is not durable yet: it comes live
        this.sendRecords(page);
      }
    } catch (error) {
      this.frame('notice', {
        level: 'error',
        message: `history not readable: ${(error as Error).message}`,
      });
    }
    if (this.closed) return;
    this.live = true;
    this.sendRecords(this.queued.splice(0));
  }

  private sendRecords(records: readonly JournalRecord[]): void {
    for (const record of records) {
      if (record.seq <= this.cursor) continue;
      this.cursor = record.seq;
      // Starting mid-journal, no card counts as exposed until its input is read.
      if (record.kind === 'input') this.exposure = exposureOfInput(record.data);
      if (record.kind !== 'event') continue;
      const data = { ...eventFrameData(record, this.exposure), after: this.lastSent };
      this.lastSent = record.seq;
      this.write(`id: ${record.seq}\ndata: ${JSON.stringify(data)}\n\n`);
    }
  }

  /** State and roads follow the table once per turn at most (a burst of cards is one frame). */
  private refreshSoon(): void {
    if (this.refreshPending || this.closed) return;
    this.refreshPending = true;
    setImmediate(() => {
      this.refreshPending = false;
      this.sendState();
    });
  }

  private sendState(): void {
    if (this.closed) return;
    const screened = screenedSnapshot(this.source.snapshot());
    if (screened.ok) this.frame('state', screened.snapshot);
    else this.frame('notice', { level: 'error', message: screened.reason });
    for (const [name, payload] of Object.entries(this.source.published())) {
      this.frame(name, payload);
    }
    const wheel = this.source.wheel?.();
    if (wheel) this.frame('wheel', wheel);
  }

  private frame(name: string, data: unknown): void {
    this.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  private write(text: string): void {
    if (this.closed) return;
    // A browser that stopped reading (asleep, on a dead link) is dropped rather than
    // buffered for: it resumes from its Last-Event-ID when it comes back.
    if (this.response.writableLength > MAX_BUFFERED) {
      this.close();
      return;
    }
    this.response.write(text);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    this.response.end();
  }
}

/** The seq a client resumes from: `Last-Event-ID`, else `?since=`; undefined for none or garbage. */
export function resumeSeq(
  lastEventId: string | undefined,
  since: string | null,
): number | undefined {
  for (const value of [lastEventId, since ?? undefined]) {
    if (value === undefined || value === '') continue;
    const seq = Number(value);
    if (Number.isSafeInteger(seq) && seq >= 0) return seq;
  }
  return undefined;
}
