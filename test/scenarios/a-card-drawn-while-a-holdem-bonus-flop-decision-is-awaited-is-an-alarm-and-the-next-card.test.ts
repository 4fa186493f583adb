// 001 "Errores e infracciones" c: a card drawn by mistake without being seen is used as the
// next card. The shoe cannot tell a flop bet from a fold, so a card drawn while the flop
// decision is awaited is an alarm, not a guess; once box 1 decides, it is the burn card.
import { expect, it } from 'vitest';
import {
  action,
  alarms,
  card,
  cards,
  ofType,
  play,
  round,
  shuffle,
} from '../unit/table/helpers.ts';

it("a card drawn while a Hold'em Bonus flop decision is awaited is an alarm and then the next card (001 Errores c)", () => {
  const { events } = play('spain-holdem-bonus', [
    shuffle(1),
    round([1]),
    ...cards('AS KD 7C 7D'),
    card('2H'), // drawn before box 1 decided
    action('bet', 1),
    ...cards('QS JS TS'),
  ]);
  expect(alarms(events)).toEqual([
    expect.objectContaining({
      kind: 'unexpected_card',
      index: 4,
      card: '2H',
      rule: '001 (Errores e infracciones c)',
    }),
  ]);
  const routed = ofType(events, 'card')
    .slice(4)
    .map((c) => `${c.card}>${c.to}`);
  expect(routed).toEqual(['2H>burn', 'QS>board', 'JS>board', 'TS>board']);
});
