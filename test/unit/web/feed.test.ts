/** The live feed against an in-memory journal: resume by seq, each event once, screened like MQTT. */
import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { EventStream, type FeedSource, resumeSeq } from '../../../firmware-host/web/feed.ts';
import { MemoryJournal } from '../../helpers/memory-journal.ts';
import { until } from '../../helpers/until.ts';

const hash = '0'.repeat(64);
const card = (seq: number, code: string, face: 'up' | 'down' = 'up'): JournalRecord => ({
  seq,
  ts: 1_700_000_000_000 + seq,
  prev: hash,
  kind: 'event',
  data: { type: 'card', card: code, to: 'player', face },
});
const input = (seq: number): JournalRecord => ({
  seq,
  ts: 1_700_000_000_000 + seq,
  prev: hash,
  kind: 'input',
  data: { t: 'card', card: '2C' } as never,
});

class FakeResponse extends EventEmitter {
  text = '';
  /** What the socket has not taken yet; a test sets it to play a browser that stopped reading. */
  writableLength = 0;
  ended = false;
  writeHead(): this {
    return this;
  }
  write(chunk: string): boolean {
    this.text += chunk;
    return true;
  }
  end(): void {
    this.ended = true;
  }
  /** The frames written, parsed. */
  frames(): Array<{ event: string; id?: number; data: Record<string, unknown> }> {
    return this.text
      .split('\n\n')
      .filter((frame) => frame.includes('data: '))
      .map((frame) => ({
        event: /^event: (.*)$/m.exec(frame)?.[1] ?? 'message',
        ...(/^id: (\d+)$/m.test(frame) ? { id: Number(/^id: (\d+)$/m.exec(frame)![1]) } : {}),
        data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!),
      }));
  }
  events() {
    return this.frames().filter((frame) => frame.event === 'message');
  }
}

function source(
  journal: MemoryJournal,
  snapshot: Record<string, unknown> = { shoe: null },
): FeedSource {
  return {
    journal,
    snapshot: () => snapshot,
    published: () => ({}),
    onChange: () => () => undefined,
  };
}

/** Resolves once every stream has sent its backlog and is live. */
const live = (...streams: EventStream[]) =>
  until(() => streams.every((stream) => stream.isLive), 'the backlog sent');

function open(journal: MemoryJournal, since: number | undefined, freshFrom?: number) {
  const response = new FakeResponse();
  const stream = new EventStream(response as unknown as ServerResponse, {
    source: source(journal),
    since,
    hello: { table: 't' },
    freshFrom,
    heartbeatMs: 60_000,
  });
  return { response, stream };
}

