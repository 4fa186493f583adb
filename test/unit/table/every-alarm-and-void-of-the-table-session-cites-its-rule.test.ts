/**
 * Issue 25, item 10: an alarm is acted on by the rule it cites. Some cited
 * none (`unexpected_card` before a shuffle or the first round, `hand_voided`
 * by a new shuffle or on request) and a baccarat `face_up_card` or
 * `wrong_back_colour` cited only `practice:` text, where a seed article is
 * the nearest written rule.
 */
import { describe, expect, it } from 'vitest';
import { source } from '../../../firmware-host/engine/rulesets/base.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { alarms, BURN_TWO, card, cards, ofType, play, round, shuffle } from './helpers.ts';

const BACCARAT = 'tdc-baccarat-no-commission';
/** A seed article: `000 § 14.a`, `001 (Errores e infracciones b)`. */
const ARTICLE = /\b00\d (§ \S|\()/;

/** The rule of each alarm and void, which must read as a citation. */
function rulesOf(events: readonly DomainEvent[]): Array<{ what: string; rule: unknown }> {
  return events.flatMap<{ what: string; rule: unknown }>((event) =>
    event.type === 'alarm'
      ? [{ what: event.kind, rule: event.rule }]
      : event.type === 'hand_voided'
        ? [{ what: `hand_voided: ${event.reason}`, rule: event.rule }]
        : [],
  );
}

function expectCited(events: readonly DomainEvent[], what: string): void {
  const cited = rulesOf(events).filter((entry) => entry.what.startsWith(what));
  expect(cited.length, `${what} was raised`).toBeGreaterThan(0);
  for (const entry of cited) {
    expect(source.safeParse(entry.rule).success, `${entry.what} cites ${entry.rule}`).toBe(true);
  }
}

describe('every alarm and void of the table session cites its rule', () => {
  it('a card before any shuffle', () => {
    const { events } = play(BACCARAT, [card('9H')]);
    expectCited(events, 'unexpected_card');
  });

  it('a card before the first round, where rounds are started by hand', () => {
    const { events } = play(BACCARAT, [shuffle(8), ...BURN_TWO, card('9H')], {
      autoRound: false,
    });
    expectCited(events, 'unexpected_card');
  });

  it('a round voided by a new shuffle, and one voided on request', () => {
    const dealt = [shuffle(8), ...BURN_TWO, round(), ...cards('9H 2C')];
    const reshuffled = play(BACCARAT, [...dealt, shuffle(8)]).events;
    expectCited(reshuffled, 'hand_voided: a new shuffle');
    const requested = play(BACCARAT, [...dealt, { t: 'void', reason: 'chips knocked over' }]);
    expectCited(requested.events, 'hand_voided: chips knocked over');
  });

  it('a baccarat card found face up, or with a foreign back, names the nearest seed article', () => {
    const { events } = play(BACCARAT, [
      shuffle(8),
      ...BURN_TWO,
      round(),
      card('9H', 'red', 'up'),
      card('2C', 'blue'),
    ]);
    const [faceUp] = alarms(events, 'face_up_card');
    const [wrongBack] = alarms(events, 'wrong_back_colour');
    expect(faceUp?.rule).toMatch(ARTICLE);
    expect(wrongBack?.rule).toMatch(ARTICLE);
    // Still practice: the baccarat texts are silent, and the rule says so.
    expect(faceUp?.rule).toMatch(/^practice: the seeds/);
    expect(wrongBack?.rule).toMatch(/^practice: the seeds/);
    expect(ofType(events, 'card').length).toBeGreaterThan(0);
  });
});
