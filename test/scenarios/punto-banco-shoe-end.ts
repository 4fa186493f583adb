/**
 * A Punto Banco shoe dealt down to a tail the scenario writes itself: the
 * turn-and-burn, then whole coups of every other card of the shoe, so the
 * scenario starts between coups with exactly the tail's cards left. The
 * coups come from a seeded shuffle of those cards, the first one whose coups
 * end exactly on its last card (the engine decides how many cards each takes).
 */
import {
  type CardCode,
  compositionKey,
  type StandardCard,
  shoeComposition,
} from '../../device-protocol/cards.ts';
import { seededRandom, shuffleCards } from '../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../firmware-host/games/engines.ts';
import { getRuleset } from '../../firmware-host/games/rulesets.ts';
import type { TableLogRecord } from '../../firmware-host/table/log.ts';
import { BURN_TWO, card, round, shuffle } from '../unit/table/helpers.ts';

/** The shoe's standard cards but `reserved`, in a fixed order. */
function othersThan(decks: number, reserved: readonly StandardCard[]): StandardCard[] {
  const left = shoeComposition({ decks, backs: ['red'] });
  for (const code of reserved) {
    const key = compositionKey(code, 'red');
    const count = left.get(key) ?? 0;
    if (count <= 0) throw new Error(`the shoe holds no more ${code}`);
    left.set(key, count - 1);
  }
  return [...left.entries()].flatMap(([key, count]) =>
    Array.from({ length: count }, () => key.split('/')[0] as StandardCard),
  );
}

/** Records for `cards` dealt as whole coups, or undefined when the last coup would run past them. */
function wholeCoups(ruleset: string, cards: readonly StandardCard[]): TableLogRecord[] | undefined {
  const engine = createEngine(getRuleset(ruleset));
  const records: TableLogRecord[] = [];
  let at = 0;
  while (at < cards.length) {
    records.push(round());
    let state = engine.start({});
    while (engine.next(state).kind === 'card') {
      const next = cards[at++];
      if (next === undefined) return undefined;
      state = engine.deal(state, next);
      records.push(card(next));
    }
  }
  return records;
}

/**
 * A new shoe of `decks` decks dealt until only `tail` is left: `tail` holds
 * the cards still in the shoe, in the order the scenario will deal them (the
 * last one is the covered last card where the ruleset covers it).
 */
export function shoeDownTo(
  ruleset: string,
  decks: number,
  tail: readonly StandardCard[],
): TableLogRecord[] {
  const burns = BURN_TWO.map((record) => (record as { card: CardCode }).card as StandardCard);
  const rest = othersThan(decks, [...burns, ...tail]);
  for (let seed = 1; seed < 1_000; seed += 1) {
    const coups = wholeCoups(ruleset, shuffleCards(rest, seededRandom(seed)));
    if (coups) return [shuffle(decks), ...BURN_TWO, ...coups];
  }
  throw new Error('no shuffle of the shoe ends on a whole coup');
}
