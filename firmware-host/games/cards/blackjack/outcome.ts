/**
 * The blackjack settlement of a complete round: each hand against the
 * dealer (003 § 16-19; 004), and each insurance bet.
 */
import { EngineError } from '../../../engine/errors.ts';
import type { BlackjackRuleset } from '../../../engine/rulesets/schema.ts';
import { blackjackTotal, isBlackjackPair, isTenValue } from './hand.ts';
import { describeStep, isNatural, locate, next } from './plan.ts';
import type {
  BlackjackBox,
  BlackjackHand,
  BlackjackHandOutcome,
  BlackjackOutcome,
  BlackjackState,
} from './state.ts';

interface DealerResult {
  readonly total: number;
  readonly blackjack: boolean;
  readonly bust: boolean;
}

export function outcome(rules: BlackjackRuleset, state: BlackjackState): BlackjackOutcome {
  if (locate(rules, state).kind !== 'complete') {
    throw new EngineError(
      'not_complete',
      `the round is not complete: ${describeStep(next(rules, state))}`,
    );
  }
  const total = blackjackTotal(state.dealer).total;
  const dealer: DealerResult = {
    total,
    blackjack: isBlackjackPair(state.dealer),
    bust: total > 21,
  };
  const bets: Record<string, number> = {};
  const boxes = state.boxes.map((box) => {
    const hands = box.hands.map((hand, handIndex) => {
      const settled = settleHand(rules, dealer, box, hand, handIndex);
      bets[settled.bet] = settled.result;
      return settled;
    });
    const insurance = settleInsurance(rules, state, dealer, box);
    if (insurance !== undefined) bets[`box:${box.box}.insurance`] = insurance;
    return { box: box.box, insurance: box.insurance, hands };
  });
  return {
    game: 'blackjack',
    dealer: { cards: state.dealer, ...dealer },
    boxes,
    bets,
  };
}

function settleHand(
  rules: BlackjackRuleset,
  dealer: DealerResult,
  box: BlackjackBox,
  hand: BlackjackHand,
  handIndex: number,
): BlackjackHandOutcome {
  const { total, soft } = blackjackTotal(hand.cards);
  const natural = isNatural(hand);
  return {
    cards: hand.cards,
    total,
    soft,
    blackjack: natural,
    bust: total > 21,
    doubled: hand.doubled,
    surrendered: hand.surrendered,
    evenMoney: hand.evenMoney,
    bet: handIndex === 0 ? `box:${box.box}.main` : `box:${box.box}.split${handIndex}`,
    result: handResult(rules, dealer, hand, handIndex, total, natural),
  };
}

function handResult(
  rules: BlackjackRuleset,
  dealer: DealerResult,
  hand: BlackjackHand,
  handIndex: number,
  total: number,
  natural: boolean,
): number {
  const stake = hand.doubled ? 2 : 1;
  if (hand.evenMoney) return rules.payouts.win; // 004; 003 § 17
  if (hand.surrendered) return rules.surrender?.loses ?? -0.5; // 004
  if (total > 21) return -stake;
  if (natural) return dealer.blackjack ? 0 : rules.payouts.blackjack; // 003 § 16(1); 004
  if (dealer.blackjack) {
    // No hole card: the dealer's blackjack takes all, or only the original stake.
    return rules.dealerBlackjackTakes.value === 'all' ? -stake : handIndex === 0 ? -1 : 0;
  }
  if (dealer.bust || total > dealer.total) return stake * rules.payouts.win; // 003 § 19
  if (total === dealer.total) return 0; // 003 § 19(2); 004 stand-off
  return -stake;
}

/** The insurance bet's result, or undefined when the box took none. */
function settleInsurance(
  rules: BlackjackRuleset,
  state: BlackjackState,
  dealer: DealerResult,
  box: BlackjackBox,
): number | undefined {
  if (box.insurance !== 'taken' || !rules.insurance) return undefined;
  const second = state.dealer[1];
  const wins =
    rules.insurance.form === 'dealer_blackjack'
      ? dealer.blackjack
      : second !== undefined && isTenValue(second); // 003 § 18(2)
  return wins ? rules.insurance.pays : -1;
}
