/**
 * A card game's result in words (issue 35): one sentence for the dealer (or
 * the winner) and one for each box, with its hand and what each of its bets
 * paid, the same on every surface (History, the Table page, the terminal
 * view). Read from the outcome as the table exposed it (the guard's
 * screening), so it names no card the table did not show: a folded stud
 * box's hole cards stay unnamed. Looked up by the outcome's game id. Pure.
 */
import { roundForText } from './outcome-text.ts';

type Outcome = Readonly<Record<string, unknown>>;

/** What a bet paid, as a multiple of its stake: "wins 3 to 2", "push", "loses half". */
export function payoutWords(result: number): string {
  if (result === 0) return 'push';
  if (result === -1) return 'loses';
  if (result === -0.5) return 'loses half';
  if (result < 0) return `loses ${roundForText(-result)} stakes`;
  if (result === 1.5) return 'wins 3 to 2';
  return `wins ${roundForText(result)} to 1`;
}

/** "two_pair" → "two pair". */
function category(name: unknown): string {
  return typeof name === 'string' ? name.replaceAll('_', ' ') : 'no hand';
}

function cardsText(cards: unknown): string {
  return Array.isArray(cards)
    ? cards.map((card) => (typeof card === 'string' ? card : String(card?.card ?? '▒▒'))).join(' ')
    : '';
}

/** The cards in brackets after a hand, or nothing where none are shown. */
function inBrackets(cards: unknown): string {
  const text = cardsText(cards);
  return text ? ` (${text})` : '';
}

/** The bets of one box (`box:N.<bet>`) in words: "ante wins 1 to 1, call push". */
function boxBets(outcome: Outcome, box: number): string {
  const bets = (outcome.bets ?? {}) as Record<string, number>;
  const prefix = `box:${box}.`;
  return Object.entries(bets)
    .filter(([bet]) => bet.startsWith(prefix))
    .map(
      ([bet, result]) => `${bet.slice(prefix.length).replaceAll('_', ' ')} ${payoutWords(result)}`,
    )
    .join(', ');
}

function sentence(text: string): string {
  const capitalised = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(capitalised) ? capitalised : `${capitalised}.`;
}

interface BlackjackHand {
  cards?: unknown;
  total?: number;
  soft?: boolean;
  blackjack?: boolean;
  bust?: boolean;
  doubled?: boolean;
  surrendered?: boolean;
  evenMoney?: boolean;
  sixCards?: boolean;
  result?: number;
}

function blackjackHand(hand: BlackjackHand): string {
  const value = hand.blackjack
    ? 'blackjack'
    : `${hand.soft ? 'soft ' : ''}${hand.total ?? '?'}${hand.bust ? ' bust' : ''}`;
  const notes = [
    hand.doubled ? 'doubled' : '',
    hand.surrendered ? 'surrendered' : '',
    hand.evenMoney ? 'even money' : '',
    hand.sixCards ? 'six cards' : '',
  ].filter(Boolean);
  return `${value}${inBrackets(hand.cards)}${notes.length ? `, ${notes.join(', ')}` : ''}`;
}

function blackjackWords(outcome: Outcome): string[] {
  const dealer = (outcome.dealer ?? {}) as BlackjackHand;
  const boxes = (outcome.boxes ?? []) as {
    box: number;
    insurance?: string | null;
    hands: BlackjackHand[];
  }[];
  const lines = [sentence(`dealer has ${blackjackHand(dealer)}`)];
  for (const box of boxes) {
    box.hands.forEach((hand, index) => {
      const label = `box ${box.box}${box.hands.length > 1 ? ` hand ${index + 1}` : ''}`;
      const paid = typeof hand.result === 'number' ? `: ${payoutWords(hand.result)}` : '';
      lines.push(sentence(`${label} has ${blackjackHand(hand)}${paid}`));
    });
    if (box.insurance) lines.push(sentence(`box ${box.box} insurance ${box.insurance}`));
  }
  return lines;
}

interface TripleShotPosition {
  position: number;
  war?: string;
  blackjack?: BlackjackHand[];
  poker?: { category?: string; versusDealer?: string };
  bonus?: boolean;
}

function tripleShotWords(outcome: Outcome): string[] {
  const dealer = (outcome.dealer ?? {}) as {
    war?: string;
    blackjack?: BlackjackHand;
    poker?: { category?: string };
  };
  const lines = [
    sentence(
      `dealer war ${dealer.war ?? '?'}, blackjack ${dealer.blackjack ? blackjackHand(dealer.blackjack) : '?'}, poker ${category(dealer.poker?.category)}`,
    ),
  ];
  for (const box of (outcome.positions ?? []) as TripleShotPosition[]) {
    const hands = (box.blackjack ?? []).map(blackjackHand).join(' and ');
    lines.push(
      sentence(
        `box ${box.position} has blackjack ${hands} and poker ${category(box.poker?.category)}: ${boxBets(outcome, box.position)}`,
      ),
    );
  }
  const limit = outcome.payoutLimit as { limit: number; factor: number } | undefined;
  if (limit && limit.factor !== 1) {
    lines.push(
      sentence(`every winning × ${roundForText(limit.factor)}: the payout limit is ${limit.limit}`),
    );
  }
  return lines;
}

