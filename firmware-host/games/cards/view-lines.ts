/**
 * A card table in the terminal view of `tableside run` (`daemon/view.ts`):
 * the shoe's progress and the hand in play, never a card the table did not
 * show (a hole card is drawn as ▒▒).
 */

/** The shoe and the hand in play, as the terminal view shows them above the next step. */
export function cardViewLines(snapshot: Record<string, unknown>): string[] {
  return [shoeLine(snapshot), ...handLines(snapshot)];
}

function shoeLine(snapshot: Record<string, unknown>): string {
  const shoe = snapshot.shoe as
    | {
        number: number;
        cards: number;
        dealt: number;
        remaining: number;
        lastHand: boolean;
        ended: string | null;
      }
    | null
    | undefined;
  if (!shoe) return 'no shoe in play';
  const width = 30;
  const filled = shoe.cards > 0 ? Math.round((shoe.dealt / shoe.cards) * width) : 0;
  const bar = `${'█'.repeat(filled)}${'░'.repeat(Math.max(0, width - filled))}`;
  const state = shoe.ended ? ` ended (${shoe.ended})` : shoe.lastHand ? ' LAST HAND' : '';
  return `shoe ${shoe.number} ${bar} ${shoe.dealt}/${shoe.cards} dealt${state}`;
}

function handLines(snapshot: Record<string, unknown>): string[] {
  const round = snapshot.round as { number: number; table: Record<string, unknown> } | null;
  if (!round) return ['no hand in play'];
  const lines = [`round ${round.number}`];
  for (const [seat, value] of Object.entries(round.table ?? {})) {
    if (value && typeof value === 'object' && 'cards' in value) {
      const hand = value as { cards: unknown[]; total?: unknown };
      const cards = hand.cards.map((card) => (typeof card === 'string' ? card : '▒▒')).join(' ');
      lines.push(
        `  ${seat.padEnd(8)} ${cards}${hand.total === undefined ? '' : `  (${String(hand.total)})`}`,
      );
    }
  }
  return lines;
}
