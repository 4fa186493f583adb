// 001 "Errores e infracciones" d: a player who receives a wrong number of cards: that
// player's hand is void and the cards are reshuffled.
import { expect, it } from 'vitest';
import { action, alarms, cards, ofType, play, round, shuffle } from '../unit/table/helpers.ts';

it("a Hold'em Bonus player with the wrong number of cards is void alone, then the deck is reshuffled (001 Errores d)", () => {
  const { events } = play('spain-holdem-bonus', [
    shuffle(1),
    round([1, 2]),
    ...cards('AS 5C KD 7C 5D 7D'),
    { t: 'misdeal', kind: 'wrong_card_count', box: 2, cards: 3 },
    action('bet', 1),
    action('bet', 2),
    ...cards('2H QS JS TS'),
    action('check', 1),
    action('check', 2),
    ...cards('3H 9D'),
    action('check', 1),
    action('check', 2),
    ...cards('4H 2C'),
  ]);
  expect(alarms(events).map((a) => a.kind)).toEqual(['wrong_card_count']);
  expect(ofType(events, 'hand_voided')).toEqual([expect.objectContaining({ boxes: [2] })]);
  expect(ofType(events, 'result')[0]).toMatchObject({ voided: [2] });
  const after = events.slice(events.findIndex((e) => e.type === 'result'));
  expect(after.map((e) => e.type)).toEqual(['result', 'reshuffle_required', 'shoe_end']);
});
