// 001 "Errores e infracciones" a: a dealer card shown before every player has folded or bet
// the flop, turn or river voids the hand.
import { expect, it } from 'vitest';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { alarms, ofType, play } from '../unit/table/helpers.ts';
import { holdemRound } from './holdem-bonus-round.ts';

const exposed: TableLogRecord = { t: 'misdeal', kind: 'dealer_card_exposed' };

it("a dealer card shown before the river decision voids the hand in Hold'em Bonus (001 Errores a)", () => {
  const records = holdemRound();
  records.splice(13, 0, exposed); // after the turn, before the river decision
  const { events } = play('spain-holdem-bonus', records);
  expect(alarms(events)[0]).toMatchObject({ kind: 'dealer_card_exposed', round: 1 });
  expect(ofType(events, 'hand_voided')[0]).toMatchObject({ boxes: 'all' });
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
  expect(ofType(events, 'result')).toEqual([]);
});

it('the dealer cards shown at the showdown are no misdeal (001 § 5)', () => {
  const { events } = play('spain-holdem-bonus', [...holdemRound(), exposed]);
  expect(alarms(events)).toEqual([]);
  expect(ofType(events, 'result')).toHaveLength(1);
});
