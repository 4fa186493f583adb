import { describe, expect, it } from 'vitest';
import { gameOf } from '../../../firmware-host/games/registry.ts';
import { RouletteSession } from '../../../firmware-host/games/roulette/session.ts';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';

const RULESETS = ['bulgaria-roulette', 'tdc-roulette'] as const;

function feedAll(session: RouletteSession, records: unknown[]): DomainEvent[] {
  return records.flatMap((record) => {
    const result = session.feed(record);
    if (!result.ok) throw result.error;
    return result.events;
  });
}

const alarms = (events: DomainEvent[]) =>
  events.flatMap((event) => (event.type === 'alarm' ? [event] : []));
const types = (events: DomainEvent[]) => events.map((event) => event.type);

const legalSpin = (rotor: 'cw' | 'ccw', number: number, revolutions = 12) => [
  { t: 'no_more_bets' },
  { t: 'spin', rotor, ball: rotor === 'cw' ? 'ccw' : 'cw', number, revolutions },
];

describe.each(RULESETS)('the roulette session of %s', (name) => {
  const ruleset = getRouletteRuleset(name);

  it('takes a legal spin: no more bets, the number and its colour, the next game', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, legalSpin('cw', 17));
    expect(events).toEqual([
      { type: 'no_more_bets', game: 1 },
      {
        type: 'spin',
        game: 1,
        number: 17,
        colour: 'black',
        rotor: 'cw',
        ball: 'ccw',
        revolutions: 12,
      },
      { type: 'game_start', game: 2 },
    ]);
    expect(session.snapshot()).toMatchObject({
      ruleset: name,
      game: 'roulette',
      roulette: { game: 2, betting: 'open', lastNumbers: [17], lastRotor: 'cw', nextRotor: 'ccw' },
    });
    expect(session.expecting()).toMatchObject({ kind: 'bets', game: 2 });
  });

  it('colours zero green and a red number red', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [...legalSpin('cw', 0), ...legalSpin('ccw', 32)]);
    expect(
      events
        .filter((event) => event.type === 'spin')
        .map((event) => (event as { colour: string }).colour),
    ).toEqual(['green', 'red']);
  });

  it('raises rotor_same_direction when the rotor turns the way it did last spin', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [...legalSpin('cw', 5), ...legalSpin('cw', 6)]);
    expect(alarms(events)).toEqual([
      expect.objectContaining({
        kind: 'rotor_same_direction',
        game: 2,
        rule: ruleset.spin.alternateRotor.source,
      }),
    ]);
    // The number stands: the ball is where it is.
    expect(session.state.recent).toEqual([6, 5]);
  });

  it('raises ball_with_rotor citing the article when the ball is thrown with the rotor', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [
      { t: 'no_more_bets' },
      { t: 'spin', rotor: 'ccw', ball: 'ccw', number: 9, revolutions: 11 },
    ]);
    expect(alarms(events)).toEqual([
      expect.objectContaining({
        kind: 'ball_with_rotor',
        rule: ruleset.spin.ballAgainstRotor.source,
      }),
    ]);
  });

  it('raises few_revolutions below the ruleset minimum, and not at it', () => {
    const minimum = ruleset.spin.minBallRevolutions.value;
    const session = new RouletteSession(name);
    const below = feedAll(session, legalSpin('cw', 1, minimum - 1));
    expect(alarms(below)).toEqual([
      expect.objectContaining({ kind: 'few_revolutions', revolutions: minimum - 1, minimum }),
    ]);
    expect(alarms(below)[0]?.rule).toMatch(/^practice: /);
    expect(alarms(feedAll(session, legalSpin('ccw', 2, minimum)))).toEqual([]);
  });

  it('raises spin_without_close for a spin while betting is open, and keeps the number', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [
      { t: 'spin', rotor: 'cw', ball: 'ccw', number: 23, revolutions: 9 },
    ]);
    expect(alarms(events)).toEqual([
      expect.objectContaining({ kind: 'spin_without_close', rule: ruleset.spin.noMoreBets.source }),
    ]);
    expect(types(events)).toContain('spin');
  });

  it('voids the game and declares a new one for a result with no ball launch', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [
      { t: 'no_more_bets' },
      { t: 'spin', rotor: 'cw', number: 14 },
    ]);
    expect(types(events)).toEqual(['no_more_bets', 'alarm', 'game_voided', 'game_start']);
    expect(alarms(events)[0]).toMatchObject({ kind: 'result_without_spin', number: 14 });
    expect(events.find((event) => event.type === 'game_voided')).toMatchObject({
      game: 1,
      rule: ruleset.spin.noSpinVoids.source,
    });
    expect(session.state).toMatchObject({ game: 2, spins: 0, voided: 1, recent: [] });
    // The voided spin's rotor still counts for the alternation of the next one.
    expect(alarms(feedAll(session, legalSpin('cw', 3)))).toEqual([
      expect.objectContaining({ kind: 'rotor_same_direction' }),
    ]);
  });

  it('voids the game for a no-spin (a chip in the wheel) with the article', () => {
    const session = new RouletteSession(name);
    const events = feedAll(session, [
      { t: 'no_more_bets' },
      { t: 'no_spin', reason: 'foreign_object', rotor: 'ccw' },
    ]);
    expect(types(events)).toEqual(['no_more_bets', 'alarm', 'game_voided', 'game_start']);
    expect(alarms(events)[0]).toMatchObject({
      kind: 'no_spin',
      rule: ruleset.spin.noSpinVoids.source,
    });
    expect(session.state).toMatchObject({ game: 2, betting: 'open', lastRotor: 'ccw' });
  });

  it('announces the last games at closing time and counts them down; a void is replaced, not counted', () => {
    const session = new RouletteSession(name);
    const games = ruleset.closing.lastGames;
    expect(games).toBe(3);
    const events = feedAll(session, [
      { t: 'closing' },
      ...legalSpin('cw', 1),
      { t: 'no_spin', reason: 'ball_dropped' },
      ...legalSpin('ccw', 2),
      ...legalSpin('cw', 3),
    ]);
    const countdown = events.filter((event) =>
      ['closing', 'games_left', 'table_closed'].includes(event.type),
    );
    expect(countdown).toEqual([
      { type: 'closing', games: 3, rule: ruleset.closing.source },
      { type: 'games_left', left: 2, rule: ruleset.closing.source },
      { type: 'games_left', left: 1, rule: ruleset.closing.source },
      { type: 'table_closed', games: 3, rule: ruleset.closing.source },
    ]);
    expect(session.expecting().kind).toBe('closed');
    const after = feedAll(session, legalSpin('ccw', 4));
    expect(types(after)).toEqual(['alarm']);
    expect(alarms(after)[0]).toMatchObject({ kind: 'game_after_closing' });
  });

  it('reopens a closed table: closing time over, the next game opens, citing the article (issue 35)', () => {
    const session = new RouletteSession(name);
    feedAll(session, [
      { t: 'closing' },
      ...legalSpin('cw', 1),
      ...legalSpin('ccw', 2),
      ...legalSpin('cw', 3),
    ]);
    expect(session.expecting().kind).toBe('closed');
    const reopened = feedAll(session, [
      { t: 'reopen', src: 'web:alice', reason: 'the pit opens the table again' },
    ]);
    expect(reopened).toEqual([
      {
        type: 'table_reopened',
        game: 4,
        reason: 'the pit opens the table again',
        rule: ruleset.closing.reopen,
      },
    ]);
    expect(ruleset.closing.reopen).toMatch(/§ 13\(1\)/);
    expect(session.expecting()).toMatchObject({ kind: 'bets', game: 4 });
    // The next game plays as any other; closing time can be announced again.
    expect(types(feedAll(session, legalSpin('ccw', 5)))).toEqual([
      'no_more_bets',
      'spin',
      'game_start',
    ]);
    expect(types(feedAll(session, [{ t: 'closing' }]))).toEqual(['closing']);
  });

  it('reopening an open table is an alarm and changes nothing (a request is refused)', () => {
    const session = new RouletteSession(name);
    const before = session.state;
    const events = feedAll(session, [{ t: 'reopen', reason: 'by mistake' }]);
    expect(alarms(events)).toEqual([
      expect.objectContaining({ kind: 'reopen_not_closed', rule: ruleset.closing.reopen }),
    ]);
    expect(session.state).toEqual(before);
  });
});