interface PokerHand {
  category?: string;
  best?: unknown;
}

interface PokerBox {
  box: number;
  cards?: unknown;
  hand?: PokerHand | null;
  result?: string;
}

const POKER_VERDICT: Readonly<Record<string, string>> = {
  win: ' and beats the dealer',
  lose: ' and loses to the dealer',
  tie: ' and ties with the dealer',
  dealer_not_qualified: ', the dealer does not qualify',
};

function pokerHand(hand: PokerHand | null | undefined): string {
  return hand ? `${category(hand.category)}${inBrackets(hand.best)}` : 'no hand';
}

/** The house-banked poker games: the dealer's hand and whether it qualifies, then each box. */
function bankedPokerWords(outcome: Outcome): string[] {
  const dealer = (outcome.dealer ?? {}) as { hand?: PokerHand | null };
  const qualifier = outcome.qualifier as
    | { description?: string; dealerQualifies?: boolean }
    | null
    | undefined;
  const qualifies = qualifier
    ? `, ${qualifier.dealerQualifies ? 'qualifies' : 'does not qualify'} (${qualifier.description})`
    : '';
  const board = cardsText(outcome.board) ? `Board ${cardsText(outcome.board)}. ` : '';
  const lines = [`${board}${sentence(`dealer has ${pokerHand(dealer.hand)}${qualifies}`)}`];
  for (const box of (outcome.boxes ?? []) as PokerBox[]) {
    const play =
      box.result === 'fold'
        ? 'folded'
        : `has ${pokerHand(box.hand)}${POKER_VERDICT[box.result ?? ''] ?? ''}`;
    lines.push(sentence(`box ${box.box} ${play}: ${boxBets(outcome, box.box)}`));
  }
  return lines;
}

interface StudPlayer {
  box: number;
  folded?: boolean;
  hand?: PokerHand | null;
  share?: number;
}

/** Seven-card stud: the players play for a pot; each box's share of it. */
function studWords(outcome: Outcome): string[] {
  const players = (outcome.players ?? []) as StudPlayer[];
  const lines: string[] = [];
  const folded = players.filter((player) => player.folded).map((player) => player.box);
  for (const player of players) {
    if (player.folded) continue;
    const share = player.share ?? 0;
    const verdict =
      share === 1
        ? 'wins the pot'
        : share > 0
          ? `splits the pot (${roundForText(share)} of it)`
          : 'loses';
    lines.push(sentence(`box ${player.box} has ${pokerHand(player.hand)} and ${verdict}`));
  }
  if (folded.length) {
    lines.push(sentence(`${folded.length > 1 ? 'boxes' : 'box'} ${folded.join(', ')} folded`));
  }
  return lines;
}

/** Baccarat announces its coup in words already (the engine's announcement). */
function puntoBancoWords(outcome: Outcome): string[] {
  const announcement = outcome.announcement;
  return [sentence(typeof announcement === 'string' ? announcement : `${outcome.winner} wins`)];
}

/** Each game's words, by its game id. */
const RESULT_WORDS: Readonly<Record<string, (outcome: Outcome) => string[]>> = {
  'punto-banco': puntoBancoWords,
  blackjack: blackjackWords,
  'triple-shot': tripleShotWords,
  'holdem-bonus': bankedPokerWords,
  'casino-holdem': bankedPokerWords,
  'caribbean-stud': bankedPokerWords,
  'russian-poker': bankedPokerWords,
  'seven-card-stud': studWords,
};

/** Whether this build has words for an outcome's game. */
export function hasResultWords(outcome: Outcome): boolean {
  return typeof outcome.game === 'string' && Object.hasOwn(RESULT_WORDS, outcome.game);
}

/**
 * The sentences of a card game's result. A game this build does not know (an
 * older or newer journal) gets its bets in words, each with what it paid.
 */
export function cardResultWords(outcome: Outcome): string[] {
  if (hasResultWords(outcome)) return RESULT_WORDS[outcome.game as string]!(outcome);
  const bets = Object.entries((outcome.bets ?? {}) as Record<string, number>);
  return bets.length
    ? [sentence(bets.map(([bet, result]) => `${bet} ${payoutWords(result)}`).join(', '))]
    : ['Settled.'];
}

/**
 * The one sentence that heads a result where a page shows one line of it
 * (the Scoreboard's latest results): the dealer's at a banked game, the
 * winner's at stud, else the first. The same words as that line on the
 * Table and History pages.
 */
export function cardResultHeadline(outcome: Outcome): string {
  const lines = cardResultWords(outcome);
  return (
    lines.find((line) => line.startsWith('Dealer ')) ??
    lines.find((line) => / (wins|splits) the pot/.test(line)) ??
    lines[0] ??
    'Settled.'
  );
}
