// Blackjack rulesets (practice, the seeds are silent): the box dealt wrongly is void, the
// others play on; the same shape as 001 "Errores e infracciones" d for a player.
import { expect, it } from 'vitest';
import { action, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { newBlackjackShoe } from './new-shoe.ts';

it('a blackjack box dealt the wrong number of cards is void alone, the round plays on', () => {
  const { events } = play('tdc-blackjack', [
    ...newBlackjackShoe(),
    round([1, 2]),
    ...cards('TS 9D 7H 9S 8D'), // box 1 19, box 2 17, dealer 7
    { t: 'misdeal', kind: 'wrong_card_count', box: 2, cards: 3 },
    action('stand', 1),
    action('stand', 2),
    card('TD'),
  ]);
  expect(ofType(events, 'hand_voided')).toEqual([
    expect.objectContaining({ boxes: [2], reason: 'box 2 has the wrong number of cards' }),
  ]);
  expect(ofType(events, 'result')[0]).toMatchObject({ voided: [2] });
});
