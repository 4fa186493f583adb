/**
 * A shuffled order does not fit in one 250-byte line (8 decks are 416
 * cards), so a card-reading shuffler sends `SHUFFLED,<count>,order` (or
 * `SHUFFLED2,<count>,order,<back>...`, which names the back colours too) and
 * then `ORDER,<offset>,<card>...` chunks of at most 64 cards (PROTOCOL.md §
 * Shuffler). These helpers split an order into messages and put it back
 * together. The order is confidential: it never leaves the host.
 */
import type { BackColour, CardCode } from './cards.ts';
import { ProtocolError } from './errors.ts';
import {
  MAX_CARD_COUNT,
  ORDER_CHUNK_CARDS,
  type OrderMessage,
  type Shuffled2Message,
  type ShuffledMessage,
} from './messages.ts';

/** What announces a finished shuffle: SHUFFLED (1.0), or SHUFFLED2 with the back colours (1.1). */
export type ShuffleAnnouncement = ShuffledMessage | Shuffled2Message;

/**
 * The messages reporting a finished shuffle: SHUFFLED, then the ORDER chunks
 * when the order is known. With `backs` (non-empty), SHUFFLED2 instead of
 * SHUFFLED: only for a host that knows it (`peerKnows('SHUFFLED2', ...)`).
 */
export function shuffledMessages(
  shuffled: ({ readonly count: number } | { readonly order: readonly CardCode[] }) & {
    readonly backs?: readonly BackColour[];
  },
  chunkCards: number = ORDER_CHUNK_CARDS,
): Array<ShuffleAnnouncement | OrderMessage> {
  if (!Number.isInteger(chunkCards) || chunkCards < 1 || chunkCards > ORDER_CHUNK_CARDS) {
    throw new ProtocolError(
      'bad_options',
      `bad chunk size ${chunkCards}: expected 1-${ORDER_CHUNK_CARDS}`,
    );
  }
  const backs = shuffled.backs?.length ? [...shuffled.backs] : undefined;
  const announce = (count: number, order: boolean): ShuffleAnnouncement =>
    backs ? { type: 'SHUFFLED2', count, order, backs } : { type: 'SHUFFLED', count, order };
  if (!('order' in shuffled)) return [announce(shuffled.count, false)];
  const order = shuffled.order;
  if (order.length > MAX_CARD_COUNT) {
    throw new ProtocolError('bad_message', `${order.length} cards: at most ${MAX_CARD_COUNT}`);
  }
  const messages: Array<ShuffleAnnouncement | OrderMessage> = [
    announce(order.length, order.length > 0),
  ];
  for (let offset = 0; offset < order.length; offset += chunkCards) {
    messages.push({ type: 'ORDER', offset, cards: order.slice(offset, offset + chunkCards) });
  }
  return messages;
}

export type ShuffleReport =
  | { readonly kind: 'pending'; readonly received: number; readonly count: number }
  | {
      readonly kind: 'complete';
      readonly count: number;
      readonly order?: readonly CardCode[];
      /** The back colours, when the shuffler reported them (SHUFFLED2). */
      readonly backs?: readonly BackColour[];
    }
  | { readonly kind: 'error'; readonly error: string };

/**
 * Collects SHUFFLED (or SHUFFLED2) and its ORDER chunks into one report.
 * Chunks are placed by offset, so their arrival order does not matter; a new
 * SHUFFLED starts over. Feed it every SHUFFLED, SHUFFLED2 and ORDER message
 * the shuffler delivers.
 */
export class ShuffleOrderAssembler {
  #count = 0;
  #slots: Array<CardCode | undefined> | undefined;
  #received = 0;
  #backs: readonly BackColour[] | undefined;

  accept(message: ShuffleAnnouncement | OrderMessage): ShuffleReport {
    if (message.type === 'SHUFFLED' || message.type === 'SHUFFLED2') {
      this.#count = message.count;
      this.#received = 0;
      this.#backs = message.type === 'SHUFFLED2' ? [...message.backs] : undefined;
      if (!message.order || message.count === 0) {
        this.#slots = undefined;
        return this.#complete();
      }
      this.#slots = new Array<CardCode | undefined>(message.count).fill(undefined);
      return { kind: 'pending', received: 0, count: message.count };
    }
    const slots = this.#slots;
    if (slots === undefined)
      return { kind: 'error', error: 'ORDER without a SHUFFLED announcing an order' };
    if (message.offset + message.cards.length > slots.length) {
      return {
        kind: 'error',
        error: `ORDER at ${message.offset} with ${message.cards.length} cards runs past the ${slots.length} announced`,
      };
    }
    for (const [index, card] of message.cards.entries()) {
      const slot = message.offset + index;
      if (slots[slot] === undefined) this.#received++;
      slots[slot] = card;
    }
    if (this.#received < slots.length) {
      return { kind: 'pending', received: this.#received, count: this.#count };
    }
    this.#slots = undefined;
    return this.#complete(slots as CardCode[]);
  }

  #complete(order?: CardCode[]): ShuffleReport {
    return {
      kind: 'complete',
      count: this.#count,
      ...(order === undefined ? {} : { order }),
      ...(this.#backs === undefined ? {} : { backs: this.#backs }),
    };
  }
}
