// 003 § 24 item 3.a: cards may be taken out of play before a hand per the approved house
// rules; (practice) at a new shoe the first card is turned and that many burned, ten-values 10.
import { describe, expect, it } from 'vitest';
import type { CardCode } from '../../device-protocol/cards.ts';
import { alarms, card, cards, ofType, play, round, shuffle } from '../unit/table/helpers.ts';

describe('Punto Banco burns as many cards as the turned first card shows at a new shoe (003 § 24 item 3.a)', () => {
  it.each([
    ['AH', 1],
    ['7H', 7],
    ['KH', 10],
    ['TH', 10],
  ])('a turned %s burns %i more', (turned, burned) => {
    const burns = ['5D', '6D', '5C', '6C', '5S', '6S', '3D', '3C', '3S', '4D']
      .slice(0, burned)
      .map((c) => card(c as CardCode));
    const { events, session } = play('bulgaria-punto-banco', [
      shuffle(8),
      card(turned as CardCode),
      ...burns,
      round(),
      ...cards('9H 2C TD 7S'),
    ]);
    const dealt = ofType(events, 'card');
    expect(dealt[0]).toMatchObject({ card: turned, to: 'burn', face: 'up', index: 0 });
    expect(dealt.filter((c) => c.to === 'burn')).toHaveLength(burned + 1);
    expect(dealt.find((c) => c.card === '9H')).toMatchObject({ to: 'player', index: burned + 1 });
    expect(alarms(events)).toEqual([]);
    expect(session.snapshot()).toMatchObject({ rounds: 1 });
  });

  it('a round begun before the burn is complete raises missing_burn', () => {
    const { events } = play('bulgaria-punto-banco', [
      shuffle(8),
      card('5H'),
      ...cards('5D 5D'),
      round(),
    ]);
    expect(alarms(events)).toEqual([
      expect.objectContaining({ kind: 'missing_burn', index: 3, owed: 3 }),
    ]);
  });
});
