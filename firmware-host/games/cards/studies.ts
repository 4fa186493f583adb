/**
 * `analyze ruleset NAME` for a card ruleset (the cards plug-in's study,
 * cli/analyze.ts): chosen by the ruleset's game among the card games. Poker
 * games have their own study modules; the others are built here
 * from the existing analyses (baccarat, blackjack dealer, Triple Shot), with
 * the ruleset's default number of decks.
 */

import { countsJson } from '../../analysis/exact.ts';
import type {
  BlackjackRuleset,
  PuntoBancoRuleset,
  Ruleset,
  TripleShotRuleset,
} from '../../engine/rulesets/schema.ts';
import { analyzeBaccarat, enumerateBaccarat } from './baccarat/analysis.ts';
import { analyzeDealer } from './blackjack/analysis.ts';
import { studyCaribbeanStud } from './poker/analysis/caribbean-stud.ts';
import { studyCasinoHoldem } from './poker/analysis/casino-holdem.ts';
import { studyHoldemBonus } from './poker/analysis/holdem-bonus.ts';
import { studyRussianPoker } from './poker/analysis/russian-poker.ts';
import { studySevenCardStud } from './poker/analysis/seven-card-stud.ts';
import {
  type BetStudy,
  countTable,
  figures,
  type RulesetStudy,
  rulesetStudy,
  type StudyOptions,
} from './poker/analysis/study.ts';
import { analyzeTripleShot } from './triple-shot/analysis.ts';

export function studyRuleset(ruleset: Ruleset, options: StudyOptions = {}): RulesetStudy {
  switch (ruleset.game) {
    case 'punto-banco':
      return studyPuntoBanco(ruleset);
    case 'blackjack':
      return studyBlackjack(ruleset);
    case 'triple-shot':
      return studyTripleShot(ruleset, options);
    case 'holdem-bonus':
      return studyHoldemBonus(ruleset, options);
    case 'casino-holdem':
      return studyCasinoHoldem(ruleset, options);
    case 'caribbean-stud':
      return studyCaribbeanStud(ruleset, options);
    case 'russian-poker':
      return studyRussianPoker(ruleset, options);
    case 'seven-card-stud':
      return studySevenCardStud(ruleset, options);
  }
}

function studyPuntoBanco(ruleset: PuntoBancoRuleset): RulesetStudy {
  const decks = ruleset.decks.default;
  const analysis = analyzeBaccarat(enumerateBaccarat(decks, ruleset.tableau), ruleset);
  const all = Object.entries(analysis.bets);
  const bets: BetStudy[] = all
    .filter(([, bet]) => bet.offered)
    .map(([name, bet]) => ({
      bet: name,
      status: 'computed',
      ...figures(bet.expectedReturn, 'stake'),
      source: bet.source,
    }));
  const outcomes = Object.entries(analysis.outcomes);
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      countTable(
        `Every coup of a ${decks}-deck shoe (the ruleset's default), weighted to six cards`,
        ['outcome', 'deals'],
        outcomes,
        analysis.total,
        8,
      ),
    ],
    details: {
      decks,
      total: analysis.total.toString(),
      outcomes: countsJson(outcomes, analysis.total),
      not_offered: all.filter(([, bet]) => !bet.offered).map(([name]) => name),
    },
    notes: [
      'Punto Banco leaves the player no decision after the bet: every offered bet is computed (baccarat.ts).',
      `Other deck counts: tableside analyze baccarat --decks N --ruleset ${ruleset.name}`,
    ],
  });
}

function studyBlackjack(ruleset: BlackjackRuleset): RulesetStudy {
  const decks = ruleset.decks.default;
  const dealer = analyzeDealer(decks, ruleset.dealer.hitSoft17);
  const bets: BetStudy[] = [
    {
      bet: 'main',
      status: 'strategy_dependent',
      reason:
        "the player's hit, stand, double, split (and surrender) decisions decide the return; no strategy is assumed",
      source: ruleset.payouts.source,
    },
  ];
  if (ruleset.insurance) {
    bets.push({
      bet: 'insurance',
      status: 'strategy_dependent',
      reason:
        'taken by choice when the dealer shows its first card; its value depends on the cards the player has seen (card removal)',
      source: ruleset.insurance.source,
    });
  }
  if (ruleset.evenMoney) {
    bets.push({
      bet: 'even_money',
      status: 'strategy_dependent',
      reason: 'taken by choice on a blackjack against the offering up cards',
      source: ruleset.evenMoney.source,
    });
  }
  const outcomes = Object.entries(dealer.outcomes);
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      countTable(
        `The dealer's final hand from a full ${decks}-deck shoe (the ruleset's default), ${ruleset.dealer.hitSoft17 ? 'hitting' : 'standing on'} soft 17 (${ruleset.dealer.source})`,
        ['final', 'draws'],
        outcomes,
        dealer.total,
        8,
      ),
    ],
    details: {
      decks,
      h17: ruleset.dealer.hitSoft17,
      dealer: {
        total: dealer.total.toString(),
        longest_hand: dealer.longestHand,
        outcomes: countsJson(outcomes, dealer.total),
      },
    },
    notes: [
      "Strategy-free: the dealer's final hand from a full shoe (blackjack-dealer.ts). Every player bet follows a decision.",
    ],
  });
}

function studyTripleShot(ruleset: TripleShotRuleset, options: StudyOptions): RulesetStudy {
  const analysis = analyzeTripleShot(ruleset, {
    pokerBet: options.quick !== true,
    onProgress: options.onProgress,
  });
  const { war, poker, pokerBet } = analysis;
  const bets: BetStudy[] = [
    { bet: 'war', status: 'computed', ...figures(war.expectedReturn, 'stake'), source: war.source },
    pokerBet
      ? {
          bet: 'poker',
          status: 'computed',
          ...figures(pokerBet.expectedReturn, 'stake'),
          source: pokerBet.source,
          assumes: 'no dealer qualifier (000 names none); ties as the ruleset says',
        }
      : {
          bet: 'poker',
          status: 'skipped',
          reason:
            'skipped (--quick): strategy-free, the exact head-to-head takes about a second; run without --quick',
          source: ruleset.poker.source,
        },
    ...analysis.notComputed
      .filter((entry) => entry.bet !== 'poker')
      .map(
        (entry): BetStudy => ({
          bet: entry.bet,
          status: 'strategy_dependent',
          reason: entry.reason,
          source: entry.bet === 'blackjack' ? ruleset.blackjack.source : ruleset.bonus.source,
        }),
      ),
  ];
  const categories = Object.entries(poker.categories);
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      countTable(
        'Six-card poker hands, best five (000 § 1.i, § 4), whatever the play',
        ['category', 'hands'],
        categories,
        poker.total,
        9,
      ),
    ],
    details: {
      war: {
        total: war.total.toString(),
        win: war.win.toString(),
        tie: war.tie.toString(),
        lose: war.lose.toString(),
      },
      poker: {
        cards: 6,
        total: poker.total.toString(),
        categories: Object.fromEntries(categories.map(([name, count]) => [name, count.toString()])),
      },
    },
    notes: [`The full study: tableside analyze triple-shot --ruleset ${ruleset.name}`],
  });
}
