// The shoe cannot see a decision: a card drawn while a box decides stands for a hit, so the
// dealer presses a button only to stand or move on (004 Blackjack: the player asks for cards).
import { expect, it } from 'vitest';
import { action, alarms, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { newBlackjackShoe } from './new-shoe.ts';

it('a card arriving while a blackjack box is deciding is taken as a hit', () => {
  const { events, session } = play('tdc-blackjack', [
    ...newBlackjackShoe(),
    round([1]),
    ...cards('TS 7H 2S'), // box 1 12, dealer 7
  ]);
  expect(session.expecting()).toMatchObject({ kind: 'decision', seat: 'box:1', onCard: 'hit' });
  const more = [card('5C'), action('stand', 1), card('TD')].flatMap((r) => session.apply(r));
  expect(ofType(more, 'card')[0]).toMatchObject({ card: '5C', to: 'box:1' });
  expect(ofType(more, 'result')).toHaveLength(1);
  expect(alarms([...events, ...more])).toEqual([]);
});
