/**
 * A roulette table's Scoreboard (issue 35): the day's last numbers in their
 * colours, and how the numbers fell on the even chances and the dozens
 * (practice: zero is none of them), with the spins per hour. Counted from
 * the day's `spin` events (a void game has none). Pure.
 */
import type { DayGrouping, Scoreboard } from '../game.ts';
import { Counts, scoreboardOf } from '../scoreboard.ts';

const DOZENS = ['1st 12', '2nd 12', '3rd 12'];

export function rouletteScoreboard(): DayGrouping<{ board: Scoreboard }> {
  const colours = new Counts(['Red', 'Black', 'Zero']);
  const parity = new Counts(['Odd', 'Even']);
  const halves = new Counts(['1-18', '19-36']);
  const dozens = new Counts(DOZENS);
  let spins = 0;
  return scoreboardOf({
    unit: 'spin',
    take(event, seq) {
      if (event.type !== 'spin') return undefined;
      const number = Number(event.number);
      const colour = String(event.colour);
      spins++;
      if (colour === 'green' || number < 1 || number > 36) {
        colours.add('Zero');
      } else {
        colours.add(colour === 'red' ? 'Red' : 'Black');
        parity.add(number % 2 === 1 ? 'Odd' : 'Even');
        halves.add(number <= 18 ? '1-18' : '19-36');
        dozens.add(DOZENS[Math.floor((number - 1) / 12)]!);
      }
      return { seq, round: Number(event.game), text: String(number), mark: colour };
    },
    // Shares of all spins, zeros too: a zero loses every even chance and dozen.
    tallies: () => [
      colours.tally('Colours', spins),
      parity.tally('Odd or even', spins),
      halves.tally('Low or high', spins),
      dozens.tally('Dozens', spins),
    ],
  });
}
