// 000 § 5; 001 "Cartas nuevas": the deck in play is complete and nothing else. A card that is
// not in this shoe's set, or one copy more than it holds, is foreign: not used, alarmed.
import { expect, it } from 'vitest';
import { alarms, card, cards, ofType, play, round, shuffle } from '../unit/table/helpers.ts';

it('a second ace of spades from a one-deck Triple Shot deck is foreign and the deal goes on', () => {
  const { events } = play('peru-triple-shot', [
    shuffle(1),
    round([1]),
    card('AS'),
    card('AS'),
    ...cards('5H 8D KC'),
  ]);
  expect(alarms(events)).toEqual([
    expect.objectContaining({ kind: 'foreign_card', index: 1, card: 'AS' }),
  ]);
  expect(ofType(events, 'card').map((c) => c.to)).toEqual([
    'box:1',
    'discard',
    'dealer',
    'box:1',
    'dealer',
  ]);
});

it('a joker in a shoe that uses no joker marker is foreign', () => {
  const { events } = play('monaco-punto-2000', [shuffle(8), card('JK')]);
  expect(alarms(events)[0]).toMatchObject({ kind: 'foreign_card', card: 'JK' });
});
