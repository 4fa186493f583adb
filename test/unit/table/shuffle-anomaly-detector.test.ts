import { describe, expect, it } from 'vitest';
import { type StandardCard, standardDeck } from '../../../device-protocol/cards.ts';
import { seededRandom, shuffleCards } from '../../../firmware-host/games/cards/table/legal-deal.ts';
import {
  anomalyOptionsSchema,
  anomalyThresholds,
  closeShoe,
  observe,
  rankRunBound,
  type ShoeWindows,
  startShoe,
  suitStreakBound,
} from '../../../firmware-host/table/anomaly.ts';

const defaults = anomalyOptionsSchema.parse({});

function feed(cards: readonly StandardCard[], copies = 1, history: readonly ShoeWindows[] = []) {
  let state = startShoe(copies, defaults, history);
  const findings = [];
  for (const [index, card] of cards.entries()) {
    const result = observe(state, card, index);
    state = result.state;
    findings.push(...result.findings);
  }
  return { state, findings };
}

describe('the shuffle anomaly detector', () => {
  it('derives thresholds whose false-alarm bound is within the configured rate for every shipped shoe size', () => {
    for (const copies of [1, 2, 4, 5, 6, 8]) {
      const thresholds = anomalyThresholds(copies, defaults);
      for (const bound of Object.values(thresholds.bounds)) expect(bound).toBeLessThanOrEqual(1e-6);
      // One card shorter would break the target: the thresholds are the smallest that meet it.
      expect(rankRunBound(copies, thresholds.rankRun - 1)).toBeGreaterThan(1e-6);
      expect(suitStreakBound(copies, thresholds.suitStreak - 1)).toBeGreaterThan(1e-6);
    }
  });

  it('uses fixed thresholds when they are configured', () => {
    const options = anomalyOptionsSchema.parse({ rankRun: 5, suitStreak: 6, repeatWindow: 10 });
    const thresholds = anomalyThresholds(8, options);
    expect([thresholds.rankRun, thresholds.suitStreak, thresholds.repeatWindow]).toEqual([
      5, 6, 10,
    ]);
    expect(thresholds.bounds.rank_run).toBeGreaterThan(1e-6);
  });

  it('flags a deck dealt in factory order as a rank run and a suit streak', () => {
    const { findings } = feed(standardDeck());
    const tests = findings.map((finding) => finding.test);
    expect(tests).toContain('rank_run');
    expect(tests).toContain('suit_streak');
    const run = findings.find((finding) => finding.test === 'rank_run')!;
    expect(run.from).toBe(0);
    expect(run.to).toBe(anomalyThresholds(1, defaults).rankRun - 1);
  });

  it('flags a descending run as well as an ascending one', () => {
    const descending = [
      'KH',
      'QS',
      'JD',
      'TC',
      '9H',
      '8S',
      '7D',
      '6C',
      '5H',
      '4S',
      '3D',
    ] as StandardCard[];
    const { findings } = feed(descending);
    expect(findings.map((finding) => finding.test)).toEqual(['rank_run']);
  });

  it('flags a shoe that repeats a stretch of an earlier shoe, naming where', () => {
    const random = seededRandom(11);
    const first = feed(shuffleCards(standardDeck(), random));
    const history = closeShoe(first.state, 8);
    const replayed = [
      ...shuffleCards(standardDeck(), random).slice(0, 10),
      ...first.state.sequence.slice(20, 30),
    ];
    // Keep it a plausible shoe: the repeat is what matters, not the multiset.
    const { findings } = feed(replayed, 1, history);
    const repeat = findings.find((finding) => finding.test === 'repeat');
    expect(repeat).toBeDefined();
    expect(repeat!.shoesBack).toBe(1);
    expect(repeat!.earlierFrom).toBe(20);
  });

  it('raises nothing on 300 fairly shuffled single decks and 8-deck shoes', () => {
    const random = seededRandom(2024);
    let history: readonly ShoeWindows[] = [];
    for (let i = 0; i < 200; i += 1) {
      const result = feed(shuffleCards(standardDeck(), random), 1, history);
      expect(result.findings).toEqual([]);
      history = closeShoe(result.state, 8);
    }
    const eight = Array.from({ length: 8 }, () => standardDeck()).flat();
    for (let i = 0; i < 100; i += 1)
      expect(feed(shuffleCards(eight, random), 8).findings).toEqual([]);
  });

  it('counts 3-card rank runs at the rate the exact window probability predicts', () => {
    // E[number of windows of 3 forming a run] = (N - 2) · 2 · 11 · 4³ / (52·51·50) for one deck,
    // by exchangeability; a Monte Carlo mean over 4000 shuffles must agree within 5 %.
    const random = seededRandom(7);
    const expected = (50 * 2 * 11 * 4 ** 3) / (52 * 51 * 50);
    let windows = 0;
    const shoes = 4000;
    for (let s = 0; s < shoes; s += 1) {
      const deck = shuffleCards(standardDeck(), random);
      for (let i = 0; i + 2 < deck.length; i += 1) {
        const a = 'A23456789TJQK'.indexOf(deck[i]![0]!);
        const b = 'A23456789TJQK'.indexOf(deck[i + 1]![0]!);
        const c = 'A23456789TJQK'.indexOf(deck[i + 2]![0]!);
        if ((b - a === 1 && c - b === 1) || (b - a === -1 && c - b === -1)) windows += 1;
      }
    }
    expect(windows / shoes).toBeGreaterThan(expected * 0.95);
    expect(windows / shoes).toBeLessThan(expected * 1.05);
  });
});
