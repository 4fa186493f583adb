/**
 * A roulette table in the terminal view of `tableside run` (`daemon/view.ts`):
 * the game in play and the last numbers.
 */

/** The wheel's line, as the terminal view shows it above the next step. */
export function rouletteViewLines(snapshot: Record<string, unknown>): string[] {
  const line = rouletteLine(snapshot);
  return line === undefined ? [] : [line];
}

/** A roulette table: the game in play and the last numbers, newest first (R red, B black, 0 green). */
function rouletteLine(snapshot: Record<string, unknown>): string | undefined {
  const roulette = snapshot.roulette as
    | {
        game: number;
        betting: string;
        lastNumbers: number[];
        lastColours: string[];
        gamesLeft: number | null;
        closed: boolean;
      }
    | undefined;
  if (!roulette) return undefined;
  const last = roulette.lastNumbers
    .slice(0, 12)
    .map((number, i) => {
      const colour = roulette.lastColours[i];
      return `${number}${colour === 'red' ? 'R' : colour === 'black' ? 'B' : ''}`;
    })
    .join(' ');
  const state = roulette.closed
    ? 'TABLE CLOSED'
    : `game ${roulette.game} ${roulette.betting === 'open' ? 'bets open' : 'NO MORE BETS'}${roulette.gamesLeft === null ? '' : ` (closing: ${roulette.gamesLeft} left)`}`;
  return `${state} · last: ${last || '—'}`;
}
