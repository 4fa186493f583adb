/**
 * The blackjack engine declares when the dealer's hidden cards show
 * (`dealerReveal`): the hole card is turned when the dealer plays, after the
 * boxes (000 § 9.b). No shipped blackjack ruleset deals a hole card, so a
 * hole-card variant of tdc-blackjack with an early exposure voiding the round
 * shows the table reads the engine's declaration.
 */
import { describe, expect, it } from 'vitest';
import type { Ruleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { action, alarms, card, cards, ofType, round, shuffle } from './helpers.ts';

const base = getRuleset('tdc-blackjack');
const holeCardTable = {
  ...base,
  dealOrder: 'boxes_dealer_boxes_hole',
  misdeal: {
    ...base.misdeal,
    dealerCardExposedEarly: {
      action: 'void_all',
      reshuffle: false,
      source: 'test: a hole-card table',
    },
  },
} as unknown as Ruleset;

const exposed: TableLogRecord = { t: 'misdeal', kind: 'dealer_card_exposed' };

function play(records: readonly TableLogRecord[]) {
  const session = new TableSession(sessionConfig(holeCardTable));
  return records.flatMap((record) => session.apply(record));
}

// Burn, then box 1 TS 7C (17), the dealer 5H up and 9D in the hole (14: it must draw).
const DEAL = [shuffle(6), card('2D'), round([1]), ...cards('TS 5H 7C 9D')];

describe('a blackjack hole card (000 § 9.b)', () => {
  it('shown before box 1 has played is a misdeal', () => {
    const events = play([...DEAL, exposed]);
    expect(alarms(events, 'dealer_card_exposed')).toHaveLength(1);
    expect(ofType(events, 'hand_voided')).toHaveLength(1);
  });

  it('shown once box 1 stood and the dealer plays is no misdeal, and the round completes', () => {
    const events = play([...DEAL, action('stand', 1), exposed, card('4S')]);
    expect(alarms(events)).toEqual([]);
    expect(ofType(events, 'result')).toHaveLength(1);
  });
});
