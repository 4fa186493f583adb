/**
 * Journal checkpoints carry the session state: `deserialize(serialize(s))`
 * must be `s` to the last Map entry, and a session continued from a
 * checkpoint taken after any record must give exactly the events and the
 * final state of the uninterrupted reduction. Over legal deals of several
 * rulesets (one per game family), seeded.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import {
  decodeValue,
  deserializeSessionState,
  deserializeTableSession,
  encodeValue,
  SESSION_STATE_FORMAT,
  serializeSessionState,
  serializeTableSession,
} from '../../../firmware-host/games/session-codec.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { isTableError } from '../../../firmware-host/table/errors.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';

const RULESETS = [
  'bulgaria-punto-banco',
  'tdc-blackjack',
  'peru-triple-shot',
  'spain-holdem-bonus',
  'tdc-casino-holdem',
  'bulgaria-seven-card-stud',
  'tdc-russian-poker',
];

function legalRecords(name: string, seed: number): TableLogRecord[] {
  const ruleset = getRuleset(name);
  return dealLegalSession({
    ruleset,
    engine: createEngine(ruleset),
    random: seededRandom(seed),
    shoes: ruleset.shoeEnd.kind === 'reshuffle_every_round' ? 4 : 2,
    maxRoundsPerShoe: 8,
    withOrder: seed % 2 === 0,
  }).records;
}

/** Through JSON text, as the journal stores it. */
function roundTrip<T>(value: T): unknown {
  return JSON.parse(JSON.stringify(value));
}

describe('a serialized session state', () => {
  it('uses only rulesets that exist', () => {
    for (const name of RULESETS) expect(getRuleset(name).name).toBe(name);
  });

  it.each(RULESETS)('of %s reads back equal after every record of a legal deal', (name) => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (seed) => {
        const records = legalRecords(name, seed);
        const session = new TableSession(sessionConfig(name));
        for (const record of records) {
          session.apply(record);
          const back = deserializeSessionState(roundTrip(serializeSessionState(session.state)));
          expect(back).toStrictEqual(session.state);
        }
      }),
      { numRuns: 3 },
    );
  });

  it.each(RULESETS)(
    'of %s continues from a checkpoint at any record with the same events and final state',
    (name) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 1_000_000 }),
          fc.double({ min: 0, max: 1 }),
          (seed, at) => {
            const records = legalRecords(name, seed);
            const cut = Math.floor(at * records.length);
            const config = sessionConfig(name);
            const whole = new TableSession(config);
            const wholeEvents = records.map((record) => whole.apply(record));

            const first = new TableSession(config);
            const before = records.slice(0, cut).map((record) => first.apply(record));
            const checkpoint = roundTrip(serializeTableSession(config, first.state));
            const restored = deserializeTableSession(checkpoint);
            expect(restored.ruleset).toBe(name);
            const resumed = new TableSession(sessionConfig(restored.ruleset), restored.state);
            const after = records.slice(cut).map((record) => resumed.apply(record));

            expect([...before, ...after]).toStrictEqual(wholeEvents);
            expect(resumed.state).toStrictEqual(whole.state);
            expect(resumed.snapshot()).toStrictEqual(whole.snapshot());
          },
        ),
        { numRuns: 6 },
      );
    },
  );

  it('keeps Map and Set order, undefined fields, special numbers and shared references', () => {
    const shared = new Map([
      ['b', 2],
      ['a', 1],
    ]);
    const value = {
      history: [shared],
      inner: { history: [shared], gone: undefined },
      fired: new Set(['suit_streak', 'rank_run']),
      odd: [-0, Number.NaN, Number.POSITIVE_INFINITY],
      $: 'a key that looks like the tag',
    };
    const back = decodeValue(roundTrip(encodeValue(value))) as typeof value;
    expect(back).toStrictEqual(value);
    expect([...back.history[0]!.keys()]).toEqual(['b', 'a']);
    expect([...back.fired]).toEqual(['suit_streak', 'rank_run']);
    expect(Object.hasOwn(back.inner, 'gone')).toBe(true);
    expect(Object.is(back.odd[0], -0)).toBe(true);
    expect(back.inner.history[0]).toBe(back.history[0]);
  });

  it('refuses to write what is not plain data, naming where it is', () => {
    expect(() => encodeValue({ round: { engine: { settle: () => 1 } } })).toThrow(
      /\$\.round\.engine\.settle: a function/,
    );
    expect(() => encodeValue({ at: new Date(0) })).toThrow(/\$\.at: a Date/);
  });

  it('is refused on reading with a clear error when damaged or of another format', () => {
    const session = new TableSession(sessionConfig('bulgaria-punto-banco'));
    for (const record of legalRecords('bulgaria-punto-banco', 7).slice(0, 40))
      session.apply(record);
    const good = roundTrip(serializeSessionState(session.state)) as {
      format: number;
      state: Record<string, unknown>;
    };
    const attempts: Array<[unknown, RegExp]> = [
      [{ ...good, format: SESSION_STATE_FORMAT + 1 }, /format 2; this build reads format 1/],
      [{ ...good, state: { ...good.state, shoes: 'two' } }, /shoes/],
      [{ ...good, state: { ...good.state, extra: 1 } }, /extra/],
      [{ ...good, state: { ...good.state, history: { $: 'ref', id: 99 } } }, /unknown id 99/],
      ['not an object', /not an object/],
    ];
    for (const [damaged, message] of attempts) {
      let caught: unknown;
      try {
        deserializeSessionState(damaged);
      } catch (error) {
        caught = error;
      }
      expect(isTableError(caught) && caught.code === 'bad_checkpoint').toBe(true);
      expect((caught as Error).message).toMatch(message);
    }
  });
});
