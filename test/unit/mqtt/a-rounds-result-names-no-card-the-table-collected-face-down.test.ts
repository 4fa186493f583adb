/**
 * Issue 24, item 9: `events/hand` at the end of a round listed cards dealt
 * face down that the table never exposed: the boxes that folded at
 * Caribbean stud, the dealer's hand when every box folded. The guard (MQTT
 * and the web feed) publishes a result's outcome as the table exposed it;
 * the journal keeps the whole outcome for surveillance.
 *
 * Every card ruleset is dealt by the scripted legal dealer (random boxes and
 * decisions, folds included) through a real table session. A card dealt
 * face down to a box that folded, or to the dealer when every box folded,
 * may appear in no published result (unless a Bonus paid on the folded
 * box turned it over); the games without folds publish the outcome whole.
 */
import { describe, expect, it } from 'vitest';
import { cardDayHistory } from '../../../firmware-host/games/cards/history.ts';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset, listRulesets } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { screenEvent } from '../../../firmware-host/mqtt/guard.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { readHistoryDay } from '../../../firmware-host/web/history.ts';
import { action, card, round, shuffle } from '../table/helpers.ts';

type ResultEvent = Extract<DomainEvent, { type: 'result' }>;

/** The published form of a result: what MQTT and the web console send. */
function published(event: ResultEvent): Record<string, unknown> {
  const screened = screenEvent(event);
  if (!screened.publish) throw new Error(`result withheld: ${screened.reason}`);
  return screened.event;
}

/** The games where no card is collected face down unseen. */
const WHOLE = ['punto-banco', 'blackjack', 'triple-shot'];

interface RoundSeen {
  folded: Set<number>;
  boxes: Set<number>;
  faceDown: Array<{ card: string; to: string }>;
}

