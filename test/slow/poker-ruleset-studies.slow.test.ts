/**
 * The poker ruleset studies in full (issue 4 § 3), slow: the five-card
 * showdown against a brute force (about 8 s), the hold'em enumerations over
 * every board (about 10 s each) with invariants derived independently, and
 * `tableside analyze ruleset` for every shipped ruleset as a child process,
 * nothing skipped. CI runs it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { choose } from '../../firmware-host/analysis/exact.ts';
import type { CasinoHoldemRuleset } from '../../firmware-host/engine/rulesets/poker.ts';
import { fiveCardShowdown } from '../../firmware-host/games/cards/poker/analysis/five-card-showdown.ts';
import { holdemShowdown } from '../../firmware-host/games/cards/poker/analysis/holdem-showdown.ts';
import { pokerCategoryCounts } from '../../firmware-host/games/cards/poker/analysis/poker.ts';
import { classifyShowdown } from '../../firmware-host/games/cards/poker/analysis/showdown-outcome.ts';
import { qualifierStrength } from '../../firmware-host/games/cards/poker/analysis/study.ts';
import { evaluate5Ints } from '../../firmware-host/games/cards/poker/evaluator.ts';
import { getRuleset, rulesetNames } from '../../firmware-host/games/rulesets.ts';
import { cliEntryArgs } from '../helpers/built-cli.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const sum = (values: readonly bigint[]) => values.reduce((a, b) => a + b, 0n);

describe('five cards against five', () => {
  it('equals a brute force over every pair of hands from A-5 in four suits, with a qualifier', () => {
    const deck = [12, 0, 1, 2, 3].flatMap((rank) => [0, 1, 2, 3].map((suit) => rank * 4 + suit));
    const qualifier = 2000;
    const exact = fiveCardShowdown(qualifier, deck);
    const hands: [number, number][] = [];
    const n = deck.length;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        for (let c = b + 1; c < n; c++)
          for (let d = c + 1; d < n; d++)
            for (let e = d + 1; e < n; e++)
              hands.push([
                (1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e),
                evaluate5Ints(deck[a]!, deck[b]!, deck[c]!, deck[d]!, deck[e]!),
              ]);
    const tally = new Map<string, number>();
    for (const [mine, mineStrength] of hands)
      for (const [theirs, theirStrength] of hands) {
        if ((mine & theirs) !== 0) continue;
        const key = `${mineStrength}:${classifyShowdown(mineStrength, theirStrength, qualifier)}`;
        tally.set(key, (tally.get(key) ?? 0) + 1);
      }
    const at = (v: number, outcome: string) => BigInt(tally.get(`${v}:${outcome}`) ?? 0);
    for (let v = 1; v < exact.hands.length; v++) {
      expect([exact.dealerNotQualified[v], exact.wins[v], exact.ties[v], exact.losses[v]]).toEqual([
        at(v, 'dealer_not_qualified'),
        at(v, 'win'),
        at(v, 'tie'),
        at(v, 'lose'),
      ]);
    }
    expect(exact.total).toBe(15_504n * 3_003n);
  }, 30_000);
});

describe("hold'em against the dealer, every board", () => {
  it("casino hold'em, always call: the dealer misses a pair of fours exactly as often as seven-card hands below it, times 21 hole-card choices and 990 box hands", () => {
    const casino = getRuleset('tdc-casino-holdem') as CasinoHoldemRuleset;
    const q = qualifierStrength(casino.dealerQualifier);
    const counts = holdemShowdown(q);
    expect(counts.total).toBe(choose(52, 5) * choose(47, 2) * choose(45, 2));
    const seven = pokerCategoryCounts(7).byStrength;
    let below = 0n;
    for (let s = 1; s < q; s++) below += BigInt(seven[s]!);
    expect(sum(counts.dealerNotQualified)).toBe(below * 21n * 990n);
    const all = [counts.dealerNotQualified, counts.wins, counts.ties, counts.losses].map(sum);
    expect(sum(all)).toBe(counts.total);
  }, 120_000);

  it("Hold'em Bonus, no qualifier: box and dealer are dealt alike, so wins equal losses deal for deal", () => {
    const counts = holdemShowdown(1);
    expect(sum(counts.dealerNotQualified)).toBe(0n);
    expect(sum(counts.wins)).toBe(sum(counts.losses));
    expect(sum(counts.wins)).toBe(1_334_125_369_292n);
    expect(sum(counts.ties)).toBe(113_130_263_816n);
  }, 120_000);
});

describe('tableside analyze ruleset, every shipped ruleset, nothing skipped', () => {
  it.each(rulesetNames())(
    '%s exits 0 naming each bet computed (with its edge) or strategy-dependent (with the reason)',
    (name) => {
      const result = spawnSync(
        process.execPath,
        [...cliEntryArgs(), 'analyze', 'ruleset', name, '--json'],
        { cwd: root, encoding: 'utf8', timeout: 120_000 },
      );
      expect(result.status, result.stderr).toBe(0);
      const study = JSON.parse(result.stdout);
      expect(study.ruleset).toBe(name);
      expect(study.run_time_s).toBeTypeOf('number');
      const bets = Object.entries(study.bets) as [string, Record<string, unknown>][];
      expect(bets.length).toBeGreaterThan(0);
      for (const [, bet] of bets) {
        expect(['computed', 'strategy_dependent']).toContain(bet.status);
        if (bet.status === 'computed') expect(bet.house_edge).toBeTypeOf('number');
        else expect(bet.reason).toBeTypeOf('string');
        const assumed = bet.assumed_strategy as Record<string, unknown> | undefined;
        if (assumed && !('not_computed' in assumed))
          expect(assumed.house_edge).toBeTypeOf('number');
      }
    },
    120_000,
  );

  it("the exact figures of the poker rulesets' strategies", () => {
    const run = (name: string) =>
      JSON.parse(
        spawnSync(process.execPath, [...cliEntryArgs(), 'analyze', 'ruleset', name, '--json'], {
          cwd: root,
          encoding: 'utf8',
          timeout: 120_000,
        }).stdout,
      );
    const casino = run('tdc-casino-holdem');
    expect(casino.bets.ante_call.assumed_strategy.house_edge_exact).toBe(
      '27464897003/347672625300',
    );
    const spain = run('spain-holdem-bonus');
    // Even-money Turn and River bets return exactly 0 when always placed (no qualifier).
    expect(spain.bets.turn.assumed_strategy.house_edge_exact).toBe('0');
    expect(spain.bets.ante_flop.assumed_strategy.house_edge).toBeGreaterThan(0);
  }, 120_000);
});
