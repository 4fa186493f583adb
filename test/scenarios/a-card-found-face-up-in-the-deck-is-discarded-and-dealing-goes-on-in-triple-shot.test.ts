// 000 § 14.a: a card found face up while dealing is not used; it goes to the discard holder.
import { expect, it } from 'vitest';
import { alarms, card, ofType, play } from '../unit/table/helpers.ts';
import { tripleShotRound } from './triple-shot-round.ts';

it('a card found face up in the deck is discarded and dealing goes on in Triple Shot (000 § 14.a)', () => {
  const records = tripleShotRound();
  // The face-up 6H turns up before box 1's second card.
  records.splice(4, 0, card('6H', 'red', 'up'));
  const { events } = play('peru-triple-shot', records);

  expect(alarms(events).map((a) => a.kind)).toEqual(['face_up_card']);
  expect(alarms(events)[0]).toMatchObject({ index: 2, card: '6H', rule: '000 § 14.a' });
  const dealt = ofType(events, 'card');
  expect(dealt.find((c) => c.card === '6H')).toMatchObject({ to: 'discard', face: 'up', index: 2 });
  // The next card goes where the face-up one would have gone.
  expect(dealt.find((c) => c.card === '8D')).toMatchObject({ to: 'box:1', index: 3 });
  expect(ofType(events, 'result')).toHaveLength(1);
  expect(ofType(events, 'hand_voided')).toEqual([]);
});
