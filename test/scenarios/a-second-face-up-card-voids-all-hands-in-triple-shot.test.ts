// 000 § 14.a: more than one card found face up while dealing: all hands are cancelled, reshuffle.
import { expect, it } from 'vitest';
import { alarms, card, ofType, play } from '../unit/table/helpers.ts';
import { tripleShotRound } from './triple-shot-round.ts';

it('a second face-up card in the same round voids all hands and requires a reshuffle in Triple Shot (000 § 14.a)', () => {
  const records = tripleShotRound();
  records.splice(3, 0, card('6H', 'red', 'up'));
  records.splice(6, 0, card('7H', 'red', 'up'));
  const { events, session } = play('peru-triple-shot', records);

  expect(alarms(events, 'face_up_card').map((a) => a.index)).toEqual([1, 4]);
  expect(ofType(events, 'hand_voided')).toEqual([
    {
      type: 'hand_voided',
      reason: 'more than one card found face up in the shoe',
      boxes: 'all',
      rule: '000 § 14.a',
    },
  ]);
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
  expect(ofType(events, 'result')).toEqual([]);
  // The deck is out of play: the rest of the dealt cards are alarms, not a hand.
  expect(alarms(events, 'card_after_shoe_end').length).toBeGreaterThan(0);
  expect(session.expecting().kind).toBe('shuffle');
});

it('one face-up card in each of two rounds is not a second one in the same round (000 § 14.a)', () => {
  const first = tripleShotRound('red');
  first.splice(3, 0, card('6H', 'red', 'up'));
  const second = tripleShotRound('blue');
  second.splice(3, 0, card('6H', 'blue', 'up'));
  // Same cards twice on purpose: the shuffle detector's repeat test is off.
  const { events } = play('peru-triple-shot', [...first, ...second], {
    anomaly: { enabled: false },
  });
  expect(alarms(events).map((a) => a.kind)).toEqual(['face_up_card', 'face_up_card']);
  expect(ofType(events, 'result')).toHaveLength(2);
});
