/**
 * Settling a spin: payouts (003 § 12(1)), zero and the outside bets (004;
 * 003 § 12(2)), call bets settled as their parts, the table maximum (004:
 * paid up to it, the rest returned; bulgaria-roulette refuses it), and bad
 * bets refused whole, before anything is settled.
 */
import { describe, expect, it } from 'vitest';
import { settleSpin } from '../../../../firmware-host/games/roulette/engine/settle.ts';
import { parseSlip } from '../../../../firmware-host/games/roulette/engine/slip.ts';
import type { RouletteRuleset } from '../../../../firmware-host/games/rulesets.ts';
import { getRouletteRuleset } from '../../../../firmware-host/games/rulesets.ts';

const tdc = getRouletteRuleset('tdc-roulette');
const bulgaria = getRouletteRuleset('bulgaria-roulette');
const settle = (ruleset: RouletteRuleset, number: number, slip: string) =>
  settleSpin(ruleset, number, parseSlip(slip));
const nets = (ruleset: RouletteRuleset, number: number, slip: string) =>
  Object.fromEntries(
    Object.entries(settle(ruleset, number, slip).bets).map(([k, v]) => [k, v.net]),
  );

const ISSUE_SLIP =
  'straight:17=10 split:17-20=5 street:16=5 corner:13-17=4 sixline:13-18=6 dozen:2=10 column:2=10 red=10 black=10 even=10 odd=10 low=10 high=10 neighbours:17=5 voisins=9 tiers=6 orphelins=5 zero-spiel=4';

describe('settling a spin', () => {
  it("settles the issue's slip on 17 (black): every bet as 003 § 12(1) pays", () => {
    const s = settle(tdc, 17, ISSUE_SLIP);
    expect(s.number).toBe(17);
    expect(s.colour).toBe('black');
    expect(nets(tdc, 17, ISSUE_SLIP)).toEqual({
      'straight:17': 350,
      'split:17-20': 85,
      'street:16': 55,
      'corner:13-17': 32,
      'sixline:13-18': 30,
      'dozen:2': 20,
      'column:2': 20,
      red: -10,
      black: 10,
      even: -10,
      odd: 10,
      low: 10,
      high: -10,
      // 17 and its four neighbours, one chip each: 35 - 4.
      'neighbours:17': 31,
      voisins: -9,
      tiers: -6,
      // 17 is on two of the orphelins splits: 17 + 17 - 3.
      orphelins: 31,
      'zero-spiel': -4,
    });
    expect(s.net).toBe(635);
    expect(s.bets['straight:17']).toMatchObject({ stake: 10, net: 350 });
  });

  it('takes every outside bet on zero and pays the zero bets (004; 003 § 12(2))', () => {
    expect(
      nets(
        tdc,
        0,
        'straight:0=2 split:0-3=1 red=10 black=10 even=10 odd=10 low=10 high=10 dozen:1=5 column:3=5 street:0-2-3=3 corner:0-3=1',
      ),
    ).toEqual({
      'straight:0': 70,
      'split:0-3': 17,
      red: -10,
      black: -10,
      even: -10,
      odd: -10,
      low: -10,
      high: -10,
      'dozen:1': -5,
      'column:3': -5,
      'street:0-2-3': 33,
      'corner:0-3': 8,
    });
  });

  it('settles voisins on zero as its parts: 2 chips on the trio win 22, 7 lose', () => {
    const s = settle(tdc, 0, 'voisins=18');
    expect(s.bets.voisins?.net).toBe(2 * 2 * 11 - 7 * 2);
    expect(s.bets.voisins?.parts.find((p) => p.bet === 'street:0-2-3')).toMatchObject({
      stake: 4,
      net: 44,
    });
  });

  it('gives back half of an even chance on zero under la partage, the named option; dozens still lose', () => {
    const partage: RouletteRuleset = { ...tdc, zero: { ...tdc.zero, outsideBets: 'la_partage' } };
    expect(nets(partage, 0, 'red=10 odd=7 dozen:1=10')).toEqual({
      red: -5,
      odd: -3.5,
      'dozen:1': -10,
    });
    expect(nets(partage, 5, 'red=10 black=10')).toEqual({ red: 10, black: -10 });
  });

  it('plays a stake over the maximum up to it and returns the rest (004)', () => {
    const s = settle(tdc, 17, 'straight:17=150 straight:18=150 red=2500');
    expect(s.bets['straight:17']).toMatchObject({ stake: 150, net: 3500, returned: 50 });
    expect(s.bets['straight:18']).toMatchObject({ stake: 150, net: -100, returned: 50 });
    expect(s.bets.red).toMatchObject({ stake: 2500, net: -2000, returned: 500 });
    expect(settle(tdc, 17, 'straight:17=100').bets['straight:17']).not.toHaveProperty('returned');
  });

  it('applies the maximum to each part of a call bet', () => {
    // 120 units of tiers: 120 on each split, the maximum is 200: in play whole.
    expect(settle(tdc, 5, 'tiers=720').bets.tiers).toMatchObject({ net: 120 * 17 - 5 * 120 });
    // neighbours by 150: each straight over its maximum of 100.
    expect(settle(tdc, 17, 'neighbours:17=750').bets['neighbours:17']).toMatchObject({
      net: 100 * 35 - 4 * 100,
      returned: 250,
    });
  });

  it('refuses a stake over the maximum at bulgaria-roulette, naming the bet and the maximum', () => {
    expect(() => settle(bulgaria, 17, 'red=5 straight:17=101')).toThrow(
      /bet "straight:17": straight:17 has 101 chips, over the maximum of 100/,
    );
  });

  it('refuses a whole slip when one bet is off the layout: nothing is settled', () => {
    expect(() => settle(tdc, 17, 'straight:17=10 split:17-19=5')).toThrow(
      /"split:17-19" is not on the layout/,
    );
  });

  it('refuses a call bet stake that is not whole units, a bad number, a stake of 0 and a bet given twice', () => {
    expect(() => settle(tdc, 17, 'voisins=10')).toThrow(/voisins takes 9 chips a unit/);
    expect(() => settle(tdc, 37, 'red=1')).toThrow(/no pocket 37/);
    expect(() => parseSlip('red=0')).toThrow(/whole number of chips above 0/);
    expect(() => parseSlip('red=1.5')).toThrow(/whole number of chips above 0/);
    expect(() => parseSlip('red=1 red=2')).toThrow(/"red" is given twice/);
    expect(() => parseSlip('red')).toThrow(/expected NAME=STAKE/);
    expect(() => parseSlip('  ')).toThrow(/no bets/);
  });

  it('settles complete bets only where offered (004), each part as many chips as numbers it covers', () => {
    const s = settle(tdc, 17, 'complete:17=40');
    // Every part wins 36 chips back per unit: straight 35, splits 2×17, street 3×11, corners 4×8, six lines 6×5.
    expect(s.bets['complete:17']?.net).toBe(35 + 4 * 34 + 33 + 4 * 32 + 2 * 30);
    expect(() => settle(bulgaria, 17, 'complete:17=40')).toThrow(/not offered/);
  });
});
