// 003 § 24 item 5: when the first joker comes out the croupier announces "last hand";
// (practice) the coup in progress is completed, one more coup is dealt, then the shoe ends.
import { expect, it } from 'vitest';
import { alarms, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { newPuntoBancoShoe, shoeFlow } from './new-shoe.ts';

const COUP = cards('9H 2C TD 7S'); // Player 9: a natural, no more cards

it('Punto Banco deals the coup in progress and one more after the last-hand joker, then ends the shoe (003 § 24 item 5)', () => {
  const { events } = play('bulgaria-punto-banco', [
    ...newPuntoBancoShoe(),
    round(),
    card('9D'),
    card('JK'), // the marker comes out during the first coup
    ...cards('2D TH 7C'),
    round(),
    ...COUP,
    round(),
    card('4H'),
  ]);
  expect(shoeFlow(events)).toEqual([
    'shoe_start',
    'round_start',
    'last_hand',
    'result',
    'round_start',
    'result',
    'shoe_end',
    'round_after_shoe_end',
    'card_after_shoe_end',
  ]);
  expect(ofType(events, 'card').find((c) => c.card === 'JK')).toMatchObject({ to: 'marker' });
  expect(ofType(events, 'last_hand')[0]!.rule).toContain('003 § 24');
});

it('a marker out between coups leaves exactly one more coup (003 § 24 item 5)', () => {
  const { events } = play('bulgaria-punto-banco', [
    ...newPuntoBancoShoe(),
    round(),
    ...COUP,
    card('JK'),
    round(),
    ...COUP,
  ]);
  expect(events.at(-1)).toMatchObject({ type: 'shoe_end' });
  expect(ofType(events, 'result')).toHaveLength(2);
  expect(alarms(events)).toEqual([]);
});

it('where the marker is a cut card, the cut record announces the last hand (monaco-punto-2000)', () => {
  const { events } = play('monaco-punto-2000', [
    ...newPuntoBancoShoe(),
    round(),
    ...COUP,
    { t: 'cut' },
    round(),
    ...COUP,
  ]);
  expect(ofType(events, 'last_hand')).toHaveLength(1);
  expect(events.at(-1)).toMatchObject({ type: 'shoe_end' });
});
