/**
 * What the bridge publishes for an event record, pure: the topic kind and
 * the payload, or only its seq when the guard withholds it. `journal verify
 * --events` and the web console's feed compare with the same function.
 */
import type { JournalRecord } from '../../journal/record.ts';
import { type DomainEvent, eventTopicKind } from '../../table/events.ts';
import { type CardExposure, screenEvent } from '../guard.ts';
import type { EventTopicKind } from '../topics.ts';

/**
 * The topic kind and payload of an event record (`withheld`: the reason only
 * its seq may go out). `exposure`: the card of the input these events follow.
 */
export function publicationOf(
  record: JournalRecord,
  exposure: CardExposure | undefined,
): { kind: EventTopicKind; payload: string; withheld?: string } {
  const event = record.data as DomainEvent;
  const screened = screenEvent(event, exposure);
  if (screened.publish) {
    return {
      kind: eventTopicKind(event),
      payload: eventPayload(record.seq, record.ts, screened.event),
    };
  }
  // Consumers still see the seq (no gap), but nothing of its content.
  return {
    kind: 'alarm',
    payload: eventPayload(record.seq, record.ts, {
      type: 'event_withheld',
      reason: screened.reason,
    }),
    withheld: screened.reason,
  };
}

/**
 * `{"seq":…,"ts":…,<the event's fields>}`, as `{ seq, ts, ...event }` would
 * stringify (a field of the event named seq or ts comes later and wins on
 * parsing, as it did in the spread), without copying the event first.
 */
export function eventPayload(seq: number, ts: number, event: object): string {
  const fields = JSON.stringify(event);
  const head = `{"seq":${seq},"ts":${ts}`;
  return fields === '{}' ? `${head}}` : `${head},${fields.slice(1)}`;
}
