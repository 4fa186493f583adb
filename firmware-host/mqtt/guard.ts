/**
 * The last line of defence before anything leaves for the broker: nothing
 * may reveal an undealt card (DESIGN.md § MQTT). A shuffler's `order` must
 * never be published, anywhere in a payload; a card dealt face down (the
 * dealer's hole card) is published without its value.
 */
import type { DomainEvent } from '../table/events.ts';

/** The path of the first `order` key found in a value, or undefined. */
export function findForbiddenKey(value: unknown, path = ''): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findForbiddenKey(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const here = path ? `${path}.${key}` : key;
    if (key === 'order') return here;
    const found = findForbiddenKey(item, here);
    if (found) return found;
  }
  return undefined;
}

export type Screened =
  | { publish: true; event: Record<string, unknown> }
  | { publish: false; reason: string };

/** Decides what of an event may be published. */
export function screenEvent(event: DomainEvent): Screened {
  const forbidden = findForbiddenKey(event);
  if (forbidden) {
    return { publish: false, reason: `it carries "${forbidden}", which may reveal undealt cards` };
  }
  if (event.type === 'card' && event.face === 'down') {
    const { card: _hidden, ...rest } = event;
    return { publish: true, event: { ...rest, card: null, hidden: true } };
  }
  return { publish: true, event: { ...event } };
}
