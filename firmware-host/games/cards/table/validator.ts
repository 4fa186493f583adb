/**
 * The validator: the checks that say whether what the table did is legal,
 * each raising its alarm (and sending a refused card to the discard): the
 * shoe a shuffle declares, a round started with no shoe or before its burns,
 * a card of no shoe, after the shoe's end, of another back or not in the
 * shoe's set, the shuffler's order, the shuffle-anomaly watch, and a card
 * that no round can take. The engine's plan and the misdeal policy decide
 * what follows. Pure.
 */
import type { StandardCard } from '../../../../device-protocol/cards.ts';
import { JOKER } from '../../../../device-protocol/cards.ts';
import { observe } from '../../../table/anomaly.ts';
import type { CardRecord, ShuffleRecord } from '../../../table/log.ts';
import { consume } from './shoe-life.ts';
import {
  alarm,
  cardEvent,
  type Draft,
  type Mutable,
  roundDetail,
  type ShoeState,
  TABLE_PRACTICE,
} from './state.ts';

/** The shoe a shuffle declares against the ruleset: deck count, back colours, their alternation. */
export function checkShuffle(draft: Draft, record: ShuffleRecord): void {
  const { ruleset } = draft.config;
  if (!ruleset.decks.allowed.includes(record.decks)) {
    alarm(
      draft,
      'wrong_shoe',
      `the shuffle declares ${record.decks} deck(s); ${ruleset.name} allows ${ruleset.decks.allowed.join(' or ')}`,
      { decks: record.decks, allowed: ruleset.decks.allowed, rule: ruleset.decks.source },
    );
  }
  const backs = ruleset.backs;
  if (backs.kind === 'single') {
    if (record.backs.length !== 1 || record.backs[0] !== backs.colour) {
      alarm(
        draft,
        'wrong_back_colour',
        `the shuffle declares backs ${record.backs.join(', ')}; ${ruleset.name} uses ${backs.colour}`,
        { backs: record.backs, expected: [backs.colour], rule: backs.source },
      );
    }
  } else {
    const colour = record.backs[0]!;
    if (record.backs.length !== 1 || !backs.colours.includes(colour)) {
      alarm(
        draft,
        'wrong_back_colour',
        `each deck brought into play has one of the colours ${backs.colours.join(', ')}; the shuffle declares ${record.backs.join(', ')}`,
        { backs: record.backs, expected: backs.colours, rule: backs.source },
      );
    } else if (colour === draft.lastColour) {
      alarm(
        draft,
        'deck_not_alternated',
        `the ${colour} deck served the last round too; the two decks alternate (000 § 2.c.2)`,
        { back: colour, rule: '000 § 2.c.2' },
      );
    }
    draft.lastColour = colour;
  }
}

/** The shoe a new round draws from; undefined, with the alarm, when none is in play or it ended. */
export function shoeForNewRound(draft: Draft): Mutable<ShoeState> | undefined {
  const shoe = draft.shoe;
  if (shoe && shoe.ended === undefined) return shoe;
  alarm(
    draft,
    'round_after_shoe_end',
    shoe
      ? `no new round after the shoe ended (${shoe.ended}): shuffle first`
      : 'no shoe in play: shuffle first',
    shoe ? { reason: shoe.ended } : {},
  );
  return undefined;
}

/** A round begun before the shoe-start burns were done, or on a deck that already served one. */
export function checkRoundStart(draft: Draft, shoe: Mutable<ShoeState>): void {
  const { ruleset } = draft.config;
  if (shoe.burn) {
    const owed = shoe.burn.turned ? shoe.burn.owed : 'the turned card and its';
    alarm(
      draft,
      'missing_burn',
      `the round began before the shoe-start burn was complete (${owed} cards still to burn)`,
      {
        index: shoe.dealt,
        owed: shoe.burn.turned ? shoe.burn.owed : undefined,
        rule: ruleset.burn.source,
      },
    );
    shoe.burn = undefined;
  }
  if (ruleset.shoeEnd.kind === 'reshuffle_every_round' && shoe.rounds > 0) {
    if (ruleset.backs.kind === 'alternating') {
      alarm(
        draft,
        'deck_not_alternated',
        `the deck in play already served a round; every round draws from the other deck (000 § 2.c.2)`,
        { rule: '000 § 2.c.2' },
      );
    } else {
      alarm(
        draft,
        'missing_shuffle',
        `the deck in play already served a round; it is shuffled before every round`,
        { rule: ruleset.shoeEnd.source },
      );
    }
  }
}

