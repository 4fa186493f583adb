// 000 § 14.b; 001 "Errores e infracciones" c: a card drawn by mistake without being seen is
// used as if it were the next card. Where the card cannot stand for the decision awaited
// (a poker flop decision), it is an alarm, never a silent guess.
import { expect, it } from 'vitest';
import type { StandardCard } from '../../device-protocol/cards.ts';
import type { GameEngine, NextStep } from '../../firmware-host/engine/types.ts';
import { getRuleset } from '../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../firmware-host/games/table-session.ts';
import { action, alarms, card, ofType, round, shuffle } from '../unit/table/helpers.ts';

/** A two-step game: a card to box 1 and one to the dealer, box 1 bets or folds, one board card. */
interface Mini {
  readonly cards: readonly StandardCard[];
  readonly decided: boolean;
}
const mini: GameEngine<Mini> = {
  game: 'mini',
  start: () => ({ cards: [], decided: false }),
  next(state): NextStep {
    if (state.cards.length === 0) return { kind: 'card', to: 'box:1', face: 'down' };
    if (state.cards.length === 1) return { kind: 'card', to: 'dealer', face: 'down' };
    if (!state.decided) return { kind: 'decision', seat: 'box:1', options: ['bet', 'fold'] };
    if (state.cards.length === 2) return { kind: 'card', to: 'board', face: 'up' };
    return { kind: 'complete' };
  },
  deal: (state, dealt) => ({ ...state, cards: [...state.cards, dealt] }),
  decide: (state) => ({ ...state, decided: true }),
  outcome: (state) => ({ game: 'mini', bets: {}, cards: state.cards }),
  view: (state) => ({ cards: state.cards }),
};

it('a card drawn while box 1 is deciding is an alarm and becomes the next card once one is due (000 § 14.b)', () => {
  const ruleset = getRuleset('peru-triple-shot'); // unexposedCardInError: use_as_next, 000 § 14.b
  const session = new TableSession(
    sessionConfig(ruleset, {}, mini as unknown as GameEngine<unknown>),
  );
  const events = [
    shuffle(1),
    round([1]),
    card('2S'),
    card('3S'),
    card('QH'),
    action('bet', 1),
  ].flatMap((record) => session.apply(record));
  expect(alarms(events)).toEqual([
    expect.objectContaining({ kind: 'unexpected_card', index: 2, card: 'QH', rule: '000 § 14.b' }),
  ]);
  expect(ofType(events, 'card').at(-1)).toMatchObject({ card: 'QH', to: 'board', index: 2 });
  expect(ofType(events, 'result')).toHaveLength(1);
});
