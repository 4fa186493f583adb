// 000 § 14.d: one or more dealer cards exposed before their time: all hands cancelled, reshuffle.
import { expect, it } from 'vitest';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { alarms, ofType, play } from '../unit/table/helpers.ts';
import { tripleShotRound } from './triple-shot-round.ts';

const exposed: TableLogRecord = { t: 'misdeal', kind: 'dealer_card_exposed' };

it("the dealer's face-down card shown before box 1 has played voids all hands in Triple Shot (000 § 14.d)", () => {
  const records = tripleShotRound().slice(0, 6); // the dealer's second card is down, box 1 to play
  const { events } = play('peru-triple-shot', [...records, exposed]);
  expect(alarms(events)).toEqual([
    expect.objectContaining({ kind: 'dealer_card_exposed', round: 1, rule: '000 § 14.d' }),
  ]);
  expect(ofType(events, 'hand_voided')[0]).toMatchObject({ boxes: 'all', rule: '000 § 14.d' });
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
});

it('the same card shown once the dealer plays its hand is no misdeal (000 § 9.b)', () => {
  const records = tripleShotRound();
  records.splice(7, 0, exposed); // after box 1 stood, before the dealer draws
  const { events } = play('peru-triple-shot', records);
  expect(alarms(events)).toEqual([]);
  expect(ofType(events, 'result')).toHaveLength(1);
});
