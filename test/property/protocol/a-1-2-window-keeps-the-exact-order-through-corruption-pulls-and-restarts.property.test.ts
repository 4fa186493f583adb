/**
 * PROTOCOL.md § 3.8 at the LinkSession level, under the drill that broke
 * it (issue 17): a 1.2 shoe deals at a dealer's pace to a 1.2 host that PINGs
 * it, over a line that corrupts up to one frame in five, is pulled several
 * times (the shoe reopens its end, sometimes more than once, into a dead
 * line) and whose host restarts; the host's journal makes cards durable a
 * few milliseconds after they arrive. Every card must be stored once, in the
 * order dealt, and the retransmissions must stay within a small multiple of
 * the cards.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { card, cardKey, runDrill } from './window-drill.ts';

describe('a 1.2 window through corruption, pulls and host restarts', () => {
  it('stores every card once, in the order dealt, with bounded retransmissions (seeded)', () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
          cards: fc.constant(416),
          window: fc.constantFrom(8, 32),
          corrupt: fc.double({ min: 0.05, max: 0.25, noNaN: true }),
          drop: fc.double({ min: 0, max: 0.02, noNaN: true }),
          pulls: fc.integer({ min: 1, max: 5 }),
          hostRestarts: fc.integer({ min: 0, max: 2 }),
        }),
        (drill) => {
          const outcome = runDrill(drill);
          const dealt = Array.from({ length: drill.cards }, (_, index) => cardKey(card(index)));
          expect(outcome.stored).toEqual(dealt);
          expect(outcome.orderGaps).toBe(0);
          expect(outcome.retransmitted).toBeLessThan(2 * drill.cards);
        },
      ),
      { numRuns: 20, seed: 1717 },
    );
  });
});
