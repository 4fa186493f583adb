/**
 * Property tests over every shipped ruleset: a legal deal (seeded shuffle,
 * scripted dealer) raises no alarm; one injected fault raises exactly the
 * matching alarm, at the card where it happened; replays are identical.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CardCode,
  compositionKey,
  type StandardCard,
  shoeComposition,
} from '../../../device-protocol/cards.ts';
import type { Ruleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { initialState, reduce } from '../../../firmware-host/games/cards/table/index.ts';
import {
  type DealNote,
  dealLegalSession,
  type LegalDeal,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine, GAMES } from '../../../firmware-host/games/engines.ts';
import { getRuleset, rulesetNames } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import type { CardRecord, TableLogRecord } from '../../../firmware-host/table/log.ts';
import { alarms } from './helpers.ts';

const RUNS = 15;

interface Run {
  readonly events: DomainEvent[];
  /** For each event, the index of the record that produced it. */
  readonly from: number[];
}

function run(ruleset: Ruleset, records: readonly TableLogRecord[]): Run {
  const session = new TableSession(sessionConfig(ruleset));
  const events: DomainEvent[] = [];
  const from: number[] = [];
  records.forEach((record, i) => {
    for (const event of session.apply(record)) {
      events.push(event);
      from.push(i);
    }
  });
  return { events, from };
}

function deal(
  ruleset: Ruleset,
  seed: number,
  extra: Partial<Parameters<typeof dealLegalSession>[0]> = {},
) {
  return dealLegalSession({
    ruleset,
    engine: createEngine(ruleset),
    random: seededRandom(seed),
    decks: Math.min(...ruleset.decks.allowed),
    shoes: ruleset.shoeEnd.kind === 'reshuffle_every_round' ? 3 : 1,
    maxRoundsPerShoe: 12,
    ...extra,
  });
}

/** Records (with their shoe) that are cards routed into a round. */
function roundCards(legal: LegalDeal): number[] {
  return legal.notes.flatMap((note, i) => (note.kind === 'card' ? [i] : []));
}

/** Cards of `shoe` never dealt in the log: safe to slip in without running the shoe out. */
function undealt(ruleset: Ruleset, legal: LegalDeal, shoe: number): StandardCard[] {
  const shuffle = legal.records[
    legal.notes.findIndex((n) => n.kind === 'shuffle' && n.shoe === shoe)
  ] as Extract<TableLogRecord, { t: 'shuffle' }>;
  const left = shoeComposition({ decks: shuffle.decks, backs: shuffle.backs });
  legal.records.forEach((record, i) => {
    const note = legal.notes[i]!;
    if (record.t === 'card' && 'shoe' in note && note.shoe === shoe) {
      const key = compositionKey(record.card, record.back);
      left.set(key, (left.get(key) ?? 0) - 1);
    }
  });
  void ruleset;
  return [...left.entries()]
    .filter(([key, n]) => n > 0 && !key.startsWith('JK'))
    .map(([key]) => key.slice(0, 2) as StandardCard);
}

/** The physical index a card inserted before record `at` gets: cards of its shoe before it. */
function indexAt(legal: LegalDeal, at: number): number {
  const note = legal.notes[at]! as DealNote & { shoe: number };
  let index = 0;
  for (let i = 0; i < at; i += 1) {
    const other = legal.notes[i]! as DealNote & { shoe?: number };
    if (legal.records[i]!.t === 'card' && other.shoe === note.shoe) index += 1;
  }
  return index;
}

function insert(records: readonly TableLogRecord[], at: number, record: TableLogRecord) {
  return [...records.slice(0, at), record, ...records.slice(at)];
}

function expectOneAlarm(result: Run, kind: string, recordIndex: number, index?: number) {
  const raised = alarms(result.events);
  expect(raised.map((a) => a.kind)).toEqual([kind]);
  const at = result.events.indexOf(raised[0]!);
  expect(result.from[at]).toBe(recordIndex);
  if (index !== undefined) expect(raised[0]!.index).toBe(index);
}

const seed = fc.integer({ min: 1, max: 2 ** 31 - 1 });

// Every shipped ruleset whose game has an engine; the others are named, not silently dropped.
const PLAYABLE = rulesetNames().filter((name) => Object.hasOwn(GAMES, getRuleset(name).game));
const WAITING = rulesetNames().filter((name) => !PLAYABLE.includes(name));
if (WAITING.length > 0) {
  console.warn(`table property tests: no engine yet for ${WAITING.join(', ')}; not tested`);
}