describe('roulette records', () => {
  it('refuses a number off the wheel, naming it, and changes nothing', () => {
    const session = new RouletteSession('tdc-roulette');
    const before = session.state;
    const result = session.feed({
      t: 'spin',
      rotor: 'cw',
      ball: 'ccw',
      number: 37,
      revolutions: 9,
    });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/no pocket above 36.*at number/s);
    const direction = session.feed({ t: 'spin', rotor: 'left', ball: 'ccw', number: 3 });
    expect(direction.ok).toBe(false);
    if (!direction.ok) expect(direction.error.message).toMatch(/cw or ccw.*at rotor/s);
    expect(session.state).toBe(before);
  });

  it('a second no-more-bets changes nothing', () => {
    const session = new RouletteSession('tdc-roulette');
    expect(feedAll(session, [{ t: 'no_more_bets' }, { t: 'no_more_bets' }])).toEqual([
      { type: 'no_more_bets', game: 1 },
    ]);
  });

  it('serializes its state and reads it back exactly', () => {
    const session = new RouletteSession('bulgaria-roulette');
    feedAll(session, [...legalSpin('cw', 7), { t: 'closing' }, { t: 'no_more_bets' }]);
    const copy = RouletteSession.deserialize(
      'bulgaria-roulette',
      JSON.parse(JSON.stringify(session.serialize())),
    );
    expect(copy.state).toEqual(session.state);
    expect(() => RouletteSession.deserialize('bulgaria-roulette', { game: 0 })).toThrow(
      /roulette session state/,
    );
  });

  it('the game registry picks the session by the ruleset', () => {
    expect(
      gameOf('tdc-roulette').openSession('tdc-roulette', { autoRound: false }).expecting(),
    ).toMatchObject({ kind: 'bets' });
    expect(gameOf('tdc-blackjack').id).toBe('cards');
    expect(() => gameOf('no-such-ruleset')).toThrow(/unknown ruleset/);
  });
});
