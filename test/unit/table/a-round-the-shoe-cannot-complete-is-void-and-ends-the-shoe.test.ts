/**
 * Any game: a round whose next step is a card when the shoe has none left
 * is void and the shoe ends ("shoe exhausted"), instead of waiting for a card
 * that will never come. A one-deck blackjack shoe with seven boxes runs out
 * after its cut card (003 § 23: the round in progress is finished). The legal
 * deal stops there too, and says so in `exhausted`; no record voids it.
 */
import { describe, expect, it } from 'vitest';
import { SHOE_EXHAUSTED } from '../../../firmware-host/games/cards/table/index.ts';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { alarms, ofType } from './helpers.ts';

const ruleset = getRuleset('bulgaria-blackjack');

describe('a round the shoe cannot complete is void and ends the shoe', () => {
  it('voids the round at its last card, ends the shoe as exhausted and expects a shuffle', () => {
    let seen = 0;
    for (let seed = 1; seed <= 60; seed += 1) {
      const deal = dealLegalSession({
        ruleset,
        engine: createEngine(ruleset),
        random: seededRandom(seed),
        decks: 1,
        boxes: [1, 2, 3, 4, 5, 6, 7],
      });
      const session = new TableSession(sessionConfig(ruleset));
      const perRecord = deal.records.map((record) => session.apply(record));
      const events = perRecord.flat();
      expect(alarms(events), `seed ${seed}`).toEqual([]);
      expect(deal.records.some((record) => record.t === 'void')).toBe(false);
      if (deal.exhausted.length === 0) {
        expect(ofType(events, 'shoe_end')[0]?.reason).not.toBe(SHOE_EXHAUSTED);
        continue;
      }
      seen += 1;
      expect(deal.exhausted).toEqual([{ shoe: 1, round: ofType(events, 'round_start').length }]);
      // The record after which a card is due and none is left (the last card, or a box
      // standing when the dealer must draw) voids the round and ends the shoe.
      const lastRecord = deal.records.at(-1)!;
      const [voided, ended] = perRecord.at(-1)!.slice(-2);
      expect(['card', 'action']).toContain(lastRecord.t);
      expect(voided).toMatchObject({ type: 'hand_voided', boxes: 'all' });
      expect((voided as { reason: string }).reason).toContain('ran out of cards');
      expect(ended).toMatchObject({ type: 'shoe_end', reason: SHOE_EXHAUSTED });
      expect((ended as { rule: string }).rule).toMatch(/^practice: /);
      expect(session.snapshot().shoe).toMatchObject({ remaining: 0, ended: SHOE_EXHAUSTED });
      expect(session.expecting().kind).toBe('shuffle');
    }
    expect(seen).toBeGreaterThan(0);
  });
});
