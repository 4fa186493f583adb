// 003 § 23: play stops when the dealt cards reach the cut card; (practice) the round in
// progress is finished first, and no new round starts.
import { expect, it } from 'vitest';
import { action, alarms, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { newBlackjackShoe, shoeFlow } from './new-shoe.ts';

it('blackjack finishes the round in progress when the cut card comes out, then ends the shoe (003 § 23)', () => {
  const { events, session } = play('bulgaria-blackjack', [
    ...newBlackjackShoe(),
    round([1]),
    card('TS'), // box 1
    { t: 'cut' },
    ...cards('7H 9S'), // dealer, box 1: 19
    action('stand', 1),
    card('TD'), // the dealer draws to 17
    round([1]),
    card('5C'),
  ]);
  expect(shoeFlow(events)).toEqual([
    'shoe_start',
    'round_start',
    'last_hand',
    'result',
    'shoe_end',
    'round_after_shoe_end',
    'card_after_shoe_end',
  ]);
  expect(ofType(events, 'shoe_end')[0]).toMatchObject({
    rule: expect.stringContaining('003 § 23'),
  });
  expect(session.expecting().kind).toBe('shuffle');
});

it('a cut card out between rounds ends the shoe at once (003 § 23)', () => {
  const { events } = play('bulgaria-blackjack', [...newBlackjackShoe(), { t: 'cut' }, round([1])]);
  expect(ofType(events, 'shoe_end')).toHaveLength(1);
  expect(alarms(events).map((a) => a.kind)).toEqual(['round_after_shoe_end']);
});
