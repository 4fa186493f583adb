/**
 * Exact Punto Banco analysis against published figures: the 8-deck
 * combinatorial counts (4,998,398,275,503,360 ordered six-card deals) and
 * house edges, Dragon Bonus (002 § 13.9) and the pair bets.
 */
import { describe, expect, it } from 'vitest';
import { isAnalysisError } from '../../../firmware-host/analysis/errors.ts';
import { ratio } from '../../../firmware-host/analysis/exact.ts';
import type { PuntoBancoRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import {
  analyzeBaccarat,
  enumerateBaccarat,
} from '../../../firmware-host/games/cards/baccarat/analysis.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';

const eightDecks = enumerateBaccarat(8);
const ruleset = (name: string) => getRuleset(name) as PuntoBancoRuleset;
/** The classic 5 % commission game on the universal tableau: the published figures are for it. */
const classicRuleset: PuntoBancoRuleset = {
  ...ruleset('bulgaria-punto-banco'),
  tableau: { bankerFiveDrawsOnSeven: true, source: '004 (Baccarat: drawing table)' },
};
const classic = analyzeBaccarat(eightDecks, classicRuleset);

describe('8-deck Punto Banco outcomes', () => {
  it('counts every ordered six-card deal of a 416-card shoe', () => {
    expect(classic.total).toBe(4_998_398_275_503_360n);
    const { banker, player, tie } = classic.outcomes;
    expect(banker + player + tie).toBe(classic.total);
  });

  it('matches the published exact counts', () => {
    expect(classic.outcomes).toEqual({
      banker: 2_292_252_566_437_888n,
      player: 2_230_518_282_592_256n,
      tie: 475_627_426_473_216n,
    });
  });

  it('gives Banker 0.458597, Player 0.446247, Tie 0.095156 to six decimals', () => {
    const { banker, player, tie } = classic.outcomes;
    expect(ratio(banker, classic.total)).toBeCloseTo(0.458597, 6);
    expect(ratio(player, classic.total)).toBeCloseTo(0.446247, 6);
    expect(ratio(tie, classic.total)).toBeCloseTo(0.095156, 6);
  });
});

describe('house edges, 8 decks', () => {
  it('classic (003 § 24(2) payouts, universal tableau): Banker 5 % commission 1.0579 %, Player 1.2351 %, Tie 8:1 14.3596 %', () => {
    expect(classic.bets.banker.houseEdge.toNumber()).toBeCloseTo(0.010579, 6);
    expect(classic.bets.player.houseEdge.toNumber()).toBeCloseTo(0.012351, 6);
    expect(classic.bets.tie.houseEdge.toNumber()).toBeCloseTo(0.143596, 6);
  });

  it('Punto 2000 (002 § 13.8): Banker paying 1/2 on a winning 6 has a 1.4581 % edge', () => {
    const punto2000 = analyzeBaccarat(eightDecks, ruleset('monaco-punto-2000'));
    expect(punto2000.bets.banker.houseEdge.toNumber()).toBeCloseTo(0.014581, 6);
    expect(punto2000.bets.player.houseEdge.toNumber()).toBeCloseTo(0.012351, 6);
  });

  it('Dragon Bonus (002 § 13.9, 30/10/6/4/2/1): Player 2.652 %, Banker 9.373 % as published', () => {
    expect(classic.bets.dragon_player.houseEdge.toNumber()).toBeCloseTo(0.02652, 5);
    expect(classic.bets.dragon_banker.houseEdge.toNumber()).toBeCloseTo(0.09373, 5);
  });

  it('pairs at 11:1 have an edge of exactly 43/415 (10.3614 %)', () => {
    expect(classic.bets.player_pair.houseEdge.toString()).toBe('43/415');
    expect(classic.bets.banker_pair.houseEdge.toString()).toBe('43/415');
  });

  it('pairs at 1:1 as 004 says (tdc-baccarat-no-commission) cost 85.06 %', () => {
    const tdc = analyzeBaccarat(eightDecks, ruleset('tdc-baccarat-no-commission'));
    expect(tdc.bets.player_pair.houseEdge.toNumber()).toBeCloseTo(0.850602, 6);
    expect(tdc.bets.player_pair.offered).toBe(true);
  });
});

describe('the letter of 003 § 24: a Banker 5 stands on a Player third card of 7', () => {
  const bulgaria = ruleset('bulgaria-punto-banco');
  const letter = analyzeBaccarat(enumerateBaccarat(8, bulgaria.tableau), bulgaria);

  it('deals the same shoe and moves only the coups where Banker 5 meets a Player 7', () => {
    expect(letter.total).toBe(classic.total);
    const { banker, player, tie } = letter.outcomes;
    expect(banker + player + tie).toBe(letter.total);
    expect(letter.outcomes).not.toEqual(classic.outcomes);
  });

  it('costs the Banker bet more and the Player bet less than the universal tableau (8 decks)', () => {
    expect(letter.bets.banker.houseEdge.toNumber()).toBeCloseTo(0.010741, 6);
    expect(letter.bets.player.houseEdge.toNumber()).toBeCloseTo(0.012194, 6);
    expect(letter.bets.tie.houseEdge.toNumber()).toBeCloseTo(0.146735, 6);
  });

  it('refuses coups enumerated by the other tableau', () => {
    let caught: unknown;
    try {
      analyzeBaccarat(eightDecks, bulgaria);
    } catch (error) {
      caught = error;
    }
    expect(isAnalysisError(caught)).toBe(true);
    expect((caught as Error).message).toMatch(/bulgaria-punto-banco/);
  });
});

describe('other shoes', () => {
  it('a 6-deck shoe gives the published Banker edge 1.0558 % and Player 1.2374 %', () => {
    const six = analyzeBaccarat(enumerateBaccarat(6), classicRuleset);
    expect(six.bets.banker.houseEdge.toNumber()).toBeCloseTo(0.010558, 5);
    expect(six.bets.player.houseEdge.toNumber()).toBeCloseTo(0.012374, 5);
  });

  it('rejects a deck count outside 1-16 with a coded error', () => {
    for (const decks of [0, 17, 2.5]) {
      let caught: unknown;
      try {
        enumerateBaccarat(decks);
      } catch (error) {
        caught = error;
      }
      expect(isAnalysisError(caught)).toBe(true);
    }
  });
});
