// RULES.md "Misdeal procedures": where a card-reading shuffler reported the order, every card
// must match it; the first mismatch is an alarm naming the position, what was expected and
// what was seen. The order itself is never published.
import { expect, it } from 'vitest';
import type { CardCode } from '../../device-protocol/cards.ts';
import { alarms, cards, play, round, shuffle } from '../unit/table/helpers.ts';

it('a pair swapped against the shuffler order is named by its position, once', () => {
  const order = '7S 8S 9S TS KH 2D 3D 4D 5D QC'.split(' ') as CardCode[];
  const { events, session } = play('tdc-baccarat-no-commission', [
    shuffle(8, 'red', order),
    ...cards('7S 8S 9S TS KH 2D 3D'), // the turned 7 and six of its seven burns
    ...cards('5D'), // the seventh burn: 4D and 5D are swapped
    round(),
    ...cards('4D'), // to the player
  ]);
  expect(alarms(events)).toEqual([
    expect.objectContaining({
      kind: 'sequence_mismatch',
      index: 7,
      position: 7,
      expected: '4D',
      seen: '5D',
    }),
  ]);
  const published = JSON.stringify([...events, session.snapshot()]);
  expect(published).not.toContain('QC');
  expect(session.snapshot()).toMatchObject({ shoe: { shufflerOrder: 'mismatch' } });
});
