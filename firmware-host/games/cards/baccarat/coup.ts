/**
 * A Punto Banco coup as the scoreboard roads (`games/cards/baccarat/roads.ts`) draw it,
 * read from the engine's outcome: baccarat's own, so the roads and the
 * table that keeps them never ask which game a result is.
 */

export type CoupResult = 'B' | 'P' | 'T';

/** One coup as the scoreboard needs it; pairs come from the cards (absent from `--results`). */
export interface Coup {
  result: CoupResult;
  bankerPair?: boolean;
  playerPair?: boolean;
  natural?: boolean;
}

/** The coup a Punto Banco `result` event's outcome describes, or undefined for another game. */
export function coupFromOutcome(outcome: Record<string, unknown>): Coup | undefined {
  if (outcome.game !== 'punto-banco') return undefined;
  const winner = outcome.winner;
  const result =
    winner === 'banker' ? 'B' : winner === 'player' ? 'P' : winner === 'tie' ? 'T' : undefined;
  if (!result) return undefined;
  const side = (name: string) => (outcome[name] ?? {}) as { pair?: unknown; natural?: unknown };
  return {
    result,
    bankerPair: side('banker').pair === true,
    playerPair: side('player').pair === true,
    natural: side('banker').natural === true || side('player').natural === true,
  };
}
