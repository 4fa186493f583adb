/**
 * The card games' Scoreboards (issue 35): what the pit watches at a
 * blackjack, Triple Shot or poker table, counted from the day's result
 * events as the table exposed them (the screened `shown`, so no hole card a
 * fold kept down is named). Baccarat has none here: its Scoreboard is its
 * roads. Pure.
 */

import type { DayGrouping, Scoreboard } from '../game.ts';
import { getRuleset } from '../rulesets.ts';
import { Counts, type ResultFold, scoreboardOf } from '../scoreboard.ts';
import { cardResultHeadline } from './result-words.ts';

type Outcome = Record<string, unknown>;

/** "two_pair" → "two pair"; a hand not shown is "not shown". */
function category(name: unknown): string {
  return typeof name === 'string' ? name.replaceAll('_', ' ') : 'not shown';
}

/** A settled round of `game`: its number and exposed outcome, or undefined for anything else. */
function resultOf(event: Outcome, game: string): { round: number; outcome: Outcome } | undefined {
  if (event.type !== 'result') return undefined;
  const outcome = event.outcome as Outcome | undefined;
  if (!outcome || outcome.game !== game) return undefined;
  return { round: Number(event.round), outcome };
}

/** A bet's result as the pit counts it: won, pushed or lost. */
function winPushLose(result: unknown): 'Win' | 'Push' | 'Lose' {
  const value = Number(result);
  return value > 0 ? 'Win' : value < 0 ? 'Lose' : 'Push';
}

interface DealerHand {
  total?: number;
  blackjack?: boolean;
  bust?: boolean;
}

/** practice: the pit reads a blackjack dealer's hand as blackjack, 17 to 21, bust, or under 17 (every box out first). */
function dealerOutcome(dealer: DealerHand): string {
  if (dealer.blackjack) return 'Blackjack';
  if (dealer.bust) return 'Bust';
  const total = Number(dealer.total);
  return total >= 17 ? String(total) : 'Under 17';
}

const DEALER_OUTCOMES = ['Blackjack', '21', '20', '19', '18', '17', 'Under 17', 'Bust'];

/** Blackjack (003 § 14-23): the dealer's outcomes, and the boxes' hands won, pushed, lost. */
function blackjackFold(): ResultFold {
  const dealer = new Counts(DEALER_OUTCOMES);
  const hands = new Counts(['Win', 'Push', 'Lose']);
  return {
    unit: 'round',
    take(event, seq) {
      const result = resultOf(event, 'blackjack');
      if (!result) return undefined;
      const outcome = dealerOutcome((result.outcome.dealer ?? {}) as DealerHand);
      dealer.add(outcome);
      for (const box of (result.outcome.boxes ?? []) as { hands?: { result?: number }[] }[]) {
        for (const hand of box.hands ?? []) hands.add(winPushLose(hand.result));
      }
      return { seq, round: result.round, text: cardResultHeadline(result.outcome), mark: outcome };
    },
    tallies: () => [dealer.tally("Dealer's hands"), hands.tally("Boxes' hands")],
  };
}

interface TripleShotPosition {
  position: number;
  war?: string;
  blackjack?: { result?: number }[];
  poker?: { category?: string; versusDealer?: string };
  bonus?: boolean;
}

const THREE_WAY: Readonly<Record<string, string>> = { win: 'Win', tie: 'Tie', lose: 'Lose' };

/** Triple Shot (004 Triple Shot): each box's three games, and the dealer's poker hands. */
function tripleShotFold(): ResultFold {
  const war = new Counts(['Win', 'Tie', 'Lose']);
  const blackjack = new Counts(['Win', 'Push', 'Lose']);
  const poker = new Counts(['Win', 'Tie', 'Lose']);
  const dealerPoker = new Counts();
  const boxes = new Map<number, { rounds: number; counts: Counts }>();
  return {
    unit: 'round',
    take(event, seq) {
      const result = resultOf(event, 'triple-shot');
      if (!result) return undefined;
      const dealer = (result.outcome.dealer ?? {}) as {
        war?: string;
        blackjack?: DealerHand;
        poker?: { category?: string };
      };
      dealerPoker.add(category(dealer.poker?.category));
      for (const position of (result.outcome.positions ?? []) as TripleShotPosition[]) {
        const box = boxes.get(position.position) ?? {
          rounds: 0,
          counts: new Counts(['War won', 'Blackjack won', 'Poker won', 'Bonus']),
        };
        boxes.set(position.position, box);
        box.rounds++;
        if (position.war) war.add(THREE_WAY[position.war] ?? position.war);
        if (position.war === 'win') box.counts.add('War won');
        const hands = position.blackjack ?? [];
        for (const hand of hands) blackjack.add(winPushLose(hand.result));
        if (hands.some((hand) => Number(hand.result) > 0)) box.counts.add('Blackjack won');
        const versus = position.poker?.versusDealer;
        if (versus) poker.add(THREE_WAY[versus] ?? versus);
        if (versus === 'win') box.counts.add('Poker won');
        if (position.bonus) box.counts.add('Bonus');
      }
      return {
        seq,
        round: result.round,
        text: cardResultHeadline(result.outcome),
      };
    },
    tallies: () => [
      war.tally('War'),
      blackjack.tally('Blackjack hands'),
      poker.tally('Poker against the dealer'),
      dealerPoker.tally("Dealer's poker hands"),
      ...[...boxes]
        .sort(([a], [b]) => a - b)
        .map(([number, box]) => box.counts.tally(`Box ${number}`, box.rounds)),
    ],
  };
}