/** A card before any recorded shuffle belongs to no shoe: an alarm, and it goes to the discard. */
export function cardWithoutShoe(draft: Draft, record: CardRecord): void {
  const { card, back } = record;
  alarm(draft, 'unexpected_card', `${card} left the shoe before any shuffle was recorded`, {
    card,
    rule: TABLE_PRACTICE.noShuffle,
  });
  cardEvent(draft, card, 'discard', back, record.face, -1);
}

/**
 * The card against the shoe in play: one after the shoe ended, of another
 * back, or not (or no longer) in its set goes to the discard with an alarm,
 * and the answer is true. Otherwise it is taken out of the shoe's set.
 */
export function refuseCardFromShoe(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  record: CardRecord,
  index: number,
): boolean {
  const { ruleset } = draft.config;
  const { card, back } = record;
  const at = { index, card };
  if (shoe.ended !== undefined) {
    alarm(draft, 'card_after_shoe_end', `${card} left the shoe after it ended (${shoe.ended})`, {
      ...at,
      reason: shoe.ended,
    });
    consume(shoe, card, back);
    cardEvent(draft, card, 'discard', back, record.face, index);
    return true;
  }
  if (!shoe.backs.includes(back)) {
    alarm(
      draft,
      'wrong_back_colour',
      `${card} has a ${back} back; the deck in play is ${shoe.backs.join(', ')}`,
      { ...at, back, expected: [...shoe.backs], rule: ruleset.backs.source, ...roundDetail(draft) },
    );
    cardEvent(draft, card, 'discard', back, record.face, index);
    return true;
  }
  if (!consume(shoe, card, back)) {
    alarm(
      draft,
      'foreign_card',
      `${card} (${back} back) is not in this shoe: ${card === JOKER ? 'it holds no marker' : `a ${shoe.decks}-deck shoe holds ${shoe.decks} of it and all are out`}`,
      { ...at, back, ...roundDetail(draft) },
    );
    cardEvent(draft, card, 'discard', back, record.face, index);
    return true;
  }
  return false;
}

/** The shuffler's reported order: only the first card off it is an alarm. */
export function checkOrder(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  card: StandardCard,
  index: number,
) {
  const position = shoe.orderPosition;
  shoe.orderPosition += 1;
  if (!shoe.order || shoe.orderBroken) return;
  const expected = shoe.order[position];
  if (expected === undefined || expected === card) return;
  // Only the first mismatch: after it the reported order no longer tells anything.
  shoe.orderBroken = true;
  alarm(
    draft,
    'sequence_mismatch',
    `card ${position + 1} of the shuffled shoe is ${card}; the shuffler reported ${expected} there`,
    { index, position, expected, seen: card, ...roundDetail(draft) },
  );
}

/** The shuffle-anomaly watch (`anomaly.ts`) sees every card dealt from the shoe's set. */
export function watchForAnomaly(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  card: StandardCard,
  index: number,
): void {
  if (!draft.config.options.anomaly.enabled) return;
  const observed = observe(shoe.anomaly, card, index);
  shoe.anomaly = observed.state;
  for (const finding of observed.findings) {
    alarm(draft, 'shuffle_suspect', finding.message, {
      index,
      test: finding.test,
      length: finding.length,
      from: finding.from,
      to: finding.to,
      bound: finding.bound,
      ...(finding.shoesBack === undefined
        ? {}
        : { shoesBack: finding.shoesBack, earlierFrom: finding.earlierFrom }),
    });
  }
}

/** A card no round can take: after a complete round (none was due) or before the first. */
export function cardWithoutRound(
  draft: Draft,
  shoe: Mutable<ShoeState>,
  card: StandardCard,
  back: string,
  index: number,
): void {
  const { ruleset } = draft.config;
  const at = { index, card };
  if (shoe.roundsFinished > 0) {
    alarm(
      draft,
      'wrong_card_count',
      `${card} left the shoe after round ${draft.rounds} was complete: no card was due`,
      { ...at, round: draft.rounds, rule: ruleset.misdeal.wrongCardCount.source },
    );
  } else {
    alarm(draft, 'unexpected_card', `${card} left the shoe before the first round began`, {
      ...at,
      rule: TABLE_PRACTICE.beforeFirstRound,
    });
  }
  cardEvent(draft, card, 'discard', back, 'down', index);
}
