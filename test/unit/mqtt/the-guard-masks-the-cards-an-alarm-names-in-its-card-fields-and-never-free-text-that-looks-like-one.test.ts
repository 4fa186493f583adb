/**
 * Issue 34, item 8: the `device_unpaired` alarm reached the broker (and the
 * web feed, which shares the guard) as "unpaired device (▒▒-SHOE-SIM …)": the
 * guard masked every word of the message that looked like a card code, and
 * "TS" is a ten of spades. An alarm names its cards in fields (`card`,
 * `expected`, `seen`, a list of codes); the guard withholds those of cards
 * not exposed and masks exactly those cards in the message, nothing else.
 */
import { describe, expect, it } from 'vitest';
import { screenEvent } from '../../../firmware-host/mqtt/guard.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';

const published = (event: DomainEvent, exposure?: Parameters<typeof screenEvent>[1]) => {
  const screened = screenEvent(event, exposure);
  if (!screened.publish) throw new Error(`not published: ${screened.reason}`);
  return screened.event;
};

describe('the guard masks the cards an alarm names in its card fields, and never free text that looks like one', () => {
  it('publishes a device alarm whose model, serial or tag looks like a card code as it was raised', () => {
    const unpaired: DomainEvent = {
      type: 'alarm',
      kind: 'device_unpaired',
      message:
        'shoe: unpaired device (TS-SHOE-SIM serial KD-0042, protocol 1.5) dealing unauthenticated cards, allowed by devices.shoe.unpaired: bench (a bench only)',
      model: 'TS-SHOE-SIM',
      serial: 'KD-0042',
      dealt: true,
    };
    expect(published(unpaired)).toEqual(unpaired);
    const foreign: DomainEvent = {
      type: 'alarm',
      kind: 'foreign_card',
      message: 'reader: tag 04:9C:2D:AC is not in the deck registry',
      uid: '04:9C:2D:AC',
    };
    expect(published(foreign)).toEqual(foreign);
  });

  it('still withholds a face-down card named in a field, and only that card in the message', () => {
    const wrongBack: DomainEvent = {
      type: 'alarm',
      kind: 'wrong_back_colour',
      message: 'TS has a green back; the deck in play is red (shoe TS-SHOE-SIM)',
      index: 3,
      card: 'TS',
      back: 'green',
    };
    for (const exposure of [undefined, { card: 'TS', face: 'down' } as const]) {
      const event = published(wrongBack, exposure);
      expect(event).toMatchObject({ card: null, hidden: true, withheld: ['card'] });
      // The withheld card is masked wherever it stands as a word: never a leak by position.
      expect(event.message).toBe('▒▒ has a green back; the deck in play is red (shoe ▒▒-SHOE-SIM)');
      expect(JSON.stringify(event)).not.toMatch(/\bTS\b/);
    }
  });

  it('withholds a list of cards not exposed, and masks each of them in the message', () => {
    const event = published({
      type: 'alarm',
      kind: 'shuffle_suspect',
      message: 'the run 4H 5H 6H came out as 2 shoes back (shuffler QS-7)',
      cards: ['4H', '5H', '6H'],
    });
    expect(event).toMatchObject({ cards: null, hidden: true, withheld: ['cards'] });
    expect(event.message).toBe('the run ▒▒ ▒▒ ▒▒ came out as 2 shoes back (shuffler QS-7)');
  });

  it('masks only the held card of an unexpected card in its message', () => {
    const event = published({
      type: 'alarm',
      kind: 'unexpected_card',
      message: '2H left the shoe out of turn: box 1 (TS-SHOE-SIM) is deciding',
      index: 4,
      card: '2H',
    });
    expect(event.message).toBe('▒▒ left the shoe out of turn: box 1 (TS-SHOE-SIM) is deciding');
    expect(event).toMatchObject({ card: null, hidden: true });
  });
});
