// 001 "Errores e infracciones" b: one card face up in the deck during the deal is not used
// and goes to the discard; more than one: the hand is void and all cards are reshuffled.
import { expect, it } from 'vitest';
import { alarms, card, ofType, play } from '../unit/table/helpers.ts';
import { holdemRound } from './holdem-bonus-round.ts';

it("one face-up card is discarded, a second voids the hand in Hold'em Bonus (001 Errores b)", () => {
  const once = holdemRound();
  once.splice(3, 0, card('5S', 'red', 'up'));
  const first = play('spain-holdem-bonus', once).events;
  expect(alarms(first).map((a) => a.kind)).toEqual(['face_up_card']);
  expect(ofType(first, 'result')).toHaveLength(1);

  const twice = holdemRound();
  twice.splice(3, 0, card('5S', 'red', 'up'));
  twice.splice(9, 0, card('6S', 'red', 'up'));
  const second = play('spain-holdem-bonus', twice).events;
  expect(ofType(second, 'hand_voided')[0]).toMatchObject({
    boxes: 'all',
    rule: '001 (Errores e infracciones b)',
  });
  expect(ofType(second, 'reshuffle_required')).toHaveLength(1);
  expect(ofType(second, 'result')).toEqual([]);
});
