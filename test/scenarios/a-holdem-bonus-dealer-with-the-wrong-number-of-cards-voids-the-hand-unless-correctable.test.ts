// 001 "Errores e infracciones" d: the dealer dealt a wrong number of cards voids the hand,
// unless the dealer can take the right number without changing the card sequence and
// those cards were not turned face up.
import { expect, it } from 'vitest';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { alarms, cards, ofType, play, round, shuffle } from '../unit/table/helpers.ts';

const deal: TableLogRecord[] = [shuffle(1), round([1]), ...cards('AS KD 7C')];

it("the dealer short of a card voids the Hold'em Bonus hand (001 Errores d)", () => {
  const { events } = play('spain-holdem-bonus', [
    ...deal,
    { t: 'misdeal', kind: 'wrong_card_count', cards: 2 },
  ]);
  expect(alarms(events)[0]).toMatchObject({ kind: 'wrong_card_count', seat: 'dealer' });
  expect(ofType(events, 'hand_voided')[0]).toMatchObject({ boxes: 'all' });
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
});

it('…unless the supervisor finds it correctable without changing the sequence, the cards unseen (001 Errores d)', () => {
  const { events, session } = play('spain-holdem-bonus', [
    ...deal,
    { t: 'misdeal', kind: 'wrong_card_count', cards: 0, correctable: true },
  ]);
  expect(alarms(events)[0]).toMatchObject({ kind: 'wrong_card_count', corrected: true });
  expect(ofType(events, 'hand_voided')).toEqual([]);
  expect(session.expecting()).toMatchObject({ kind: 'card', to: 'dealer' });
});
