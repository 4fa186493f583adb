import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type StandardCard, standardDeck } from '../../../device-protocol/cards.ts';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { playRound } from '../../../firmware-host/engine/round.ts';
import type { PuntoBancoRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { burnCount } from '../../../firmware-host/games/cards/baccarat/burn.ts';
import {
  createPuntoBancoEngine,
  type PuntoBancoOutcome,
  type PuntoBancoState,
} from '../../../firmware-host/games/cards/baccarat/engine.ts';
import {
  bankerDraws,
  isNaturalTotal,
  playerDraws,
} from '../../../firmware-host/games/cards/baccarat/tableau.ts';
import { getRuleset, parseRuleset } from '../../../firmware-host/games/rulesets.ts';

function engineFor(name: string) {
  return createPuntoBancoEngine(getRuleset(name) as PuntoBancoRuleset);
}
const classic = engineFor('bulgaria-punto-banco');
const punto2000 = engineFor('monaco-punto-2000');
const noCommission = engineFor('tdc-baccarat-no-commission');

function coup(engine: ReturnType<typeof engineFor>, cards: string): PuntoBancoOutcome {
  const run = playRound(engine, {}, cards.split(' ') as StandardCard[]);
  return engine.outcome(run.state) as PuntoBancoOutcome;
}

describe('Punto Banco rules', () => {
  it('deals Player, Banker, Player, Banker (003 § 24 item 3.b; 004)', () => {
    const run = playRound(classic, {}, ['2S', '3H', '4D', '5C'] as StandardCard[]);
    expect(run.dealt.map((d) => d.to).slice(0, 4)).toEqual([
      'player',
      'banker',
      'player',
      'banker',
    ]);
  });

  it('stops at a natural 8 or 9 on either side (003 § 24 item 3.c; 004)', () => {
    const outcome = coup(classic, '9S 2H KD 3C');
    expect(outcome.player).toMatchObject({ total: 9, natural: true, cards: ['9S', 'KD'] });
    expect(outcome.banker).toMatchObject({ total: 5, natural: false });
    expect(outcome.winner).toBe('player');
    const bankerNatural = coup(classic, '2S 4H 3D 4C');
    expect(bankerNatural.banker.natural).toBe(true);
    expect(bankerNatural.player.cards).toHaveLength(2);
  });

  it('deals at most six cards per coup (003 § 24 item 5)', () => {
    const outcome = coup(classic, 'AS 2H 2D KC 3S 4H');
    expect(outcome.player.cards.length + outcome.banker.cards.length).toBe(6);
    expect(() => coup(classic, 'AS 2H 2D KC 3S 4H 5D')).toThrow(/5D.*nobody/);
  });

  it('pays Player 1:1 (003 § 24(2) item 1.1)', () => {
    const outcome = coup(classic, '9S 2H KD 3C');
    expect(outcome.bets.player).toBe(1);
    expect(outcome.bets.banker).toBe(-1);
    expect(outcome.bets.tie).toBe(-1);
  });

  it('pays Banker 0.95, the 5% commission, in classic Punto Banco (003 § 24(2) item 1.2)', () => {
    const outcome = coup(classic, '2S 4H 3D 4C'); // Banker natural 8 vs Player 5
    expect(outcome.winner).toBe('banker');
    expect(outcome.bets.banker).toBe(0.95);
    expect(outcome.bets.player).toBe(-1);
    // Player 3 draws a 2 -> 5; Banker 6 stands on a 2 -> Banker wins on 6: still 0.95.
    const onSix = coup(classic, '3S 6H KD KC 2D');
    expect(onSix.banker.total).toBe(6);
    expect(onSix.bets.banker).toBe(0.95);
  });

  it('pays Tie 8:1 and pushes the main bets on a tie (003 § 24(2) item 2; 004)', () => {
    const outcome = coup(classic, '7S 7H KD KC');
    expect(outcome.winner).toBe('tie');
    expect(outcome.bets).toMatchObject({ tie: 8, player: 0, banker: 0 });
  });

  it('pays a Banker win on 6 one half, other Banker wins 1:1, in Punto 2000 (002 § 13.8)', () => {
    const bankerSix = coup(punto2000, '3S 6H KD KC 2D'); // P 3 draws 2 -> 5; B 6 stands on 2 -> Banker 6 wins
    expect(bankerSix.winner).toBe('banker');
    expect(bankerSix.banker.total).toBe(6);
    expect(bankerSix.bets.banker).toBe(0.5);
    const bankerSeven = coup(punto2000, '3S 7H KD KC 2D');
    expect(bankerSeven.bets.banker).toBe(1);
  });

  it('pays the same as Punto 2000 without commission at TDC, Banker 6 at 1:2 (004 payouts)', () => {
    expect(coup(noCommission, '3S 6H KD KC 2D').bets.banker).toBe(0.5);
    expect(coup(noCommission, '2S 4H 3D 4C').bets.banker).toBe(1);
    expect(coup(noCommission, '7S 7H KD KC').bets.tie).toBe(8);
  });

  it('pays Player Pair and Banker Pair 1:1 at TDC (004 payouts)', () => {
    const outcome = coup(noCommission, '4S 9H 4D 9C');
    expect(outcome.player.pair).toBe(true);
    expect(outcome.bets.player_pair).toBe(1);
    expect(outcome.bets.banker_pair).toBe(1);
    const noPair = coup(noCommission, 'KS QH JD TC AS AH');
    expect(noPair.bets.player_pair).toBe(-1);
    expect(noPair.offered).toContain('player_pair');
  });

  it('pays pairs 11:1 when the ruleset says so (configurable, 004 note)', () => {
    const ruleset = parseRuleset({
      ...getRuleset('tdc-baccarat-no-commission'),
      name: 'pairs-eleven',
      pairs: { offered: true, pays: 11, source: 'practice: test' },
    }) as PuntoBancoRuleset;
    const outcome = coup(createPuntoBancoEngine(ruleset), '4S 9H 4D 9C');
    expect(outcome.bets.player_pair).toBe(11);
  });

  it('pays Tie 9:1 when configured (configurable tie)', () => {
    const base = getRuleset('bulgaria-punto-banco') as PuntoBancoRuleset;
    const ruleset = parseRuleset({
      ...base,
      name: 'tie-nine',
      payouts: { ...base.payouts, tie: 9 },
    }) as PuntoBancoRuleset;
    expect(coup(createPuntoBancoEngine(ruleset), '7S 7H KD KC').bets.tie).toBe(9);
  });

  describe('Dragon Bonus (002 § 13.9)', () => {
    it('pays 1:1 on a natural win', () => {
      const outcome = coup(punto2000, '9S 2H KD 3C');
      expect(outcome.bets.dragon_player).toBe(1);
      expect(outcome.bets.dragon_banker).toBe(-1);
    });
    it('returns the stake on a natural tie', () => {
      const outcome = coup(punto2000, '8S 8H KD KC');
      expect(outcome.winner).toBe('tie');
      expect(outcome.bets.dragon_player).toBe(0);
      expect(outcome.bets.dragon_banker).toBe(0);
    });
    it('loses on a non-natural tie', () => {
      const outcome = coup(punto2000, '7S 7H KD KC');
      expect(outcome.bets.dragon_player).toBe(-1);
      expect(outcome.bets.dragon_banker).toBe(-1);
    });
    it('pays a non-natural win by margin, 30/10/6/4/2/1 for 9..4 (practice table)', () => {
      // Player K+K=0 draws 9 -> 9; Banker K+K=0 draws on 9 -> K -> 0: margin 9.
      expect(coup(punto2000, 'KS KH KD KC 9S KD').bets.dragon_player).toBe(30);
      // Player 0 draws 8; Banker 0 draws K -> 0: margin 8.
      expect(coup(punto2000, 'KS KH KD KC 8S KD').bets.dragon_player).toBe(10);
      expect(coup(punto2000, 'KS KH KD KC 7S KD').bets.dragon_player).toBe(6);
      expect(coup(punto2000, 'KS KH KD KC 6S KD').bets.dragon_player).toBe(4);
      expect(coup(punto2000, 'KS KH KD KC 5S KD').bets.dragon_player).toBe(2);
      expect(coup(punto2000, 'KS KH KD KC 4S KD').bets.dragon_player).toBe(1);
    });
    it('loses a non-natural win by fewer than four points', () => {
      const outcome = coup(punto2000, 'KS KH KD KC 3S KD'); // 3 vs 0
      expect(outcome.winner).toBe('player');
      expect(outcome.bets.dragon_player).toBe(-1);
    });
    it('loses when its side loses', () => {
      expect(coup(punto2000, 'KS KH KD KC 3S KD').bets.dragon_banker).toBe(-1);
    });
    it('is on the Monaco layout only, but reported for every ruleset', () => {
      expect(coup(punto2000, '9S 2H KD 3C').offered).toContain('dragon_banker');
      expect(coup(classic, '9S 2H KD 3C').offered).not.toContain('dragon_banker');
      expect(Object.keys(coup(classic, '9S 2H KD 3C').bets).sort()).toEqual(
        [
          'banker',
          'banker_pair',
          'dragon_banker',
          'dragon_player',
          'player',
          'player_pair',
          'tie',
        ].sort(),
      );
    });
  });

  it('announces Banker first (003 § 24 item 4)', () => {
    expect(coup(classic, '9S 2H KD 3C').announcement).toMatch(/^Banker 5, Player 9/);
  });

  it('burns the turned card value at a new shoe, ten-values burning 10 (003 § 24 item 3.a; practice)', () => {
    expect(burnCount('AS')).toBe(1);
    expect(burnCount('7D')).toBe(7);
    for (const card of ['TS', 'JH', 'QD', 'KC'] as const) expect(burnCount(card)).toBe(10);
    expect(burnCount('KC', 9)).toBe(9);
    const ruleset = getRuleset('bulgaria-punto-banco');
    expect(ruleset.burn).toMatchObject({
      kind: 'turn_and_burn',
      at: 'new_shoe',
      tenValueBurns: 10,
    });
  });

  it('takes no decisions and no card after the coup, with clear errors', () => {
    const run = playRound(classic, {}, ['9S', '2H', 'KD', '3C'] as StandardCard[]);
    try {
      classic.deal(run.state, 'AS');
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('unexpected_card');
      expect((error as Error).message).toContain('AS');
    }
    expect(() => classic.decide(run.state, { seat: 'dealer', action: 'hit' })).toThrow(
      /no decisions/,
    );
    expect(() => classic.outcome(classic.start({}))).toThrow(/player first card/);
  });
});

const DECK = standardDeck();
const shoeCards = fc.array(fc.constantFrom(...DECK), { minLength: 6, maxLength: 6 });

function dealAll(
  engine: ReturnType<typeof engineFor>,
  cards: readonly StandardCard[],
): PuntoBancoState {
  let state = engine.start({});
  let used = 0;
  for (;;) {
    const step = engine.next(state);
    if (step.kind === 'complete') return state;
    expect(step.kind).toBe('card'); // never a decision, never stuck
    state = engine.deal(state, cards[used++]!);
  }
}

describe('Punto Banco properties', () => {
  it('every complete coup has 4 to 6 cards, and outcome totals are sums modulo 10', () => {
    fc.assert(
      fc.property(shoeCards, (cards) => {
        const state = dealAll(classic, cards);
        const count = state.player.length + state.banker.length;
        expect(count).toBeGreaterThanOrEqual(4);
        expect(count).toBeLessThanOrEqual(6);
        const outcome = classic.outcome(state) as PuntoBancoOutcome;
        const points = (cs: readonly StandardCard[]) =>
          cs.reduce(
            (sum, c) => sum + ('TJQK'.includes(c[0]!) ? 0 : c[0] === 'A' ? 1 : Number(c[0])),
            0,
          );
        expect(outcome.player.total).toBe(points(state.player) % 10);
        expect(outcome.banker.total).toBe(points(state.banker) % 10);
        expect(outcome.player.total).toBeLessThan(10);
      }),
      { numRuns: 2000 },
    );
  });

  it('every bet result is one of the pay table multiples', () => {
    fc.assert(
      fc.property(shoeCards, (cards) => {
        const outcome = punto2000.outcome(dealAll(punto2000, cards)) as PuntoBancoOutcome;
        expect([1, 0.5, 0, -1]).toContain(outcome.bets.banker);
        expect([1, 0, -1]).toContain(outcome.bets.player);
        expect([8, -1]).toContain(outcome.bets.tie);
        expect([30, 10, 6, 4, 2, 1, 0, -1]).toContain(outcome.bets.dragon_player);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('Punto Banco exact probabilities, 8 decks', () => {
  it('matches the published Banker 0.458597, Player 0.446247, Tie 0.095156 by full enumeration', () => {
    // Cards by points: 0 (10 J Q K) 128 of each, 1-9 32 each, in 8 decks of 52.
    const counts = [128, 32, 32, 32, 32, 32, 32, 32, 32, 32];
    const total = 416;
    const wins = { player: 0, banker: 0, tie: 0 };
    let weightSum = 0;
    const draw = (points: number, left: number, weight: number) => {
      const w = (weight * counts[points]!) / left;
      counts[points]!--;
      return w;
    };
    for (let p1 = 0; p1 < 10; p1++) {
      const w1 = draw(p1, total, 1);
      for (let b1 = 0; b1 < 10; b1++) {
        if (counts[b1] === 0) continue;
        const w2 = draw(b1, total - 1, w1);
        for (let p2 = 0; p2 < 10; p2++) {
          if (counts[p2] === 0) continue;
          const w3 = draw(p2, total - 2, w2);
          for (let b2 = 0; b2 < 10; b2++) {
            if (counts[b2] === 0) continue;
            const w4 = draw(b2, total - 3, w3);
            const player = (p1 + p2) % 10;
            const banker = (b1 + b2) % 10;
            const settle = (pt: number, bt: number, weight: number) => {
              weightSum += weight;
              if (pt > bt) wins.player += weight;
              else if (bt > pt) wins.banker += weight;
              else wins.tie += weight;
            };
            if (isNaturalTotal(player) || isNaturalTotal(banker)) {
              settle(player, banker, w4);
            } else if (playerDraws(player)) {
              for (let p3 = 0; p3 < 10; p3++) {
                if (counts[p3] === 0) continue;
                const w5 = draw(p3, total - 4, w4);
                const player3 = (player + p3) % 10;
                if (bankerDraws(banker, p3)) {
                  for (let b3 = 0; b3 < 10; b3++) {
                    if (counts[b3] === 0) continue;
                    settle(player3, (banker + b3) % 10, (w5 * counts[b3]!) / (total - 5));
                  }
                } else settle(player3, banker, w5);
                counts[p3]!++;
              }
            } else if (bankerDraws(banker, null)) {
              for (let b3 = 0; b3 < 10; b3++) {
                if (counts[b3] === 0) continue;
                settle(player, (banker + b3) % 10, (w4 * counts[b3]!) / (total - 4));
              }
            } else settle(player, banker, w4);
            counts[b2]!++;
          }
          counts[p2]!++;
        }
        counts[b1]!++;
      }
      counts[p1]!++;
    }
    expect(weightSum).toBeCloseTo(1, 10);
    expect(wins.banker).toBeCloseTo(0.458597, 6);
    expect(wins.player).toBeCloseTo(0.446247, 6);
    expect(wins.tie).toBeCloseTo(0.095156, 6);
  });
});
