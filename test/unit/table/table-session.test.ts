import { describe, expect, it } from 'vitest';
import { initialState, reduce } from '../../../firmware-host/games/cards/table/index.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { isTableError } from '../../../firmware-host/table/errors.ts';
import { alarms, BURN_TWO, card, cards, play, round, shuffle } from './helpers.ts';

describe('the table session', () => {
  it('rejects a record that fails its schema with an error naming the field, and changes nothing', () => {
    const session = TableSession.forRuleset('bulgaria-punto-banco');
    session.apply(shuffle(8));
    const before = session.state;
    for (const bad of [
      { t: 'card', card: '10H', back: 'red', face: 'down' },
      { t: 'card', card: 'AS', back: 'Red!', face: 'down' },
      { t: 'shuffle', decks: 0, backs: ['red'] },
      { t: 'teleport' },
      'not an object',
    ]) {
      const result = session.feed(bad);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(isTableError(result.error)).toBe(true);
        expect(result.error.code).toBe('bad_record');
      }
      expect(session.state).toBe(before);
    }
    const result = session.feed({ t: 'card', card: '10H', back: 'red', face: 'down' });
    expect(!result.ok && result.error.message).toContain('card');
  });

  it('names an unknown ruleset and bad options as TableErrors', () => {
    expect(() => sessionConfig('no-such-game')).toThrowError(/unknown ruleset/);
    expect(() => sessionConfig('tdc-blackjack', { anomaly: { falseAlarm: 2 } })).toThrowError(
      /falseAlarm/,
    );
  });

  it('leaves an earlier state untouched when a later record is applied (states are values)', () => {
    const config = sessionConfig('bulgaria-punto-banco');
    const first = reduce(config, initialState(), shuffle(8)).state;
    const frozen = JSON.stringify({
      ...first,
      shoe: { ...first.shoe, remaining: [...first.shoe!.remaining] },
    });
    let state = first;
    for (const record of [...BURN_TWO, round(), ...cards('9H 2C TD 7S')]) {
      state = reduce(config, state, record).state;
    }
    expect(
      JSON.stringify({ ...first, shoe: { ...first.shoe, remaining: [...first.shoe!.remaining] } }),
    ).toBe(frozen);
    expect(state.shoe!.left).toBe(first.shoe!.left - 7);
  });

  it('tells the dealer lights what the next card is for', () => {
    const session = TableSession.forRuleset('bulgaria-punto-banco');
    expect(session.expecting().kind).toBe('shuffle');
    session.apply(shuffle(8));
    expect(session.expecting().text).toBe('burn: turn the first card');
    session.apply(card('3H'));
    expect(session.expecting().text).toBe('burn 3 more');
    for (const record of cards('4H 5H 6H')) session.apply(record);
    expect(session.expecting().kind).toBe('round');
    session.apply(round());
    expect(session.expecting().text).toBe('player card 1');
    for (const record of cards('2C 3C 2D')) session.apply(record);
    expect(session.expecting().text).toBe('banker card 2');
    session.apply(card('AD')); // player 4, banker 4: the player draws
    expect(session.expecting()).toMatchObject({ kind: 'card', to: 'player', text: 'player draws' });
    session.apply(card('2H')); // player third card 2: banker 4 draws on 2-7
    expect(session.expecting()).toMatchObject({ to: 'banker', text: 'banker draws' });
  });

  it('publishes a snapshot with counts and dealt cards only, never the shuffler order', () => {
    const order = [
      'KS',
      '4C',
      'AH',
      '9D',
      '3H',
      '7S',
      '5C',
      '6H',
      'QD',
      '8H',
      '2S',
      'TH',
      'JH',
      'QH',
      'KH',
      'AC',
      '2C',
    ] as const;
    const session = TableSession.forRuleset('tdc-baccarat-no-commission');
    const records = [
      shuffle(8, 'red', [...order]),
      card('KS'),
      ...cards('4C AH 9D 3H 7S 5C 6H QD 8H 2S'),
      round(),
      card('TH'),
    ];
    const events = records.flatMap((r) => session.apply(r));
    expect(alarms(events)).toEqual([]);
    const snapshot = session.snapshot();
    expect(snapshot).toMatchObject({
      ruleset: 'tdc-baccarat-no-commission',
      shoe: { number: 1, cards: 416, dealt: 12, remaining: 404, shufflerOrder: 'verified' },
      round: { number: 1, table: { player: { cards: ['TH'] } } },
      expecting: { kind: 'card', to: 'banker' },
    });
    const published = JSON.stringify([snapshot, events]);
    for (const undealt of ['JH', 'QH', 'KH', 'AC', '2C']) expect(published).not.toContain(undealt);
  });

  it('replays a log to the same events every time', () => {
    const records = [
      shuffle(8),
      ...BURN_TWO,
      round(),
      ...cards('9H 2C TD 7S'),
      card('QS', 'red', 'up'),
    ];
    expect(play('monaco-punto-2000', records).events).toEqual(
      play('monaco-punto-2000', records).events,
    );
  });

  it('starts a coup from a card between coups only when asked to (shoes without a new-coup button)', () => {
    const records = [shuffle(8), ...BURN_TWO, ...cards('9H 2C TD 7S')];
    expect(alarms(play('monaco-punto-2000', records).events)[0]).toMatchObject({
      kind: 'unexpected_card',
    });
    const auto = play('monaco-punto-2000', records, { autoRound: true }).events;
    expect(alarms(auto)).toEqual([]);
    expect(auto.filter((e) => e.type === 'result')).toHaveLength(1);
  });
});
