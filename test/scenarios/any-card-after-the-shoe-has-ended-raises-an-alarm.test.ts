// 003 § 23, § 24 item 5: after the shoe ends the cards are reshuffled; a card dealt from it
// anyway is an alarm and goes to the discard, never to a hand.
import { expect, it } from 'vitest';
import { alarms, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { newPuntoBancoShoe } from './new-shoe.ts';

it('any card after the shoe has ended raises an alarm and is not dealt to a hand', () => {
  const { events } = play('tdc-baccarat-no-commission', [
    ...newPuntoBancoShoe(),
    { t: 'cut' }, // marker between coups: one more coup
    round(),
    ...cards('9H 2C TD 7S'),
    card('KD'),
    card('QD'),
  ]);
  expect(alarms(events).map((a) => [a.kind, a.index])).toEqual([
    ['card_after_shoe_end', 7],
    ['card_after_shoe_end', 8],
  ]);
  expect(
    ofType(events, 'card')
      .slice(-2)
      .map((c) => c.to),
  ).toEqual(['discard', 'discard']);
});
