/**
 * The last line of defence before anything leaves for the broker: nothing
 * may reveal an undealt card (DESIGN.md § MQTT). A shuffler's `order` must
 * never be published, anywhere in a payload; a card dealt face down (the
 * dealer's hole card) is published without its value; a shuffler-order
 * mismatch is published without the card the shuffler expected there.
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
  if (event.type === 'alarm' && event.kind === 'sequence_mismatch') {
    // `expected` is the card the shuffler put at this position: after a swap
    // it is usually still in the shoe. The journal keeps it for the
    // supervisor (`tableside replay`); the broker never sees it.
    const { expected: _undealt, message: _names, ...rest } = event;
    const position = typeof event.position === 'number' ? event.position + 1 : '?';
    return {
      publish: true,
      event: {
        ...rest,
        message: `card ${position} of the shuffled shoe does not match the shuffler's reported order`,
        expected: null,
        withheld: ['expected'],
      },
    };
  }
  if (event.type === 'alarm' && event.kind === 'unexpected_card') {
    // A card drawn out of turn unseen is held and used as the next card
    // (000 § 14.b; 001 "Errores e infracciones" c): it is not exposed yet.
    const { card: _held, ...rest } = event;
    return {
      publish: true,
      event: { ...rest, message: event.message.replace(CARD_CODE, '▒▒'), card: null, hidden: true },
    };
  }
  return { publish: true, event: { ...event } };
}

const CARD_CODE = /\b[A2-9TJQK][SHDC]\b/g;
