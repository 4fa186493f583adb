/**
 * `tableside hand`'s text of a card game's outcome, for the games that have
 * one of their own (the others print their outcome's fields): looked up by
 * the outcome's game id, so the CLI never asks which game it settles. Pure.
 */
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { Outcome } from '../../engine/types.ts';

/** A number as `hand` prints it: at most six decimals, no trailing zeros. */
export function roundForText(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

interface HandDetail {
  cards: readonly StandardCard[];
  total?: number;
  natural?: boolean;
}

function puntoBancoLines(outcome: Outcome): string[] {
  const lines: string[] = [];
  for (const side of ['player', 'banker'] as const) {
    const hand = outcome[side] as HandDetail;
    lines.push(
      `${side.padEnd(7)} ${hand.cards.join(' ').padEnd(9)} total ${hand.total}${hand.natural ? '  natural' : ''}`,
    );
  }
  lines.push(`winner  ${String(outcome.winner)}   (${String(outcome.announcement)})`);
  return lines;
}

interface BlackjackHandView {
  cards: readonly string[];
  total: number;
  soft?: boolean;
  blackjack: boolean;
  bust: boolean;
  doubled?: boolean;
  surrendered?: boolean;
  evenMoney?: boolean;
  sixCards?: boolean;
}

interface BlackjackView {
  dealer: { cards: readonly string[]; total: number; blackjack: boolean; bust: boolean };
  boxes: readonly { box: number; insurance: string | null; hands: readonly BlackjackHandView[] }[];
}

interface TripleShotView {
  dealer: {
    cards: readonly string[];
    war: string;
    blackjack: { cards: readonly string[]; total: number; blackjack: boolean; bust: boolean };
    poker: { category: string };
  };
  positions: readonly {
    position: number;
    cards: readonly string[];
    war: string;
    blackjack: readonly BlackjackHandView[];
    poker: { category: string; versusDealer: string };
    bonus: boolean;
  }[];
  payoutLimit?: { limit: number; sum: number | null; factor: number };
}

function describeHand(hand: BlackjackHandView): string {
  const notes = [
    hand.blackjack ? 'blackjack' : '',
    hand.bust ? 'bust' : '',
    hand.soft && !hand.blackjack ? 'soft' : '',
    hand.doubled ? 'doubled' : '',
    hand.surrendered ? 'surrendered' : '',
    hand.evenMoney ? 'even money' : '',
    hand.sixCards ? 'six cards' : '',
  ].filter(Boolean);
  return `${hand.cards.join(' ').padEnd(18)} ${String(hand.total).padStart(2)}${notes.length ? `  ${notes.join(', ')}` : ''}`;
}

function blackjackLines(outcome: BlackjackView): string[] {
  const { dealer } = outcome;
  const lines = [`dealer        ${describeHand({ ...dealer, soft: false })}`];
  for (const box of outcome.boxes) {
    box.hands.forEach((hand, index) => {
      const label = `box ${box.box}${box.hands.length > 1 ? ` hand ${index + 1}` : ''}`;
      lines.push(`${label.padEnd(13)} ${describeHand(hand)}`);
    });
    if (box.insurance) lines.push(`box ${box.box}         insurance: ${box.insurance}`);
  }
  return lines;
}

function tripleShotLines(outcome: TripleShotView): string[] {
  const category = (name: string) => name.replaceAll('_', ' ');
  const { dealer } = outcome;
  const lines = [
    `dealer       ${dealer.cards.join(' ')}`,
    `             war ${dealer.war}; blackjack ${describeHand(dealer.blackjack).replace(/\s+/g, ' ')}; poker ${category(dealer.poker.category)}`,
  ];
  for (const p of outcome.positions) {
    lines.push(`position ${p.position}   ${p.cards.join(' ')}`);
    const blackjack = p.blackjack
      .map((hand) => describeHand(hand).replace(/\s+/g, ' '))
      .join(' | ');
    lines.push(
      `             war ${p.war}; blackjack ${blackjack}; poker ${category(p.poker.category)} (${p.poker.versusDealer}); bonus ${p.bonus ? 'won' : 'lost'}`,
    );
  }
  const limit = outcome.payoutLimit;
  if (limit && limit.factor !== 1) {
    lines.push(
      `payout limit ${limit.limit} < winnings ${limit.sum}: every winning × ${roundForText(limit.factor)} (000 § 13)`,
    );
  }
  return lines;
}

/** Each game's lines, by its game id. */
const OUTCOME_TEXT: Readonly<Record<string, (outcome: Outcome) => string[]>> = {
  'punto-banco': puntoBancoLines,
  blackjack: (outcome) => blackjackLines(outcome as unknown as BlackjackView),
  'triple-shot': (outcome) => tripleShotLines(outcome as unknown as TripleShotView),
};

/** The lines describing an outcome's hands, or undefined for a game with no text of its own. */
export function outcomeDetailLines(outcome: Outcome): string[] | undefined {
  return Object.hasOwn(OUTCOME_TEXT, outcome.game)
    ? OUTCOME_TEXT[outcome.game]!(outcome)
    : undefined;
}
