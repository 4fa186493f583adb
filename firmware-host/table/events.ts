/**
 * Domain events: the outputs of the table session, journalled and published.
 * Pure data, JSON-serialisable. Nothing here may reveal an undealt card: no
 * event carries the shuffler's order or any card before it left the shoe.
 */
export type CardDestination =
  | 'player'
  | 'banker'
  | 'dealer'
  | `box:${number}`
  | 'board'
  | 'burn'
  | 'discard'
  | 'marker';

export type AlarmKind =
  | 'foreign_card'
  | 'wrong_back_colour'
  | 'deck_not_alternated'
  | 'sequence_mismatch'
  | 'face_up_card'
  | 'wrong_card_count'
  | 'dealer_card_exposed'
  | 'card_after_shoe_end'
  | 'shuffle_suspect'
  | 'missing_burn'
  | 'unexpected_card'
  | 'illegal_action'
  /** An MQTT request refused for its signature (unsigned, unknown key, bad, stale, replayed). */
  | 'request_refused'
  | 'device_quarantined'
  /** A device quarantined for failing authentication proved its paired key again: dealt again. */
  | 'device_requalified'
  /** An unpaired device said HELLO on a real line: refused, or dealt on a bench (`devices.<name>.unpaired: allow`). */
  | 'device_unpaired'
  | 'device_fault'
  /** A `round` record after the shoe ended (cut card, last hand, reshuffle required). */
  | 'round_after_shoe_end'
  /** A round dealt from a deck that already served a round, where every round needs a fresh shuffle (000 § 7; 001 § 4). */
  | 'missing_shuffle'
  /** A `shuffle` record declaring decks the ruleset does not allow. */
  | 'wrong_shoe'
  /** Roulette: the rotor turned the same way as in the previous spin (003 § 11(4)). */
  | 'rotor_same_direction'
  /** Roulette: the ball was thrown the same way as the rotor turns (003 § 11(1)). */
  | 'ball_with_rotor'
  /** Roulette: fewer ball revolutions than the ruleset's minimum (practice). */
  | 'few_revolutions'
  /** Roulette: a result with no rotor spin or no ball launch before it (003 § 11(1), 11(5)). */
  | 'result_without_spin'
  /** Roulette: a spin while the betting was still open (003 § 11(2)). */
  | 'spin_without_close'
  /** Roulette: the spin did not count (a chip in the wheel, the ball dropped; 003 § 11(5)). */
  | 'no_spin'
  /** Roulette: a spin or no-spin after the last game of closing time (003 § 13(2)). */
  | 'game_after_closing'
  /** Roulette: a reopen asked of a table that is open (issue 35). */
  | 'reopen_not_closed'
  /** A device frame refused by authentication (protocol 1.4: no MAC, a wrong MAC, a replay). */
  | 'device_unauthenticated'
  /** A device keeps sending and nothing new is taken for the driver's `stalledAfterMs` (10 s); once per stall. */
  | 'link_stalled'
  /** A stalled device's events flow again (after a `link_stalled`). */
  | 'link_resumed'
  /** A configured device's line not open for the driver's `unreachableAfterMs` (30 s): once per outage, naming the path and the OS error. */
  | 'device_unreachable'
  /** The line of a device that raised `device_unreachable` opened again. */
  | 'device_reachable'
  /** An attack on a device's line goes on: its signals (refused frames, failed or unproven handshakes) counted each minute (issue 33 N4). */
  | 'line_attack_counted'
  /** An attack on a device's line ended: quiet for a minute, the device not quarantined. */
  | 'line_attack_ended';

/** Roulette events: the game in play, its spin, voids and closing time. Topic `events/spin`. */
export type RouletteEvent =
  | { type: 'game_start'; game: number }
  | { type: 'no_more_bets'; game: number }
  | {
      type: 'spin';
      game: number;
      number: number;
      colour: 'red' | 'black' | 'green';
      rotor?: 'cw' | 'ccw';
      ball?: 'cw' | 'ccw';
      revolutions?: number;
      rpm?: number;
    }
  | { type: 'game_voided'; game: number; reason: string; rule: string }
  | { type: 'closing'; games: number; rule: string }
  | { type: 'games_left'; left: number; rule: string }
  | { type: 'table_closed'; games: number; rule: string }
  /** A closed table opens again: the game that opens, why, and the ruleset's article. */
  | { type: 'table_reopened'; game: number; reason: string; rule: string };

export type DomainEvent =
  | { type: 'shoe_start'; decks: number; backs: string[]; cards: number }
  | { type: 'round_start'; round: number; boxes?: number[] }
  | {
      type: 'card';
      card: string;
      to: CardDestination;
      back?: string;
      face?: 'up' | 'down';
      /** 0-based position of the card in the shoe. */
      index?: number;
      hand?: number;
    }
  | {
      type: 'result';
      round: number;
      outcome: Record<string, unknown>;
      /** Boxes voided during the round (a box-only misdeal): their bets in `outcome` do not stand. */
      voided?: number[];
    }
  | { type: 'last_hand'; reason: string; rule?: string }
  | { type: 'shoe_end'; reason: string; rule?: string }
  | { type: 'hand_voided'; reason: string; boxes: number[] | 'all'; rule?: string }
  | { type: 'reshuffle_required'; reason: string; rule?: string }
  | { type: 'alarm'; kind: AlarmKind; message: string; [detail: string]: unknown }
  | RouletteEvent;

export type DomainEventType = DomainEvent['type'];

/** Which MQTT event topic (`events/<kind>`) an event belongs to. */
export function eventTopicKind(event: DomainEvent): 'card' | 'hand' | 'shoe' | 'alarm' | 'spin' {
  switch (event.type) {
    case 'card':
      return 'card';
    case 'round_start':
    case 'result':
    case 'hand_voided':
      return 'hand';
    case 'shoe_start':
    case 'last_hand':
    case 'shoe_end':
    case 'reshuffle_required':
      return 'shoe';
    case 'alarm':
      return 'alarm';
    case 'game_start':
    case 'no_more_bets':
    case 'spin':
    case 'game_voided':
    case 'closing':
    case 'games_left':
    case 'table_closed':
    case 'table_reopened':
      return 'spin';
  }
}