describe.each(PLAYABLE)('ruleset %s', (name) => {
  const ruleset = getRuleset(name);

  it('a legal deal of whole shoes, with the shuffler order, raises no alarm and replays identically', () => {
    fc.assert(
      fc.property(seed, (s) => {
        const legal = deal(ruleset, s, { withOrder: true, maxRoundsPerShoe: undefined, shoes: 2 });
        const first = run(ruleset, legal.records);
        expect(alarms(first.events)).toEqual([]);
        expect(first.events.some((e) => e.type === 'result')).toBe(true);
        expect(run(ruleset, legal.records).events).toEqual(first.events);
      }),
      { numRuns: 4 },
    );
  });

  it('a legal deal raises no alarm, and a replay from any earlier state gives the same events', () => {
    fc.assert(
      fc.property(seed, fc.nat(), (s, cut) => {
        const legal = deal(ruleset, s);
        const config = sessionConfig(ruleset);
        let state = initialState();
        const events: DomainEvent[] = [];
        const split = cut % legal.records.length;
        let kept = state;
        for (const [i, record] of legal.records.entries()) {
          if (i === split) kept = state;
          const result = reduce(config, state, record);
          state = result.state;
          events.push(...result.events);
        }
        expect(alarms(events)).toEqual([]);
        const tail = legal.records.slice(split).flatMap((record) => {
          const result = reduce(config, kept, record);
          kept = result.state;
          return result.events;
        });
        const expectedTail = run(ruleset, legal.records);
        expect(tail).toEqual(expectedTail.events.filter((_, i) => expectedTail.from[i]! >= split));
      }),
      { numRuns: RUNS },
    );
  });

  it('a foreign card (a copy more than the shoe holds) raises foreign_card at that card only', () => {
    fc.assert(
      fc.property(seed, fc.nat(), (s, pick) => {
        const legal = deal(ruleset, s, { maxRoundsPerShoe: undefined });
        const cardsIn = roundCards(legal);
        const at =
          cardsIn[Math.floor(cardsIn.length * 0.6) + (pick % Math.ceil(cardsIn.length * 0.4))];
        fc.pre(at !== undefined);
        const note = legal.notes[at!]! as DealNote & { shoe: number };
        const shuffle = legal.records.findLast((r, i) => i < at! && r.t === 'shuffle') as Extract<
          TableLogRecord,
          { t: 'shuffle' }
        >;
        const seen = new Map<string, number>();
        for (let i = 0; i < at!; i += 1) {
          const r = legal.records[i]!;
          const n = legal.notes[i]! as DealNote & { shoe?: number };
          if (r.t === 'card' && n.shoe === note.shoe) seen.set(r.card, (seen.get(r.card) ?? 0) + 1);
        }
        const exhausted = [...seen.entries()].find(([, n]) => n >= shuffle.decks)?.[0];
        fc.pre(exhausted !== undefined);
        const back = shuffle.backs[0]!;
        const faulty = insert(legal.records, at!, {
          t: 'card',
          card: exhausted as CardCode,
          back,
          face: 'down',
        });
        expectOneAlarm(run(ruleset, faulty), 'foreign_card', at!, indexAt(legal, at!));
      }),
      { numRuns: RUNS },
    );
  });

  it('a card with the wrong back colour raises wrong_back_colour at that card only', () => {
    fc.assert(
      fc.property(seed, fc.nat(), (s, pick) => {
        const legal = deal(ruleset, s);
        const cardsIn = roundCards(legal);
        const at = cardsIn[pick % cardsIn.length]!;
        const record = legal.records[at] as CardRecord;
        const other =
          ruleset.backs.kind === 'alternating'
            ? ruleset.backs.colours.find((c) => c !== record.back)!
            : record.back === 'green'
              ? 'blue'
              : 'green';
        const faulty = insert(legal.records, at, { ...record, back: other });
        expectOneAlarm(run(ruleset, faulty), 'wrong_back_colour', at, indexAt(legal, at));
      }),
      { numRuns: RUNS },
    );
  });

  it('one card found face up in the shoe raises face_up_card at that card only', () => {
    fc.assert(
      fc.property(seed, fc.nat(), (s, pick) => {
        const legal = deal(ruleset, s);
        const cardsIn = roundCards(legal);
        const at = cardsIn[pick % cardsIn.length]!;
        const note = legal.notes[at]! as DealNote & { shoe: number };
        const spare = undealt(ruleset, legal, note.shoe);
        fc.pre(spare.length > 0);
        const back = (legal.records[at] as CardRecord).back;
        const faulty = insert(legal.records, at, { t: 'card', card: spare[0]!, back, face: 'up' });
        const result = run(ruleset, faulty);
        expectOneAlarm(result, 'face_up_card', at, indexAt(legal, at));
        const discarded = result.events.find((e, i) => e.type === 'card' && result.from[i] === at);
        expect(discarded).toMatchObject({ to: 'discard', face: 'up', index: indexAt(legal, at) });
      }),
      { numRuns: RUNS },
    );
  });

  it('an extra card after a round is complete raises wrong_card_count at that card only', () => {
    fc.assert(
      fc.property(seed, fc.nat(), (s, pick) => {
        const legal = deal(ruleset, s, {
          shoes: ruleset.shoeEnd.kind === 'reshuffle_every_round' ? 3 : 1,
        });
        // Between two rounds of the same shoe, or before the next shuffle of a deck-per-round game.
        const gaps = legal.notes.flatMap((note, i) => {
          if (i === 0) return [];
          const before = legal.notes[i - 1]!;
          const isNext =
            note.kind === 'round' ||
            (note.kind === 'shuffle' && ruleset.shoeEnd.kind === 'reshuffle_every_round');
          return isNext && (before.kind === 'card' || before.kind === 'action') ? [i] : [];
        });
        fc.pre(gaps.length > 0);
        const at = gaps[pick % gaps.length]!;
        const previous = legal.notes[at - 1]! as DealNote & { shoe: number };
        const spare = undealt(ruleset, legal, previous.shoe);
        fc.pre(spare.length > 0);
        const back =
          ruleset.backs.kind === 'single'
            ? ruleset.backs.colour
            : (legal.records.findLast((r, i) => i < at && r.t === 'card') as CardRecord).back;
        const faulty = insert(legal.records, at, {
          t: 'card',
          card: spare[0]!,
          back,
          face: 'down',
        });
        expectOneAlarm(run(ruleset, faulty), 'wrong_card_count', at);
      }),
      { numRuns: RUNS },
    );
  });

  // Only where the ruleset burns at a new shoe; in-round burns (Hold'em) are invisible to the shoe.
  const burnsAtNewShoe =
    ruleset.burn.kind === 'turn_and_burn' ||
    (ruleset.burn.kind === 'fixed' && ruleset.burn.points.some((p) => p.before === 'new_shoe'));
  if (burnsAtNewShoe)
    it('a missing shoe-start burn raises missing_burn when the round begins', () => {
      fc.assert(
        fc.property(seed, (s) => {
          const legal = deal(ruleset, s);
          const burns = legal.notes.flatMap((note, i) => (note.kind === 'burn' ? [i] : []));
          fc.pre(burns.length > 0);
          // Not the turned card: its rank sets how many follow.
          const drop = burns[ruleset.burn.kind === 'turn_and_burn' ? 1 : 0];
          fc.pre(drop !== undefined);
          const faulty = legal.records.filter((_, i) => i !== drop);
          const firstRound = faulty.findIndex((r) => r.t === 'round');
          expectOneAlarm(run(ruleset, faulty), 'missing_burn', firstRound);
        }),
        { numRuns: RUNS },
      );
    });

  it('a pair swapped against the shuffler order raises sequence_mismatch at the first of the pair', () => {
    fc.assert(
      fc.property(seed, fc.integer({ min: 2, max: 15 }), (s, position) => {
        let swapped = false;
        const legal = deal(ruleset, s, {
          withOrder: true,
          tamper: (reported, shoe) => {
            const real = [...reported];
            if (shoe === 1 && real[position] !== real[position + 1]) {
              [real[position], real[position + 1]] = [real[position + 1]!, real[position]!];
              swapped = true;
            }
            return real;
          },
        });
        fc.pre(swapped);
        // Both cards of the pair must have been dealt for the swap to be seen.
        const dealtInFirstShoe = legal.records.filter(
          (r, i) => r.t === 'card' && (legal.notes[i] as { shoe?: number }).shoe === 1,
        ).length;
        fc.pre(dealtInFirstShoe > position + 1);
        const result = run(ruleset, legal.records);
        const raised = alarms(result.events);
        expect(raised.map((a) => a.kind)).toEqual(['sequence_mismatch']);
        expect(raised[0]).toMatchObject({ index: position, position });
        const record = legal.records[result.from[result.events.indexOf(raised[0]!)]!] as CardRecord;
        expect(raised[0]!.seen).toBe(record.card);
      }),
      { numRuns: RUNS },
    );
  });
});
