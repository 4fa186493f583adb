/** Shared builders for the table-session tests: records, sessions, event filters. */
import type { CardCode } from '../../../device-protocol/cards.ts';
import type { SessionOptionsInput } from '../../../firmware-host/games/cards/table/index.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { AlarmKind, DomainEvent } from '../../../firmware-host/table/events.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';

export function shuffle(decks: number, back = 'red', order?: CardCode[]): TableLogRecord {
  return { t: 'shuffle', decks, backs: [back], ...(order ? { order } : {}) };
}

export function card(code: CardCode, back = 'red', face: 'up' | 'down' = 'down'): TableLogRecord {
  return { t: 'card', card: code, back, face };
}

/** Cards from a space-separated list. */
export function cards(list: string, back = 'red'): TableLogRecord[] {
  return list
    .split(/\s+/)
    .filter(Boolean)
    .map((code) => card(code as CardCode, back));
}

export function round(boxes?: number[]): TableLogRecord {
  return { t: 'round', ...(boxes ? { boxes } : {}) };
}

export function action(action: string, box?: number): TableLogRecord {
  return { t: 'action', action, ...(box === undefined ? {} : { box }) };
}

export function play(
  ruleset: string,
  records: readonly TableLogRecord[],
  options: SessionOptionsInput = {},
): { session: TableSession; events: DomainEvent[] } {
  const session = new TableSession(sessionConfig(ruleset, options));
  const events = records.flatMap((record) => session.apply(record));
  return { session, events };
}

export type Alarm = Extract<DomainEvent, { type: 'alarm' }>;

export function alarms(events: readonly DomainEvent[], kind?: AlarmKind): Alarm[] {
  return events.filter(
    (event): event is Alarm =>
      event.type === 'alarm' && (kind === undefined || event.kind === kind),
  );
}

export function ofType<T extends DomainEvent['type']>(
  events: readonly DomainEvent[],
  type: T,
): Extract<DomainEvent, { type: T }>[] {
  return events.filter((event): event is Extract<DomainEvent, { type: T }> => event.type === type);
}

/** The turn-and-burn prefix for a new Punto Banco shoe: a turned 2 and its two burns. */
export const BURN_TWO = cards('2S 3S 4S');
