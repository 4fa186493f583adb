/**
 * Properties of roulette settlement over every number: a bet's nets over
 * the 37 numbers sum to its exact house edge times 37 stakes (the analysis
 * and the settlement agree); a call bet settles as the sum of its parts
 * settled alone; a slip's net is the sum of its bets; no bet loses more
 * than its stake.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { analyzeRoulette } from '../../../firmware-host/games/roulette/analysis/roulette.ts';
import { allLayoutBets } from '../../../firmware-host/games/roulette/engine/bets.ts';
import { parseCallBet } from '../../../firmware-host/games/roulette/engine/call-bets.ts';
import { settleSpin } from '../../../firmware-host/games/roulette/engine/settle.ts';
import { parseSlip } from '../../../firmware-host/games/roulette/engine/slip.ts';
import { getRouletteRuleset } from '../../../firmware-host/games/rulesets.ts';

const tdc = getRouletteRuleset('tdc-roulette');
const partage = { ...tdc, zero: { ...tdc.zero, outsideBets: 'la_partage' as const } };
const layoutNames = allLayoutBets(tdc).map((bet) => bet.name);
const callNames = [
  'voisins',
  'tiers',
  'orphelins',
  'zero-spiel',
  ...Array.from({ length: 37 }, (_, n) => `neighbours:${n}`),
  ...Array.from({ length: 37 }, (_, n) => `complete:${n}`),
];
const number = fc.integer({ min: 0, max: 36 });

describe('roulette slips from any text', () => {
  it('either settles or refuses with a coded bad_input error, never anything else', () => {
    const token = fc.oneof(
      fc.constantFrom(
        ...layoutNames,
        ...callNames,
        'split:17-19',
        'foo',
        'street:0-1-3',
        'corner:0-3',
      ),
      fc.string({ maxLength: 12 }),
    );
    const item = fc.tuple(
      token,
      fc.oneof(fc.integer({ min: -5, max: 5000 }).map(String), fc.string({ maxLength: 4 })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 6 }), number, fc.boolean(), (items, n, spaced) => {
        const text = items.map(([bet, stake]) => `${bet}=${stake}`).join(spaced ? ' ' : ',');
        try {
          const settled = settleSpin(tdc, n, parseSlip(text));
          expect(Number.isFinite(settled.net)).toBe(true);
        } catch (error) {
          expect(isEngineError(error) && error.code === 'bad_input').toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('roulette settlement properties', () => {
  it('a layout bet nets exactly -stake over the 37 numbers (house edge 1/37), whatever the stake up to the maximum', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...layoutNames),
        fc.integer({ min: 1, max: 100 }),
        (name, stake) => {
          let sum = 0;
          for (let n = 0; n <= 36; n++) sum += settleSpin(tdc, n, [{ bet: name, stake }]).net;
          expect(sum).toBe(-stake);
        },
      ),
    );
  });

  it("the analysis's exact expected return equals the mean settlement over the 37 numbers, for every bet type and both zero rules", () => {
    for (const ruleset of [tdc, partage]) {
      const analysis = analyzeRoulette(ruleset);
      const byType = new Map(analysis.bets.map((bet) => [bet.bet, bet]));
      fc.assert(
        fc.property(fc.constantFrom(...layoutNames, ...callNames), (name) => {
          const layout =
            /^(straight|split|street|corner|sixline|dozen|column|red|black|even|odd|low|high)/;
          const stake = layout.test(name) ? 1 : parseCallBet(ruleset, name).chips;
          let sum = 0;
          for (let n = 0; n <= 36; n++) sum += settleSpin(ruleset, n, [{ bet: name, stake }]).net;
          const type =
            name === 'corner:0-3'
              ? 'first-four'
              : name.startsWith('street:0')
                ? 'trio'
                : name.split(':')[0]!;
          const edge = byType.get(type)!;
          // mean net per chip = sum / (37 × stake), exactly the analysis's fraction
          expect(sum * Number(edge.expectedReturn.denominator)).toBe(
            Number(edge.expectedReturn.numerator) * 37 * stake,
          );
        }),
      );
    }
  });

  it('a call bet settles as the sum of its parts settled alone', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...callNames),
        number,
        fc.integer({ min: 1, max: 3 }),
        (name, n, units) => {
          const call = parseCallBet(tdc, name);
          const whole = settleSpin(tdc, n, [{ bet: name, stake: units * call.chips }]).net;
          const parts = call.placements.reduce(
            (sum, p) => sum + settleSpin(tdc, n, [{ bet: p.bet.name, stake: p.chips * units }]).net,
            0,
          );
          expect(whole).toBe(parts);
        },
      ),
    );
  });

  it("a slip's net is the sum of its bets, and no bet loses more than its stake", () => {
    const line = fc.record({
      bet: fc.constantFrom(...layoutNames),
      stake: fc.integer({ min: 1, max: 300 }),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(line, { selector: (l) => l.bet, maxLength: 12, minLength: 1 }),
        number,
        (slip, n) => {
          const settled = settleSpin(tdc, n, slip);
          const bets = Object.values(settled.bets);
          expect(settled.net).toBe(bets.reduce((sum, b) => sum + b.net, 0));
          for (const bet of bets) {
            expect(bet.net).toBeGreaterThanOrEqual(-bet.stake);
            expect((bet.returned ?? 0) >= 0 && (bet.returned ?? 0) < bet.stake).toBe(true);
          }
        },
      ),
    );
  });
});
