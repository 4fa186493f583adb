// 000 § 14.c: a player or the dealer receives the wrong number of cards: all hands void,
// reshuffle; payments already made stand.
import { expect, it } from 'vitest';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { alarms, ofType, play, round } from '../unit/table/helpers.ts';
import { tripleShotRound } from './triple-shot-round.ts';

it('a box reported holding the wrong number of cards voids all hands and requires a reshuffle in Triple Shot (000 § 14.c)', () => {
  const records = tripleShotRound().slice(0, 6);
  const misdeal: TableLogRecord = { t: 'misdeal', kind: 'wrong_card_count', box: 1, cards: 3 };
  const { events } = play('peru-triple-shot', [...records, misdeal]);
  expect(alarms(events).map((a) => a.kind)).toEqual(['wrong_card_count']);
  expect(ofType(events, 'hand_voided')).toEqual([
    {
      type: 'hand_voided',
      reason: 'box 1 has the wrong number of cards',
      boxes: 'all',
      rule: '000 § 14.c',
    },
  ]);
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
});

it('a round left short of cards when the next begins voids all hands (000 § 14.c)', () => {
  const records = tripleShotRound().slice(0, 5); // box 1 has one card, the dealer one
  const { events } = play('peru-triple-shot', [...records, round([1])]);
  expect(alarms(events).map((a) => a.kind)).toEqual(['wrong_card_count', 'round_after_shoe_end']);
  expect(ofType(events, 'hand_voided')[0]).toMatchObject({ boxes: 'all', rule: '000 § 14.c' });
  expect(ofType(events, 'reshuffle_required')).toHaveLength(1);
});

it('a card after the round is complete is a wrong card count; the paid round stands (000 § 14.c)', () => {
  const records: TableLogRecord[] = [
    ...tripleShotRound(),
    { t: 'card', card: 'QS', back: 'red', face: 'down' },
  ];
  const { events } = play('peru-triple-shot', records);
  expect(ofType(events, 'result')).toHaveLength(1);
  expect(alarms(events).map((a) => a.kind)).toEqual(['wrong_card_count']);
  expect(ofType(events, 'hand_voided')).toEqual([]);
  expect(ofType(events, 'card').at(-1)).toMatchObject({ card: 'QS', to: 'discard' });
});
