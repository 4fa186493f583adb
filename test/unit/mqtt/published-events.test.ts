import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { publicationOf } from '../../../firmware-host/mqtt/bridge.ts';
import { exposureOfInput } from '../../../firmware-host/mqtt/guard.ts';
import { checkPublishedEvents, readCapture } from '../../../firmware-host/mqtt/published-events.ts';

const record = (seq: number, kind: JournalRecord['kind'], data: object): JournalRecord =>
  ({ seq, ts: 1_000 + seq, kind, prev: '0'.repeat(64), data }) as JournalRecord;

const journal: JournalRecord[] = [
  record(1, 'meta', { type: 'file' }),
  record(2, 'input', { t: 'card', card: 'AS', back: 'red', face: 'up' }),
  record(3, 'event', { type: 'card', card: 'AS', to: 'player', face: 'up', index: 0 }),
  record(4, 'input', { t: 'card', card: 'KD', back: 'red', face: 'down' }),
  record(5, 'event', { type: 'card', card: 'KD', to: 'banker', face: 'down', index: 1 }),
];

/** What the bridge published for each event, as `mosquitto_sub -v` prints it. */
function captured(records: readonly JournalRecord[]): string {
  return records
    .filter((r) => r.kind === 'event')
    .map((r) => {
      const input = records.findLast((i) => i.kind === 'input' && i.seq < r.seq)!;
      const published = publicationOf(r, exposureOfInput(input.data));
      return `tableside/t1/events/${published.kind} ${published.payload}\n`;
    })
    .join('');
}

describe('a capture of the published events checked against the journal', () => {
  it('reads mosquitto_sub -v, plain payloads and -F %j, and skips what is no journaled event', () => {
    const text = [
      'tableside/t1/events/card {"seq":3,"ts":1003,"type":"card"}',
      '{"seq":5,"ts":1005,"type":"card"}',
      '{"tst":"2026-11-27T05:00:00Z","topic":"tableside/t1/events/hand","qos":1,"payload":"{\\"seq\\":7,\\"type\\":\\"hand_start\\"}"}',
      'tableside/t1/events/alarm {"type":"alarm","kind":"journal_failed","journaled":false}',
      'tableside/t1/state {"shoe":1}',
      'garbage',
    ].join('\n');
    const reading = readCapture(text);
    expect(reading.events.map((event) => [event.line, event.payload.seq, event.topic])).toEqual([
      [1, 3, 'tableside/t1/events/card'],
      [2, 5, undefined],
      [3, 7, 'tableside/t1/events/hand'],
    ]);
    expect(reading.skipped.map((skip) => skip.line)).toEqual([5, 6]);
  });

  it('passes what the bridge published, a face-down card published without its value included', () => {
    const { events } = readCapture(captured(journal));
    expect(events[1]!.payload).toMatchObject({ card: null, hidden: true });
    expect(checkPublishedEvents(journal, events)).toMatchObject({ ok: true, checked: 2 });
  });

  it('names a published event whose record was changed, and one whose record is gone', () => {
    const { events } = readCapture(captured(journal));
    const rewritten = journal
      .map((r) => (r.seq === 3 ? { ...r, data: { ...(r.data as object), card: 'KS' } } : r))
      .filter((r) => r.seq !== 5) as JournalRecord[];
    const report = checkPublishedEvents(rewritten, events);
    expect(report.ok).toBe(false);
    expect(report.findings).toEqual([
      expect.objectContaining({
        problem: 'differs',
        seq: 3,
        line: 1,
        message: expect.stringContaining('card: published "AS", journal "KS"'),
      }),
      expect.objectContaining({ problem: 'missing', seq: 5, line: 2 }),
    ]);
  });
});