const BOX_VERDICTS: Readonly<Record<string, string>> = {
  win: 'Win',
  tie: 'Tie',
  lose: 'Lose',
  dealer_not_qualified: 'Dealer not qualified',
  fold: 'Fold',
};

/** The house-banked poker games: the dealer's qualifying rate and hands, and the boxes' verdicts. */
function bankedPokerFold(game: string): ResultFold {
  const qualifying = new Counts(['Qualifies', 'Does not qualify']);
  const dealerHands = new Counts();
  const boxes = new Counts(Object.values(BOX_VERDICTS));
  let qualifierRule = false;
  return {
    unit: 'round',
    take(event, seq) {
      const result = resultOf(event, game);
      if (!result) return undefined;
      const qualifier = result.outcome.qualifier as { dealerQualifies?: boolean | null } | null;
      if (qualifier) {
        qualifierRule = true;
        // Null: every box folded, so the dealer's hand was never shown.
        if (qualifier.dealerQualifies === true) qualifying.add('Qualifies');
        if (qualifier.dealerQualifies === false) qualifying.add('Does not qualify');
      }
      const hand = (result.outcome.dealer as { hand?: { category?: string } | null } | undefined)
        ?.hand;
      dealerHands.add(category(hand?.category));
      for (const box of (result.outcome.boxes ?? []) as { result?: string }[]) {
        boxes.add(BOX_VERDICTS[box.result ?? ''] ?? String(box.result));
      }
      return { seq, round: result.round, text: cardResultHeadline(result.outcome) };
    },
    tallies: () => [
      ...(qualifierRule ? [qualifying.tally("Dealer's qualifying")] : []),
      dealerHands.tally("Dealer's hands"),
      boxes.tally('Boxes'),
    ],
  };
}

/** Seven-card stud: no dealer; the winning hands and the boxes that folded. */
function studFold(): ResultFold {
  const winning = new Counts();
  const boxes = new Counts(['Won the pot', 'Split the pot', 'Lost', 'Folded']);
  return {
    unit: 'round',
    take(event, seq) {
      const result = resultOf(event, 'seven-card-stud');
      if (!result) return undefined;
      const players = (result.outcome.players ?? []) as {
        box: number;
        folded?: boolean;
        hand?: { category?: string } | null;
        share?: number;
      }[];
      const winners = players.filter((player) => !player.folded && Number(player.share) > 0);
      for (const player of players) {
        const share = Number(player.share ?? 0);
        boxes.add(
          player.folded
            ? 'Folded'
            : share === 1
              ? 'Won the pot'
              : share > 0
                ? 'Split the pot'
                : 'Lost',
        );
      }
      const best = category(winners[0]?.hand?.category);
      winning.add(best);
      return { seq, round: result.round, text: cardResultHeadline(result.outcome) };
    },
    tallies: () => [winning.tally('Winning hands'), boxes.tally('Boxes')],
  };
}

/** Each card game's fold, by its game id; baccarat's Scoreboard is its roads. */
const FOLDS: Readonly<Record<string, (game: string) => ResultFold>> = {
  blackjack: blackjackFold,
  'triple-shot': tripleShotFold,
  'holdem-bonus': bankedPokerFold,
  'casino-holdem': bankedPokerFold,
  'caribbean-stud': bankedPokerFold,
  'russian-poker': bankedPokerFold,
  'seven-card-stud': studFold,
};

/** A day's Scoreboard of a card table playing `ruleset`; undefined for baccarat (its roads). */
export function cardScoreboard(ruleset: string): DayGrouping<{ board: Scoreboard }> | undefined {
  const game = getRuleset(ruleset).game;
  return Object.hasOwn(FOLDS, game) ? scoreboardOf(FOLDS[game]!(game)) : undefined;
}
