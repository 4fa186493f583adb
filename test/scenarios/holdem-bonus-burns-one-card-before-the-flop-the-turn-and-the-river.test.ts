// 001 "Desarrollo del juego": the croupier burns the next card face down before the flop,
// the turn and the river.
import { expect, it } from 'vitest';
import { alarms, ofType, play } from '../unit/table/helpers.ts';
import { holdemRound } from './holdem-bonus-round.ts';

it("Hold'em Bonus burns one card before the flop, the turn and the river (001 Desarrollo del juego)", () => {
  const { events } = play('spain-holdem-bonus', holdemRound());
  expect(alarms(events)).toEqual([]);
  const routed = ofType(events, 'card').map((c) => `${c.card}>${c.to}`);
  expect(routed).toEqual([
    'AS>box:1',
    'KD>dealer',
    '7C>box:1',
    '7D>dealer',
    '2H>burn',
    'QS>board',
    'JS>board',
    'TS>board',
    '3H>burn',
    '9D>board',
    '4H>burn',
    '2C>board',
  ]);
  expect(ofType(events, 'result')).toHaveLength(1);
});
