/**
 * Seven-card stud (003 § 27-28): the players play each other and the house
 * takes a commission from each hand (003 § 27). The house has no stake in
 * the outcome, so:
 * - the house's take is the commission: with the pot-limit variant a fixed
 *   percentage of every pot (003 § 28(17) item 2, § 28(19)), exactly that
 *   share of all the money the players put in, whatever they do; with the
 *   split-maximum variant the table minimum per hand (§ 28(17) item 1,
 *   § 28(18)), whose share of the pot depends on how much is bet;
 * - each player's edge depends on how all of them bet, raise and fold: not
 *   computed;
 * - strategy-free: a player's seven cards are a uniformly random seven-card
 *   hand whoever folds when, so the best-five category distribution of all
 *   C(52,7) hands (`analyze poker --cards 7`) is what a player who stays to
 *   the showdown holds.
 */

import { countsJson, Fraction } from '../../../../analysis/exact.ts';
import type { SevenCardStudRuleset } from '../../../../engine/rulesets/poker.ts';
import { pokerCategoryCounts } from './poker.ts';
import {
  type BetStudy,
  countTable,
  figures,
  type RulesetStudy,
  rulesetStudy,
  type StudyOptions,
} from './study.ts';

export function studySevenCardStud(
  ruleset: SevenCardStudRuleset,
  options: StudyOptions = {},
): RulesetStudy {
  const seven = pokerCategoryCounts(7, (done, total) =>
    options.onProgress?.('seven-card hands', done, total),
  );
  const commission = ruleset.commission;
  const bets: BetStudy[] = [
    {
      bet: 'pot',
      status: 'strategy_dependent',
      reason:
        "the players play each other (003 § 27): each player's return depends on how every player bets, raises and folds; the players as a group get back every pot less the commission",
      source: ruleset.sources.players ?? '003 § 27',
    },
  ];
  if (commission.kind === 'percentage') {
    bets.push({
      bet: 'commission',
      status: 'computed',
      ...figures(new Fraction(-BigInt(Math.round(commission.percent * 1e6)), 100_000_000n), 'pot'),
      source: commission.source,
      assumes: `the house takes ${commission.percent} % of every pot (allowed ${commission.allowed[0]}-${commission.allowed[1]} %), with or without a showdown, as the engine reports it`,
    });
  } else {
    bets.push({
      bet: 'commission',
      status: 'strategy_dependent',
      reason:
        'the house takes the table minimum bet per hand (003 § 28(18)); as a share of the pot it depends on how much the players bet',
      source: commission.source,
    });
  }
  const categories = Object.entries(seven.categories);
  return rulesetStudy(ruleset, {
    bets,
    tables: [
      countTable(
        'Best five of seven cards, every seven-card hand (003 § 28(9), (14)): what a player holds at the showdown',
        ['category', 'hands'],
        categories,
        seven.total,
        9,
        true,
      ),
    ],
    details: {
      commission:
        commission.kind === 'percentage'
          ? {
              kind: 'percentage',
              percent: commission.percent,
              fraction_of_pot: commission.percent / 100,
              allowed: commission.allowed,
              players_get_back: 1 - commission.percent / 100,
              source: commission.source,
            }
          : { kind: 'fixed', amount: 'the table minimum bet per hand', source: commission.source },
      seven_card_hands: {
        cards: 7,
        total: seven.total.toString(),
        categories: countsJson(categories, seven.total),
      },
    },
    notes: [
      'The house has no stake in any pot: its take is the commission alone.',
      'Player edges depend on play and are not computed.',
    ],
  });
}
