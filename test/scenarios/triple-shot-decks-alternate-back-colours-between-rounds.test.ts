// 000 § 2.c.1-c.3: two decks of different back colours, alternated continuously; only one
// deck's cards in play (and in the discard) at a time. 000 § 7: shuffle and cut every round.
import { expect, it } from 'vitest';
import { alarms, card, play, round } from '../unit/table/helpers.ts';
import { tripleShotRound } from './triple-shot-round.ts';

// The rounds below deal the same cards on purpose; the repeat test of the shuffle
// detector would (rightly) flag that, so it is off here.
const NO_DETECTOR = { anomaly: { enabled: false } };

it('red and blue decks in turn raise nothing (000 § 2.c.2)', () => {
  const { events } = play(
    'peru-triple-shot',
    [...tripleShotRound('red'), ...tripleShotRound('blue'), ...tripleShotRound('red')],
    NO_DETECTOR,
  );
  expect(alarms(events)).toEqual([]);
});

it('the same colour twice running is a deck not alternated (000 § 2.c.2)', () => {
  const { events } = play(
    'peru-triple-shot',
    [...tripleShotRound('red'), ...tripleShotRound('red')],
    NO_DETECTOR,
  );
  expect(alarms(events)).toEqual([
    expect.objectContaining({ kind: 'deck_not_alternated', back: 'red' }),
  ]);
});

it("a card of the other deck's colour in a round is a wrong back colour and is not used (000 § 2.c.3)", () => {
  const records = tripleShotRound('red');
  records.splice(4, 0, card('AS', 'blue'));
  const { events } = play('peru-triple-shot', records);
  expect(alarms(events)).toEqual([
    expect.objectContaining({
      kind: 'wrong_back_colour',
      index: 2,
      back: 'blue',
      expected: ['red'],
    }),
  ]);
});

it('a second round from the same deck without a new shuffle is flagged (000 § 2.c.2, § 7)', () => {
  const again = tripleShotRound('red').slice(1); // no shuffle record
  const { events } = play(
    'peru-triple-shot',
    [...tripleShotRound('red'), round([1]), ...again.slice(1)],
    NO_DETECTOR,
  );
  expect(alarms(events, 'deck_not_alternated')).toHaveLength(1);
});
