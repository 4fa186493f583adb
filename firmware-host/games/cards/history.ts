/**
 * A card table's day on the History page: its shoes and their hands. Each
 * hand keeps its events in order, so a disputed hand can be replayed card by
 * card (001 § 11) and exported as it was journaled. The events are the
 * screened ones (`shown`): a face-down card stays a back here too.
 */
import type { DomainEvent } from '../../table/events.ts';
import type { DayGrouping, HistoryRecord } from '../game.ts';

export interface HistoryHand {
  round: number;
  seq: number;
  ts: number;
  /** Screened events of the hand, in journal order. */
  events: Record<string, unknown>[];
  result?: {
    winner?: unknown;
    announcement?: unknown;
    /** The result in the game's sentences (the plug-in's `resultWords`), as the feed gives it. */
    words: string[];
    outcome: Record<string, unknown>;
  };
  voided?: { reason: string; by?: string };
}

export interface HistoryShoe {
  seq: number;
  ts: number;
  /** Events before the first hand and outside any hand (burns, markers, shoe alarms). */
  events: Record<string, unknown>[];
  hands: HistoryHand[];
  ended?: string;
}

export type CardDayUnits = { shoes: HistoryShoe[] };

export function cardDayHistory(): DayGrouping<CardDayUnits> {
  const shoes: HistoryShoe[] = [];
  let shoe: HistoryShoe | undefined;
  let hand: HistoryHand | undefined;
  const shoeNow = (record: HistoryRecord) => {
    shoe ??= { seq: record.seq, ts: record.ts, events: [], hands: [] };
    if (!shoes.includes(shoe)) shoes.push(shoe);
    return shoe;
  };
  /** Who made the latest input (its `src`): a hand it voids (a new shoe mid-coup) is put down to them. */
  let inputBy: string | undefined;
  return {
    take(record) {
      if (record.kind === 'input') {
        const input = record.data as { t?: string; src?: string; reason?: string };
        inputBy = input.src;
        if (input.t === 'void' && hand) {
          hand.voided = { reason: input.reason ?? '', ...(input.src ? { by: input.src } : {}) };
        }
        return;
      }
      if (record.kind !== 'event') return;
      const event = record.data as DomainEvent;
      const shown = record.shown ?? {};
      if (event.type === 'shoe_start') {
        shoe = { seq: record.seq, ts: record.ts, events: [shown], hands: [] };
        shoes.push(shoe);
        hand = undefined;
      } else if (event.type === 'round_start') {
        hand = { round: event.round, seq: record.seq, ts: record.ts, events: [shown] };
        shoeNow(record).hands.push(hand);
      } else if (hand) {
        hand.events.push(shown);
        if (event.type === 'hand_voided' && event.boxes === 'all') {
          hand.voided = {
            ...(inputBy ? { by: inputBy } : {}),
            ...hand.voided,
            reason: event.reason,
          };
        }
        if (event.type === 'result') {
          // As the feed shows it: the outcome the table exposed, not the journal's whole one.
          const outcome = (shown.outcome ?? {}) as Record<string, unknown>;
          const words = Array.isArray(shown.words) ? (shown.words as string[]) : [];
          hand.result = {
            winner: outcome.winner,
            announcement: outcome.announcement,
            words,
            outcome,
          };
          hand = undefined;
        }
      } else {
        shoeNow(record).events.push(shown);
        if (event.type === 'shoe_end') shoeNow(record).ended = event.reason;
      }
    },
    // Outside the day, only where a shoe or hand starts and ends matters.
    follow(record) {
      if (record.kind !== 'event') return;
      const event = record.data as DomainEvent;
      if (event.type === 'shoe_start') {
        shoe = undefined;
        hand = undefined;
      } else if (event.type === 'round_start' || event.type === 'result') {
        hand = undefined;
      }
    },
    units: () => ({ shoes }),
  };
}
