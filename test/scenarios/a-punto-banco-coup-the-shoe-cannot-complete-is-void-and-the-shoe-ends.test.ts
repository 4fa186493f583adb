// 003 § 24(1): the marker lies seven cards from the end and a cut card covers the last card so
// that nobody sees it; item 5: a coup takes up to six cards, and after the first joker the last
// hand is dealt. The coup in progress and one more can need eleven cards, so the shoe can run
// out. The seeds are silent on that (practice, ruleset `shoeEnd.exhaustion`): a coup the shoe
// cannot complete is void and the shoe ends; a coup is begun only while 4 cards are left.
import { expect, it } from 'vitest';
import type { StandardCard } from '../../device-protocol/cards.ts';
import { SHOE_EXHAUSTED } from '../../firmware-host/games/cards/table/index.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { alarms, card, cards, ofType, play, round } from '../unit/table/helpers.ts';
import { shoeDownTo } from './punto-banco-shoe-end.ts';

const tail = (list: string) => list.split(' ') as StandardCard[];

/** The events from the result of the last of `coupsBefore` coups on: what the tail produced. */
function fromLastCoup(events: readonly DomainEvent[], coupsBefore: number): DomainEvent[] {
  let results = 0;
  return events.filter((event) => {
    if (event.type === 'result') results += 1;
    return results >= coupsBefore;
  });
}

it('a coup the shoe cannot complete is void and the shoe ends as exhausted, the covered last card never dealt (003 § 24(1), item 5)', () => {
  // Player K K draws the 5, Banker K K must draw: the only card left is the covered 3H.
  const coup = 'KS KH KD KC 5S';
  const records = shoeDownTo('bulgaria-punto-banco', 4, tail(`${coup} 3H`));
  const before = records.filter((r) => r.t === 'round').length;
  const { session, events } = play('bulgaria-punto-banco', [
    ...records,
    card('JK'), // the marker between coups: one more coup
    round(),
    ...cards(coup),
  ]);
  expect(alarms(events)).toEqual([]);
  const end = fromLastCoup(events, before).filter((e) => e.type !== 'card');
  expect(end.map((e) => e.type)).toEqual([
    'result',
    'last_hand',
    'round_start',
    'hand_voided',
    'shoe_end',
  ]);
  const voided = ofType(events, 'hand_voided')[0]!;
  expect(voided).toMatchObject({ boxes: 'all' });
  expect(voided.reason).toContain('ran out of cards');
  expect(voided.rule).toMatch(/^practice: .*003 § 24 item 3\.b.*item 5/);
  expect(ofType(events, 'shoe_end')).toEqual([
    expect.objectContaining({ reason: SHOE_EXHAUSTED, rule: voided.rule }),
  ]);
  expect(ofType(events, 'result')).toHaveLength(before);

  // The table says so and starts nothing more from this shoe.
  expect(session.expecting()).toMatchObject({ kind: 'shuffle' });
  expect(session.expecting().text).toContain(SHOE_EXHAUSTED);
  expect(session.snapshot().shoe).toMatchObject({ ended: SHOE_EXHAUSTED });
  const after = [round(), card('3H')].flatMap((record) => session.apply(record));
  expect(alarms(after).map((a) => a.kind)).toEqual(['round_after_shoe_end', 'card_after_shoe_end']);
});

it('where no cut card covers the last card (tdc-baccarat-no-commission) the same coup takes the last card and ends the shoe as the last hand', () => {
  const coup = 'KS KH KD KC 5S 3H';
  const { events } = play('tdc-baccarat-no-commission', [
    ...shoeDownTo('tdc-baccarat-no-commission', 8, tail(coup)),
    { t: 'cut' },
    round(),
    ...cards(coup),
  ]);
  expect(alarms(events)).toEqual([]);
  expect(ofType(events, 'hand_voided')).toEqual([]);
  expect(ofType(events, 'result').at(-1)!.outcome).toMatchObject({ winner: 'player' });
  expect(ofType(events, 'shoe_end')).toEqual([
    expect.objectContaining({ reason: 'last hand dealt after the marker' }),
  ]);
});

it('a coup is not begun with fewer than the 4 cards every coup takes: the shoe ends after the coup in progress (003 § 24 item 3.b)', () => {
  // The marker comes out during a natural; three cards and the covered one are left.
  const coup = '9H 2C TD 7S';
  const { session, events } = play('bulgaria-punto-banco', [
    ...shoeDownTo('bulgaria-punto-banco', 4, tail(`${coup} 4S 5S 6S 8S`)),
    round(),
    card('9H'),
    card('JK'),
    ...cards('2C TD 7S'),
  ]);
  expect(alarms(events)).toEqual([]);
  expect(events.slice(-2).map((e) => e.type)).toEqual(['result', 'shoe_end']);
  expect(events.at(-1)).toMatchObject({ type: 'shoe_end', reason: SHOE_EXHAUSTED });
  expect((events.at(-1) as { rule: string }).rule).toContain('003 § 24 item 3.b');
  expect(session.expecting()).toMatchObject({ kind: 'shuffle' });
  expect(alarms(session.apply(round())).map((a) => a.kind)).toEqual(['round_after_shoe_end']);
});

it('with four cards left the coup after the marker is begun, and completes when it takes four (003 § 24 item 5)', () => {
  const coup = '9H 2C TD 7S';
  const { events } = play('bulgaria-punto-banco', [
    ...shoeDownTo('bulgaria-punto-banco', 4, tail(`${coup} 8D 3C 9C 4D 6H`)),
    round(),
    card('9H'),
    card('JK'),
    ...cards('2C TD 7S'),
    round(),
    ...cards('8D 3C 9C 4D'), // Player 7 (8 9), Banker 7 (3 4): both stand, a tie
  ]);
  expect(alarms(events)).toEqual([]);
  expect(ofType(events, 'hand_voided')).toEqual([]);
  expect(events.at(-1)).toMatchObject({
    type: 'shoe_end',
    reason: 'last hand dealt after the marker',
  });
});