describe('EventStream', () => {
  it('resumes after Last-Event-ID: the next event, `after` naming the seq before, inputs skipped', async () => {
    const journal = new MemoryJournal();
    journal.records.push(
      card(1, '2C'),
      input(2),
      card(3, '3C'),
      input(4),
      card(5, '4C'),
      card(6, '5C'),
    );
    const { response, stream } = open(journal, 3);
    await live(stream);
    const hello = response.frames().find((f) => f.event === 'hello')!;
    expect(hello.data).toMatchObject({ table: 't', from: 3, resumed: true });
    expect(response.events().map((e) => [e.id, e.data.after, e.data.card])).toEqual([
      [5, 3, '4C'],
      [6, 5, '5C'],
    ]);
    journal.append(input(7), card(8, '6C'));
    expect(response.events().at(-1)).toMatchObject({
      id: 8,
      data: { after: 6, card: '6C', topic: 'card' },
    });
    stream.close();
    expect(response.ended).toBe(true);
  });

  it('loses and repeats nothing made durable while the backlog is being read', async () => {
    const journal = new MemoryJournal();
    for (let seq = 1; seq <= 600; seq++) journal.records.push(card(seq, '9D'));
    // While the first backlog page is in flight, 601 and 602 become durable (and are also in the next page).
    journal.duringRead = () => journal.append(card(601, 'TD'), card(602, 'JD'));
    const { response, stream } = open(journal, 0);
    await live(stream);
    const ids = response.events().map((e) => e.id);
    expect(ids).toEqual(Array.from({ length: 602 }, (_, i) => i + 1));
    journal.append(card(603, 'QD'));
    expect(response.events().at(-1)!.id).toBe(603);
  });

  it('starts a fresh page at the shoe (freshFrom) or now, and ignores a resume point ahead of the journal', async () => {
    const journal = new MemoryJournal();
    journal.records.push(card(1, '2C'), card(2, '3C'), card(3, '4C'));
    const fresh = open(journal, undefined, 1);
    const ahead = open(journal, 99);
    const now = open(journal, undefined);
    await live(fresh.stream, ahead.stream, now.stream);
    expect(fresh.response.events().map((e) => e.id)).toEqual([2, 3]);
    expect(ahead.response.frames()[0]!.data).toMatchObject({ from: 3, resumed: false });
    expect(ahead.response.events()).toEqual([]);
    expect(now.response.events()).toEqual([]);
  });

  it('sends a face-down card without its value and withholds an event carrying an order', async () => {
    const journal = new MemoryJournal();
    journal.records.push(card(1, 'KS', 'down'), {
      seq: 2,
      ts: 1,
      prev: hash,
      kind: 'event',
      data: { type: 'alarm', kind: 'shuffle_suspect', message: 'x', order: ['AS'] },
    });
    const { response, stream } = open(journal, 0);
    await live(stream);
    expect(response.text).not.toContain('KS');
    expect(response.text).not.toContain('"AS"');
    expect(response.events().map((e) => e.data)).toEqual([
      expect.objectContaining({ seq: 1, card: null, hidden: true }),
      expect.objectContaining({ seq: 2, type: 'event_withheld' }),
    ]);
  });

  it('names in an alarm only the card its input showed face up, as MQTT does', async () => {
    const journal = new MemoryJournal();
    const cardInput = (seq: number, code: string, face: 'up' | 'down'): JournalRecord => ({
      seq,
      ts: 1,
      prev: hash,
      kind: 'input',
      data: { t: 'card', card: code, back: 'red', face } as never,
    });
    const alarm = (seq: number, kind: string, code: string, message: string): JournalRecord => ({
      seq,
      ts: 1,
      prev: hash,
      kind: 'event',
      data: { type: 'alarm', kind, card: code, message } as never,
    });
    journal.records.push(
      cardInput(1, 'JD', 'up'),
      alarm(2, 'face_up_card', 'JD', 'JD was found face up in the shoe'),
      cardInput(3, '7H', 'down'),
      alarm(4, 'wrong_back_colour', '7H', '7H has a green back'),
    );
    const { response, stream } = open(journal, 0);
    await live(stream);
    expect(response.events().map((e) => [e.data.card, e.data.message])).toEqual([
      ['JD', 'JD was found face up in the shoe'],
      [null, '▒▒ has a green back'],
    ]);
    expect(response.text).not.toContain('7H');
    // Resumed after the input, the page cannot tell how its card left the shoe: masked.
    const resumed = open(journal, 1);
    await live(resumed.stream);
    expect(resumed.response.events()[0]!.data).toMatchObject({ card: null, hidden: true });
  });

  it('sends no snapshot that carries a shuffler order, but says why', () => {
    const journal = new MemoryJournal();
    const response = new FakeResponse();
    new EventStream(response as unknown as ServerResponse, {
      source: source(journal, { shoe: { order: ['AS'] } }),
      since: undefined,
      hello: {},
      heartbeatMs: 60_000,
    }).close();
    expect(response.frames().map((f) => f.event)).toEqual(['hello', 'notice']);
    expect(response.text).not.toContain('"AS"');
  });
});

describe('a browser that stopped reading', () => {
  it('is dropped, not buffered for, and resumes from its last id later', async () => {
    const journal = new MemoryJournal();
    journal.records.push(card(1, '2C'));
    const { response, stream } = open(journal, 0);
    await live(stream);
    response.writableLength = 2 * 1024 * 1024;
    journal.append(card(2, '3C'));
    expect(stream.isClosed).toBe(true);
    expect(response.ended).toBe(true);
    expect(response.text).not.toContain('3C');
    const again = open(journal, 1);
    await live(again.stream);
    expect(again.response.events().map((e) => e.id)).toEqual([2]);
  });
});

describe('a stream whose login ended', () => {
  it('closes on revalidation', () => {
    const journal = new MemoryJournal();
    let allowed = true;
    const response = new FakeResponse();
    const stream = new EventStream(response as unknown as ServerResponse, {
      source: source(journal),
      since: undefined,
      hello: {},
      heartbeatMs: 60_000,
      stillAllowed: () => allowed,
    });
    expect(stream.revalidate()).toBe(true);
    allowed = false;
    expect(stream.revalidate()).toBe(false);
    expect(stream.isClosed).toBe(true);
    expect(response.ended).toBe(true);
  });
});

describe('resumeSeq', () => {
  it('prefers Last-Event-ID, falls back to ?since=, ignores garbage', () => {
    expect(resumeSeq('12', '5')).toBe(12);
    expect(resumeSeq(undefined, '5')).toBe(5);
    expect(resumeSeq('x', null)).toBeUndefined();
    expect(resumeSeq('-1', '1e3')).toBe(1000);
    expect(resumeSeq('', null)).toBeUndefined();
  });
});
