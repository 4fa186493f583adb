/**
 * The single-zero wheel, the layout's bets by name and the call bets'
 * placements, against the texts (003 § 12; 004 "Соседи", "Серия",
 * "Комплит") and the usual racetrack.
 */
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../../../../firmware-host/engine/errors.ts';
import {
  allLayoutBets,
  parseLayoutBet,
} from '../../../../firmware-host/games/roulette/engine/bets.ts';
import {
  completePlacements,
  parseCallBet,
} from '../../../../firmware-host/games/roulette/engine/call-bets.ts';
import {
  colourOf,
  wheelNeighbours,
} from '../../../../firmware-host/games/roulette/engine/layout.ts';
import { TDC_ROULETTE } from '../../../../firmware-host/games/roulette/rulesets.ts';
import {
  getRouletteRuleset,
  parseRouletteRuleset,
  rouletteRulesetNames,
} from '../../../../firmware-host/games/rulesets.ts';

const tdc = getRouletteRuleset('tdc-roulette');
const bulgaria = getRouletteRuleset('bulgaria-roulette');

function layoutError(text: string): string {
  try {
    parseLayoutBet(tdc, text);
  } catch (error) {
    expect(isEngineError(error) && error.code === 'bad_input').toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${text} parsed`);
}

describe('the roulette rulesets', () => {
  it('ships bulgaria-roulette (003 § 10-13) and tdc-roulette (004), each rule point cited', () => {
    expect(rouletteRulesetNames()).toEqual(['bulgaria-roulette', 'tdc-roulette']);
    expect(bulgaria.payouts.source).toMatch(/^003 § 12\(1\)/);
    expect(bulgaria.spin.alternateRotor.source).toMatch(/^003 § 11\(4\)/);
    expect(bulgaria.spin.ballAgainstRotor.source).toMatch(/^003 § 11\(1\)/);
    expect(bulgaria.closing).toMatchObject({ lastGames: 3 });
    expect(bulgaria.closing.source).toMatch(/^003 § 13\(2\)/);
    expect(tdc.payouts.source).toMatch(/^practice: /);
    expect(tdc.spin.minBallRevolutions.source).toMatch(/^practice: /);
    expect(tdc.limits.overMaximum).toBe('pay_to_maximum');
    expect(tdc.limits.overMaximumSource).toMatch(/^004/);
  });

  it('pays 35, 17, 11, 8, 5, 2, 2 and 1 (003 § 12(1) items 1-7)', () => {
    for (const ruleset of [tdc, bulgaria]) {
      expect(ruleset.payouts).toMatchObject({
        straight: 35,
        split: 17,
        street: 11,
        corner: 8,
        sixline: 5,
        dozen: 2,
        column: 2,
        evenChance: 1,
      });
      expect(ruleset.zero.outsideBets).toBe('lose');
    }
  });

  it('refuses a wheel that is not a permutation of 0-36, and a series placement off the layout', () => {
    const order = [...(TDC_ROULETTE.wheel.order as number[])];
    order[5] = 32;
    expect(() =>
      parseRouletteRuleset({ ...TDC_ROULETTE, wheel: { ...TDC_ROULETTE.wheel, order } }),
    ).toThrow(/each of 0-36 once/);
    const tiers = {
      ...TDC_ROULETTE.tiers,
      placements: [{ bet: 'split:5-9', chips: 6 }],
    };
    expect(() => parseRouletteRuleset({ ...TDC_ROULETTE, tiers })).toThrow(
      /split:5-9.*do not touch/,
    );
    expect(() =>
      parseRouletteRuleset({ ...TDC_ROULETTE, voisins: { ...TDC_ROULETTE.voisins, chips: 8 } }),
    ).toThrow(/sum of its placements/);
  });
});

describe('the wheel', () => {
  it('colours 18 red, 18 black and zero green', () => {
    const colours = Array.from({ length: 37 }, (_, n) => colourOf(tdc, n));
    expect(colours.filter((c) => c === 'red')).toHaveLength(18);
    expect(colours.filter((c) => c === 'black')).toHaveLength(18);
    expect(colourOf(tdc, 0)).toBe('green');
    expect(colourOf(tdc, 17)).toBe('black');
    expect(colourOf(tdc, 32)).toBe('red');
  });

  it('gives the neighbours of zero as 004 does: 3, 26, 0, 32, 15', () => {
    expect(wheelNeighbours(tdc, 0, 2)).toEqual([3, 26, 0, 32, 15]);
    expect(wheelNeighbours(tdc, 17, 2)).toEqual([2, 25, 17, 34, 6]);
    expect(wheelNeighbours(tdc, 26, 2)).toEqual([35, 3, 26, 0, 32]);
  });

  it('alternates red and black all round the wheel', () => {
    const order = tdc.wheel.order.slice(1);
    for (let i = 1; i < order.length; i++) {
      expect(colourOf(tdc, order[i]!)).not.toBe(colourOf(tdc, order[i - 1]!));
    }
  });
});

describe('layout bets by name', () => {
  it('has 37 straights, 60 splits, 2 trios, 12 streets, the first four, 22 corners, 11 six lines', () => {
    const kinds = new Map<string, number>();
    for (const bet of allLayoutBets(tdc)) {
      const key =
        bet.numbers.includes(0) && bet.kind !== 'straight' && bet.kind !== 'split'
          ? `${bet.kind}+0`
          : bet.kind;
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(kinds)).toEqual({
      straight: 37,
      split: 60,
      street: 12,
      'street+0': 2,
      corner: 22,
      'corner+0': 1,
      sixline: 11,
      dozen: 3,
      column: 3,
      red: 1,
      black: 1,
      even: 1,
      odd: 1,
      low: 1,
      high: 1,
    });
  });

  it('names a street and a six line by the first number, a split and a corner by lowest and highest', () => {
    expect(parseLayoutBet(tdc, 'street:16').numbers).toEqual([16, 17, 18]);
    expect(parseLayoutBet(tdc, 'street:16-18').name).toBe('street:16');
    expect(parseLayoutBet(tdc, 'sixline:13-18').numbers).toEqual([13, 14, 15, 16, 17, 18]);
    expect(parseLayoutBet(tdc, 'sixline:13').name).toBe('sixline:13');
    expect(parseLayoutBet(tdc, 'corner:13-17').numbers).toEqual([13, 14, 16, 17]);
    expect(parseLayoutBet(tdc, 'split:17-20').numbers).toEqual([17, 20]);
    expect(parseLayoutBet(tdc, 'split:20-17').name).toBe('split:17-20');
    expect(parseLayoutBet(tdc, 'street:0-2-3').numbers).toEqual([0, 2, 3]);
    expect(parseLayoutBet(tdc, 'corner:0-3').numbers).toEqual([0, 1, 2, 3]);
    expect(parseLayoutBet(tdc, 'column:2').numbers).toContain(17);
    expect(parseLayoutBet(tdc, 'dozen:3').numbers).toEqual(
      Array.from({ length: 12 }, (_, i) => 25 + i),
    );
  });

  it('knows the other names a croupier uses: the trios, the first four, the French even chances', () => {
    expect(parseLayoutBet(tdc, 'trio:0-2-3').name).toBe('street:0-2-3');
    expect(parseLayoutBet(tdc, 'first-four').name).toBe('corner:0-3');
    expect(parseLayoutBet(tdc, 'rouge').numbers).toEqual(parseLayoutBet(tdc, 'red').numbers);
    expect(parseLayoutBet(tdc, 'manque').name).toBe('low');
    expect(parseLayoutBet(tdc, '19-36').name).toBe('high');
    expect(parseCallBet(tdc, 'neighbors:0').name).toBe('neighbours:0');
    expect(parseCallBet(tdc, 'jeu-zero').chips).toBe(4);
  });

  it('refuses, naming it, every bet that is not on the layout', () => {
    expect(layoutError('split:17-19')).toMatch(
      /"split:17-19" is not on the layout: 17 and 19 do not touch/,
    );
    expect(layoutError('split:3-4')).toMatch(/do not touch/);
    expect(layoutError('straight:37')).toMatch(/no number 37/);
    expect(layoutError('street:17')).toMatch(/first number/);
    expect(layoutError('corner:3-7')).toMatch(/lowest and highest/);
    expect(layoutError('corner:13-18')).toMatch(/lowest and highest/);
    expect(layoutError('sixline:34')).toMatch(/six line/);
    expect(layoutError('dozen:4')).toMatch(/1, 2 or 3/);
    expect(layoutError('red:3')).toMatch(/takes no numbers/);
    expect(layoutError('street:0-1-3')).toMatch(/0-1-2 and 0-2-3/);
    expect(layoutError('banana:3')).toMatch(/unknown bet "banana"/);
    expect(layoutError('straight:x')).toMatch(/expected numbers/);
  });
});

describe('call bets', () => {
  const names = (text: string) =>
    parseCallBet(tdc, text).placements.map((p) => `${p.bet.name}x${p.chips}`);

  it('takes 9, 6, 5 and 4 chips for voisins, tiers, orphelins and zéro spiel (004 "Серия")', () => {
    expect(parseCallBet(tdc, 'voisins').chips).toBe(9);
    expect(parseCallBet(tdc, 'tiers').chips).toBe(6);
    expect(parseCallBet(tdc, 'orphelins').chips).toBe(5);
    expect(parseCallBet(tdc, 'zero-spiel').chips).toBe(4);
    expect(parseCallBet(tdc, 'neighbours:17').chips).toBe(5);
    // The narrower reading of 003 § 12(1) item 8, one either side, as a named option.
    const narrow = { ...bulgaria, neighbours: { ...bulgaria.neighbours, eachSide: 1 } };
    expect(parseCallBet(narrow, 'neighbours:0').placements.map((p) => p.bet.name)).toEqual([
      'straight:26',
      'straight:0',
      'straight:32',
    ]);
  });

  it('places the usual chips: voisins with two on the 0-2-3 trio and on 25-29', () => {
    expect(names('voisins')).toEqual([
      'street:0-2-3x2',
      'split:4-7x1',
      'split:12-15x1',
      'split:18-21x1',
      'split:19-22x1',
      'corner:25-29x2',
      'split:32-35x1',
    ]);
    expect(names('zero-spiel')).toEqual([
      'split:0-3x1',
      'split:12-15x1',
      'straight:26x1',
      'split:32-35x1',
    ]);
  });

  it('covers each series sector of the wheel and nothing else', () => {
    const covered = (text: string) =>
      [...new Set(parseCallBet(tdc, text).placements.flatMap((p) => p.bet.numbers))].sort(
        (a, b) => a - b,
      );
    const arc = (from: number, to: number) => {
      const order = tdc.wheel.order;
      const start = order.indexOf(from);
      const out: number[] = [];
      for (let i = start; ; i = (i + 1) % 37) {
        out.push(order[i]!);
        if (order[i] === to) break;
      }
      return out.sort((a, b) => a - b);
    };
    expect(covered('voisins')).toEqual(arc(22, 25));
    expect(covered('tiers')).toEqual(arc(27, 33));
    expect(covered('orphelins')).toEqual([...arc(17, 6), ...arc(1, 9)].sort((a, b) => a - b));
    expect(covered('zero-spiel')).toEqual(arc(12, 15));
  });

  it('makes a complete bet of every inside bet touching the number: 40 chips on 17, 17 on 0, 36 on 2, 27 on 1', () => {
    const chips = (n: number) => completePlacements(tdc, n).reduce((sum, p) => sum + p.chips, 0);
    expect([chips(17), chips(0), chips(2), chips(1)]).toEqual([40, 17, 36, 27]);
  });

  it('refuses at bulgaria-roulette the bets 003 § 12(1) does not list, citing it', () => {
    for (const text of ['tiers', 'orphelins', 'zero-spiel', 'complete:17']) {
      expect(() => parseCallBet(bulgaria, text)).toThrow(
        /not offered at bulgaria-roulette \(003 § 12\(1\)/,
      );
    }
    expect(parseCallBet(bulgaria, 'voisins').chips).toBe(9);
    expect(parseCallBet(bulgaria, 'neighbours:0').chips).toBe(5);
  });
});
