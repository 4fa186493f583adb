/**
 * The last line of defence before anything leaves for the broker: nothing
 * may reveal an undealt card (docs/integrator/mqtt.md). A shuffler's `order` must
 * never be published, anywhere in a payload; a card dealt face down (the
 * dealer's hole card) is published without its value; a shuffler-order
 * mismatch is published without the card the shuffler expected there; an
 * alarm publishes the value of a card only when that card was exposed: it
 * is the card of the input that raised the alarm and left the shoe face up.
 * The decision is structural (any field holding a card code, or a list of
 * them), not a list of alarm kinds or message texts, so a new alarm about a
 * face-down card cannot leak it; an alarm names its cards in such fields, and
 * the message loses exactly the cards its fields withhold. Free text is never
 * masked by its look: a model name such as `TS-SHOE-SIM` is not a ten of
 * spades. A round's result shows its
 * outcome as the table exposed it (games/engines.ts `exposedOutcome`): a hand
 * collected face down, such as a fold, shows only its number of cards.
 */
import { exposedOutcome } from '../games/engines.ts';
import type { DomainEvent } from '../table/events.ts';

/**
 * The path of the first `order` key found in a value, or undefined. It runs
 * on every publication, so the walk allocates nothing until it finds one.
 */
export function findForbiddenKey(value: unknown): string | undefined {
  const path = forbiddenPath(value);
  if (!path) return undefined;
  let text = '';
  for (const step of path.reverse()) {
    text += typeof step === 'number' ? `[${step}]` : text ? `.${step}` : step;
  }
  return text;
}

/** The steps to the first `order` key, innermost first. */
function forbiddenPath(value: unknown): (string | number)[] | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = forbiddenPath(value[index]);
      if (found) {
        found.push(index);
        return found;
      }
    }
    return undefined;
  }
  const record = value as Record<string, unknown>;
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    if (key === 'order') return [key];
    const found = forbiddenPath(record[key]);
    if (found) {
      found.push(key);
      return found;
    }
  }
  return undefined;
}

export type Screened =
  | { publish: true; event: Record<string, unknown> }
  | { publish: false; reason: string };

/**
 * The card a journal input brought, and how it left the shoe: the one card
 * the events of that input may name, and only when it was dealt face up.
 */
export interface CardExposure {
  readonly card: string;
  readonly face: 'up' | 'down';
}

/** The exposure of a journal input, when it is a card record. */
export function exposureOfInput(data: unknown): CardExposure | undefined {
  if (data === null || typeof data !== 'object') return undefined;
  const record = data as { t?: unknown; card?: unknown; face?: unknown };
  if (record.t !== 'card' || typeof record.card !== 'string') return undefined;
  return { card: record.card, face: record.face === 'up' ? 'up' : 'down' };
}

/**
 * Decides what of an event may be published. `exposure`: the card of the
 * input whose events these are (absent: no card counts as exposed).
 */
export function screenEvent(event: DomainEvent, exposure?: CardExposure): Screened {
  const screened = screenKnown(event);
  if (!screened.publish || screened.event.type !== 'alarm') return screened;
  return { publish: true, event: hideUnexposedCards(screened.event, exposure) };
}

/** The card codes a field holds: one code, or a list of nothing else; undefined for any other value. */
function cardCodesOf(value: unknown): readonly string[] | undefined {
  if (typeof value === 'string') return WHOLE_CARD_CODE.test(value) ? [value] : undefined;
  if (!Array.isArray(value) || value.length === 0) return undefined;
  return value.every((item) => typeof item === 'string' && WHOLE_CARD_CODE.test(item))
    ? (value as string[])
    : undefined;
}

/** The message with each of `codes` that stands as a word in it replaced: nothing else is touched. */
function maskCodes(message: string, codes: ReadonlySet<string>): string {
  return codes.size === 0
    ? message
    : message.replace(CARD_CODE, (code) => (codes.has(code) ? '▒▒' : code));
}

/** Card fields of cards not exposed: withheld, and their cards masked in the message. */
function hideUnexposedCards(
  alarm: Record<string, unknown>,
  exposure: CardExposure | undefined,
): Record<string, unknown> {
  const exposed = exposure?.face === 'up' ? exposure.card : undefined;
  const withheld: string[] = Array.isArray(alarm.withheld) ? [...alarm.withheld] : [];
  const result: Record<string, unknown> = { ...alarm };
  const hiddenCodes = new Set<string>();
  for (const [key, value] of Object.entries(alarm)) {
    if (key === 'message') continue;
    const codes = cardCodesOf(value);
    if (codes === undefined || codes.every((code) => code === exposed)) continue;
    result[key] = null;
    if (!withheld.includes(key)) withheld.push(key);
    for (const code of codes) if (code !== exposed) hiddenCodes.add(code);
  }
  if (hiddenCodes.size === 0) return result;
  if (typeof alarm.message === 'string') result.message = maskCodes(alarm.message, hiddenCodes);
  result.hidden = true;
  if (withheld.length > 0) result.withheld = withheld;
  return result;
}

function screenKnown(event: DomainEvent): Screened {
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
  if (event.type === 'result') {
    // The journal keeps every card of the round for surveillance; consumers see what the table showed.
    return { publish: true, event: { ...event, outcome: exposedOutcome(event.outcome) } };
  }
  if (event.type === 'alarm' && event.kind === 'unexpected_card') {
    // A card drawn out of turn unseen is held and used as the next card
    // (000 § 14.b; 001 "Errores e infracciones" c): it is not exposed yet.
    const { card: _held, ...rest } = event;
    return {
      publish: true,
      event: {
        ...rest,
        message:
          typeof event.card === 'string'
            ? maskCodes(event.message, new Set([event.card]))
            : event.message,
        card: null,
        hidden: true,
      },
    };
  }
  return { publish: true, event: { ...event } };
}

const CARD_CODE = /\b[A2-9TJQK][SHDC]\b/g;
const WHOLE_CARD_CODE = /^[A2-9TJQK][SHDC]$/;