describe("a round's result names no card the table collected face down", () => {
  for (const ruleset of listRulesets()) {
    it(`${ruleset.name}: no folded or unplayed face-down card in a published result`, () => {
      let results = 0;
      let hidden = 0;
      for (let seed = 1; seed <= 12; seed += 1) {
        const deal = dealLegalSession({
          ruleset,
          engine: createEngine(ruleset),
          random: seededRandom(seed),
          shoes: 2,
          maxRoundsPerShoe: 3,
        });
        const session = new TableSession(sessionConfig(ruleset));
        let seen: RoundSeen = { folded: new Set(), boxes: new Set(), faceDown: [] };
        for (const record of deal.records) {
          if (record.t === 'round') {
            seen = { folded: new Set(), boxes: new Set(record.boxes ?? []), faceDown: [] };
          }
          if (record.t === 'action' && record.action === 'fold' && record.box !== undefined) {
            seen.folded.add(record.box);
          }
          for (const event of session.apply(record)) {
            if (event.type === 'card' && event.face === 'down') {
              seen.faceDown.push({ card: event.card, to: event.to });
            }
            if (event.type !== 'result') continue;
            results += 1;
            const text = JSON.stringify(published(event));
            const everyBoxFolded =
              seen.boxes.size > 0 && [...seen.boxes].every((box) => seen.folded.has(box));
            // A Bonus paid on a folded box is paid on its cards turned over (practice).
            const bets = event.outcome.bets as Record<string, number>;
            const collected = seen.faceDown.filter(
              ({ to }) =>
                (to.startsWith('box:') &&
                  seen.folded.has(Number(to.slice(4))) &&
                  !((bets[`${to}.bonus`] ?? 0) > 0)) ||
                (to === 'dealer' && everyBoxFolded),
            );
            for (const { card: code, to } of collected) {
              hidden += 1;
              expect(text, `seed ${seed} round ${event.round}: ${code} to ${to}`).not.toMatch(
                new RegExp(`\\b${code}\\b`),
              );
              // The journal keeps it for surveillance.
              expect(JSON.stringify(event.outcome)).toMatch(new RegExp(`\\b${code}\\b`));
            }
            if (WHOLE.includes(ruleset.game)) {
              // Every card of these games is shown by the end: the outcome goes out whole.
              expect(JSON.parse(text).outcome).toEqual(event.outcome);
            }
          }
        }
      }
      expect(results).toBeGreaterThan(0);
      if (!WHOLE.includes(ruleset.game)) expect(hidden).toBeGreaterThan(0);
    });
  }

  it('Caribbean stud: a folded box is a count of five cards; every box folding hides the dealer but the up card', () => {
    const ruleset = getRuleset(listRulesets().find((r) => r.game === 'caribbean-stud')?.name ?? '');
    const dealt = 'AS KS QS JS TS 2H 3H 4H 5H 7C 9D 9C 8D 8C 6H'.split(' ');
    const play = (decisions: TableLogRecord[]): ResultEvent => {
      const session = new TableSession(sessionConfig(ruleset));
      const events = [
        shuffle(1),
        round([1, 2]),
        ...dealt.map((c) => card(c as never)),
        ...decisions,
      ]
        .flatMap((record) => session.apply(record))
        .filter((event): event is ResultEvent => event.type === 'result');
      expect(events).toHaveLength(1);
      return events[0]!;
    };
    // Box 1 gets AS 2H 7C 8D ... in deal order: cards go one at a time, box 1, box 2, dealer.
    const one = play([action('raise', 1), action('fold', 2)]);
    const shown = published(one).outcome as {
      boxes: Array<Record<string, unknown>>;
      dealer: { cards: unknown };
    };
    const folded = shown.boxes.find((box) => box.box === 2)!;
    expect(folded).toMatchObject({ cards: 5, hand: null, combinations: null, play: 'fold' });
    expect(shown.boxes.find((box) => box.box === 1)!.cards).toEqual(
      (one.outcome as { boxes: Array<{ cards: unknown }> }).boxes[0]!.cards,
    );
    expect(Array.isArray(shown.dealer.cards)).toBe(true);
    expect((shown.dealer.cards as string[]).length).toBe(5);

    const none = play([action('fold', 1), action('fold', 2)]);
    const allFolded = published(none).outcome as {
      dealer: Record<string, unknown>;
      qualifier: Record<string, unknown>;
    };
    const dealerCards = (none.outcome as { dealer: { cards: string[] } }).dealer.cards;
    expect(allFolded.dealer).toEqual({
      cards: [dealerCards[4]],
      hidden: 4,
      hand: null,
      qualifies: null,
      purchase: null,
    });
    expect(allFolded.qualifier.dealerQualifies).toBeNull();
    // The journal's own event keeps all five for surveillance.
    expect((none.outcome as { dealer: { cards: string[] } }).dealer.cards).toHaveLength(5);
  });

  it("the History page's hand shows the result as the feed does", async () => {
    const ruleset = listRulesets().find((r) => r.game === 'caribbean-stud')!;
    const session = new TableSession(sessionConfig(ruleset));
    const dealt = 'AS KS QS JS TS 2H 3H 4H 5H 7C 9D 9C 8D 8C 6H'.split(' ');
    const inputs = [
      shuffle(1),
      round([1, 2]),
      ...dealt.map((c) => card(c as never)),
      action('raise', 1),
      action('fold', 2),
    ];
    const ts = Date.parse('2026-11-24T10:00:00Z');
    const records: JournalRecord[] = [];
    for (const input of inputs) {
      records.push({
        seq: records.length + 1,
        ts,
        prev: '0'.repeat(64),
        kind: 'input',
        data: input,
      } as JournalRecord);
      for (const event of session.apply(input)) {
        records.push({
          seq: records.length + 1,
          ts,
          prev: '0'.repeat(64),
          kind: 'event',
          data: event,
        } as JournalRecord);
      }
    }
    const journal = {
      lastSeq: records.length,
      readRange: async (from: number, max: number) =>
        records.filter((r) => r.seq >= from).slice(0, max),
      onDurable: () => () => undefined,
    };
    const day = await readHistoryDay(journal, '2026-11-24', cardDayHistory());
    const hand = day.shoes[0]!.hands[0]!;
    const result = records.find((r) => (r.data as DomainEvent).type === 'result')!;
    expect(hand.result?.outcome).toEqual(published(result.data as ResultEvent).outcome);
    const boxes = hand.result!.outcome.boxes as Array<Record<string, unknown>>;
    const folded = boxes[1]!;
    expect(folded).toMatchObject({ box: 2, cards: 5, hand: null });
  });
});
