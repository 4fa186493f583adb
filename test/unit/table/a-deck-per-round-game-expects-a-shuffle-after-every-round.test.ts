/**
 * In the games that take a fresh deck every round (000 § 7 and § 2.c.2 for
 * Triple Shot; 001 "El juego" 4 for Hold'em Bonus; practice for the other
 * poker games, `shoeEnd: reshuffle_every_round`) the table expects a shuffle,
 * not a round, once the deck has served a round: a dealer following the
 * lights never starts a second round on the same deck. The shoe games still
 * expect the next round until the shoe ends.
 */
import { describe, expect, it } from 'vitest';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { getRuleset, rulesetNames } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { tripleShotRound } from '../../scenarios/triple-shot-round.ts';
import { alarms, play, round } from './helpers.ts';

const perRound = rulesetNames().filter(
  (name) => getRuleset(name).shoeEnd.kind === 'reshuffle_every_round',
);
const shoeGames = rulesetNames().filter((name) => !perRound.includes(name));

/** What the table expects right after each round's result, over a legal deal. */
function expectationsAfterResults(ruleset: string, seed: number) {
  const config = sessionConfig(ruleset, { anomaly: { enabled: false } });
  const deal = dealLegalSession({
    ruleset: config.ruleset,
    engine: config.engine,
    random: seededRandom(seed),
    shoes: 3,
    maxRoundsPerShoe: 2,
  });
  const session = new TableSession(config);
  const after: string[] = [];
  const raised: unknown[] = [];
  for (const record of deal.records) {
    const events = session.apply(record);
    raised.push(...alarms(events));
    if (events.some((event) => event.type === 'result')) after.push(session.expecting().kind);
  }
  return { after, raised };
}

describe('a deck-per-round game expects a shuffle after every round', () => {
  it('covers Triple Shot and the five poker games', () => {
    expect(perRound).toHaveLength(6);
    expect(perRound).toContain('peru-triple-shot');
  });

  it.each(perRound)('%s: after each result the table expects a shuffle', (ruleset) => {
    for (const seed of [1, 2, 3]) {
      const { after, raised } = expectationsAfterResults(ruleset, seed);
      expect(raised).toEqual([]);
      expect(after).toHaveLength(3);
      expect(new Set(after)).toEqual(new Set(['shuffle']));
    }
  });

  it.each(shoeGames)('%s: after a result mid-shoe the table expects the next round', (ruleset) => {
    const { after, raised } = expectationsAfterResults(ruleset, 4);
    expect(raised).toEqual([]);
    expect(after.length).toBeGreaterThanOrEqual(3);
    expect(new Set(after)).toEqual(new Set(['round']));
  });

  it('names the rule, and before the deck has served a round still expects one', () => {
    const [shuffleRecord] = tripleShotRound('red');
    const { session } = play('peru-triple-shot', [shuffleRecord!]);
    expect(session.expecting().kind).toBe('round');
    const served = play('peru-triple-shot', tripleShotRound('red'));
    expect(alarms(served.events)).toEqual([]);
    expect(served.session.expecting()).toMatchObject({ kind: 'shuffle' });
    expect(served.session.expecting().text).toContain('000 § 7');
  });

  it('still flags a round started on the served deck anyway (000 § 2.c.2)', () => {
    const { events } = play('peru-triple-shot', [...tripleShotRound('red'), round([1])], {
      anomaly: { enabled: false },
    });
    expect(alarms(events).map((alarm) => alarm.kind)).toEqual(['deck_not_alternated']);
  });
});
