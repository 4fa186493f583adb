/**
 * The dealer console at a card table: what its three buttons make, and the
 * step its lights follow (`console/dealer-console.ts` draws them).
 *
 *   newRound  press           → { t: 'round' }
 *   voidHand  held            → { t: 'void' }  (a short press only buzzes "hold to void":
 *                                              voiding a hand by a brush of the sleeve is worse
 *                                              than one more second)
 *   confirm   press           → { t: 'action', action: 'next' } (the dealer's "next" decision)
 */
import type { NextStep } from '../../engine/types.ts';
import type { ConsoleButton, ConsolePress, GameExpectation } from '../game.ts';

export function cardConsolePress(
  button: ConsoleButton,
  long: boolean,
  at: { readonly ts: number; readonly src: string },
): ConsolePress {
  switch (button) {
    case 'newRound':
      return { records: [{ t: 'round', ...at }], buzz: ['ack'] };
    case 'voidHand':
      return long
        ? {
            records: [{ t: 'void', reason: 'voided by the dealer at the console', ...at }],
            buzz: ['ack'],
          }
        : { records: [], buzz: ['refuse'] };
    case 'confirm':
      return { records: [{ t: 'action', action: 'next', ...at }], buzz: ['ack'] };
  }
}

/** The lights follow the engine's next step; between rounds there is none. */
export function cardConsoleStep(expecting: GameExpectation): NextStep | undefined {
  if (expecting.kind === 'card') {
    return {
      kind: 'card',
      to: expecting.to as NextStep & { kind: 'card' } extends { to: infer T } ? T : never,
      face: expecting.face,
      ...(expecting.hand === undefined ? {} : { hand: expecting.hand }),
    };
  }
  if (expecting.kind === 'decision') {
    return {
      kind: 'decision',
      seat: expecting.seat,
      options: expecting.options as NextStep & { kind: 'decision' } extends { options: infer O }
        ? O
        : never,
    };
  }
  return undefined;
}
