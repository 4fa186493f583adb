/**
 * One Hold'em Bonus round with box 1 for the scenarios (001 "Desarrollo del juego"):
 * box 1, dealer, box 1, dealer (all face down); box 1 bets the flop; burn, three flop
 * cards; box 1 checks the turn; burn, turn; box 1 checks the river; burn, river.
 */
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { action, cards, round, shuffle } from '../unit/table/helpers.ts';

export const HOLE_CARDS = cards('AS KD 7C 7D'); // box 1 AS 7C, dealer KD 7D

export function holdemRound(back = 'red'): TableLogRecord[] {
  return [
    shuffle(1, back),
    round([1]),
    ...cards('AS KD 7C 7D', back),
    action('bet', 1),
    ...cards('2H QS JS TS', back), // burn, flop
    action('check', 1),
    ...cards('3H 9D', back), // burn, turn
    action('check', 1),
    ...cards('4H 2C', back), // burn, river
  ];
}
