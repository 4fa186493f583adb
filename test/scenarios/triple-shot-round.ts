/**
 * One legal Triple Shot round with box 1, for the scenarios: War cards,
 * second cards (the dealer's face down), box 1 stands, the dealer draws to
 * 17, then both hands are completed to six cards (000 § 9.a-c).
 */
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { action, cards, round, shuffle } from '../unit/table/helpers.ts';

export const WAR_AND_SECOND = cards('9S 5H 8D KC'); // box 1, dealer, box 1, dealer (down)
export const AFTER_STAND = cards('2C 3C 4C 7D 8H 9H TD JD'); // dealer draws 2C; poker cards

export function tripleShotRound(back = 'red'): TableLogRecord[] {
  return [
    shuffle(1, back),
    round([1]),
    ...cards('9S 5H 8D KC', back),
    action('stand', 1),
    ...cards('2C 3C 4C 7D 8H 9H TD JD', back),
  ];
}
