/**
 * What each alarm kind means to the pit: the table of docs/integrator/mqtt-api.md.
 * A Record over the code's AlarmKind, so typecheck fails when the code gains
 * a kind this table lacks (or keeps one the code dropped). `rule` is the
 * citation the raise site gives (`seed-file § article`, the ruleset's field
 * whose `source` it puts in the alarm's `rule`, or `practice:` and why).
 */
import type { AlarmKind } from '../../firmware-host/table/events.ts';

export interface AlarmDoc {
  /** What happened, as the table saw it. */
  meaning: string;
  /** The rule or article it applies. */
  rule: string;
  /** What the pit should do. */
  pit: string;
}

export const ALARM_KINDS: Record<AlarmKind, AlarmDoc> = {
  foreign_card: {
    meaning:
      'A card the shoe in play cannot hold: not in its decks, or all its copies already out; or a tag not in the deck registry (a shoe or reader that reads tags). It goes to the discard.',
    rule: "practice: the seeds deal only from the shoe's shuffled and cut decks (000 § 7; 003 § 24(1)) but name no check of a card against them; a card from outside the shoe cannot belong to the game",
    pit: 'Stop the deal, take the card out of play and check the shoe and the decks for an added card; inspector to review the round.',
  },
  wrong_back_colour: {
    meaning:
      "A shuffle declared backs the ruleset does not use, or a card's back differs from the decks in play (it goes to the discard).",
    rule: "the ruleset's `backs` rule (its `source`; e.g. 000 § 2.c.1-c.3 for Peru's two colours)",
    pit: 'Remove the card; check the decks brought into play are the right colour.',
  },
  deck_not_alternated: {
    meaning:
      'The deck that served the last round serves this one too, where two decks of two colours alternate.',
    rule: '000 § 2.c.2',
    pit: 'Bring the other deck into play before the next round.',
  },
  sequence_mismatch: {
    meaning:
      'A card leaves the shoe out of the order the shuffler reported (only the first such card of a shoe; the expected card is never published).',
    rule: "practice: the seeds are silent on a shuffler's reported order; a shoe that differs from what the shuffler shuffled was tampered with or mis-loaded",
    pit: 'Stop the shoe; surveillance reviews the loading of the shoe; reshuffle.',
  },
  face_up_card: {
    meaning:
      "A card was found face up in the shoe; the ruleset's misdeal policy says whether it is used, discarded or all hands are void.",
    rule: "the ruleset's `misdeal.faceUpInShoe` rule (its `source`)",
    pit: 'Apply the misdeal the alarm names (void or burn); settle the round as the event says.',
  },
  wrong_card_count: {
    meaning:
      'A box or hand got too many or too few cards, or a card left the shoe when none was due.',
    rule: "the ruleset's `misdeal.wrongCardCount` rule (its `source`)",
    pit: 'Apply the misdeal the alarm names; correct the hand where the rule allows.',
  },
  dealer_card_exposed: {
    meaning: "The dealer's hole card was exposed before its time.",
    rule: "the ruleset's `misdeal.dealerCardExposedEarly` rule (its `source`)",
    pit: 'Apply the misdeal the alarm names (void or play on).',
  },
  card_after_shoe_end: {
    meaning:
      'A card left the shoe after the shoe ended (cut card reached, last hand dealt, reshuffle required). It goes to the discard.',
    rule: "the ruleset's `shoeEnd` rule (its `source`; e.g. 003 § 24(1), the cut card seven cards from the end)",
    pit: 'Stop dealing; shuffle and start a new shoe.',
  },
  shuffle_suspect: {
    meaning:
      'The order of the dealt cards shows a pattern a fair shuffle almost never gives: a rank run, a suit streak, or a repeat of an earlier shoe (test, length and shoe positions in the alarm).',
    rule: 'practice: the seeds require a shuffle and cut (000 § 7; 003 § 24(1)) but give no test of one; the tests and their false-alarm rates are in docs/operator/shuffle-anomalies.md',
    pit: 'Have surveillance review the shoe and the shuffler; reshuffle by hand or service the shuffler.',
  },
  missing_burn: {
    meaning: 'A round began before the shoe-start burn was complete.',
    rule: "the ruleset's `burn` rule (its `source`)",
    pit: 'Check the burn; inspector decides whether the round stands.',
  },
  unexpected_card: {
    meaning:
      'A card no round can take: before any recorded shuffle, before the first round, or one the game did not expect. It goes to the discard.',
    rule: 'practice: cards are dealt from a shoe shuffled and cut first (000 § 7; 003 § 24(1)); the seeds are silent on a card before the first round',
    pit: 'Take the card out of play; record a shuffle or start the round first.',
  },
  illegal_action: {
    meaning:
      'A decision or request the game does not allow now: an action with no round in progress or not offered to that box, a round that cannot start, a void with no round.',
    rule: "the game's rule for the action as the engine cites it (the ruleset's `source` for it); a void with no round: practice (nothing to void)",
    pit: "Check the dealer's button or the request; nothing changed at the table.",
  },
  request_refused: {
    meaning:
      'An MQTT request refused before it was read: unsigned, an unknown key, a bad signature, stale or replayed, too large, retained, or too many in hand.',
    rule: 'practice: SECURITY.md (requests prove who sent them); the seeds are silent',
    pit: 'Find who sent it (the alarm names the key if any); a replay or a bad signature is a security event.',
  },
  device_quarantined: {
    meaning:
      "A device's cards are refused: its model or firmware is not allowed, or it failed to prove its paired key.",
    rule: 'PROTOCOL.md § 4.5 (the firmware allow-list) and § 5.4 (what the host refuses)',
    pit: 'Do not deal from it; a technician checks the device, its firmware and its pairing.',
  },
  device_requalified: {
    meaning:
      'A device quarantined for failing authentication proved its paired key again: it is dealt again.',
    rule: 'PROTOCOL.md § 5.2 (the handshake)',
    pit: 'None; note it if quarantines repeat.',
  },
  device_unpaired: {
    meaning:
      'A device with no paired key said HELLO on a real line: refused, or dealt on a bench (`unpaired: allow`).',
    rule: 'PROTOCOL.md § 5.1 (keys and pairing)',
    pit: 'Pair the device (docs/operator/pairing-devices.md) before a live table deals from it.',
  },
  device_fault: {
    meaning:
      "A device reported a fault (`fault` in the alarm): a jammed card path (`jam`), an ERROR with the device's code, a card that left a tag-reading shoe with no tag read (`card_unidentified`), or a wheel result that cannot be true (`invalid_message`, refused).",
    rule: 'PROTOCOL.md § 7.1 (ERROR, every talker), § 7.2 (the shoe: JAM, NOTAG) and § 7.5 (the wheel)',
    pit: 'Clear the jam or have the device checked; a card with no tag still left the shoe: identify it by hand.',
  },
  round_after_shoe_end: {
    meaning: 'A new round was started after the shoe ended, or with no shoe in play.',
    rule: "the ruleset's `shoeEnd` rule (its `source`)",
    pit: 'Shuffle and start a new shoe first.',
  },
  missing_shuffle: {
    meaning:
      'A round dealt from a deck that already served a round, where every round needs a fresh shuffle.',
    rule: "the ruleset's `shoeEnd` rule (its `source`; 000 § 7; 001 § 4)",
    pit: 'Shuffle before the next round.',
  },
  wrong_shoe: {
    meaning: 'A shuffle declared a number of decks the ruleset does not allow.',
    rule: "the ruleset's `decks` rule (its `source`; e.g. 003 § 24(1))",
    pit: 'Load the right number of decks.',
  },
  rotor_same_direction: {
    meaning: 'Roulette: the rotor turned the same way as in the previous spin.',
    rule: '003 § 11(4)',
    pit: 'Remind the croupier to alternate the rotor; the number stands.',
  },
  ball_with_rotor: {
    meaning: 'Roulette: the ball was thrown the same way as the rotor turns.',
    rule: '003 § 11(1)',
    pit: 'Remind the croupier; the number stands, the alarm is for the inspector.',
  },
  few_revolutions: {
    meaning:
      "Roulette: fewer ball revolutions than the ruleset's minimum (`spin.minBallRevolutions`).",
    rule: 'practice: the seeds set no minimum; a short spin lets a croupier aim',
    pit: 'Inspector reviews the spin; the number stands.',
  },
  result_without_spin: {
    meaning: 'Roulette: a result with no rotor spin or no ball launch before it: the game is void.',
    rule: '003 § 11(1), 11(5)',
    pit: 'Announce the void; the next game starts.',
  },
  spin_without_close: {
    meaning: 'Roulette: a spin while the betting was still open.',
    rule: '003 § 11(2)',
    pit: 'Croupier closes the betting ("no more bets") before the spin.',
  },
  no_spin: {
    meaning:
      'Roulette: the wheel reported a no-spin (a chip in the wheel, the ball dropped): the game is void.',
    rule: '003 § 11(5)',
    pit: 'Announce the void; the next game starts.',
  },
  game_after_closing: {
    meaning: 'Roulette: a spin or no-spin after the last game of closing time.',
    rule: '003 § 13(2)',
    pit: 'The table is closed: no more games.',
  },
  reopen_not_closed: {
    meaning: 'Roulette: a reopen asked of a table that is open; nothing changes.',
    rule: '003 § 13(1)',
    pit: 'The table is open already: no request needed.',
  },
  device_unauthenticated: {
    meaning:
      "A device frame refused by authentication (no MAC, a wrong MAC, a replay), or a HELLO no PROOF followed (`hello_unproven`) or said twice within a minute on a proven connection (`hello_again`). The first of an attack on the line carries `attack: 'started'`; repeats within it are counted in `line_attack_counted`.",
    rule: 'PROTOCOL.md § 5.3 (the frame MAC) and § 5.4',
    pit: 'Check the cable and the device; repeated, treat it as tampering.',
  },
  link_stalled: {
    meaning:
      "A device keeps sending and nothing new is taken for the driver's `stalledAfterMs`; once per stall.",
    rule: 'practice: a line that talks without progress hides a fault (a device resending a refused frame)',
    pit: 'A technician checks the device and its line (`tableside diag`).',
  },
  link_resumed: {
    meaning: 'A stalled device is taken again.',
    rule: 'practice: the end of a `link_stalled`',
    pit: 'None.',
  },
  device_unreachable: {
    meaning:
      "A configured device's line has not been open for the driver's `unreachableAfterMs` (30 s by default, `devices.<name>.unreachableAfterMs`): the message names the path and the OS's reason (no such file, busy, refused). Once per outage; the daemon keeps trying it.",
    rule: 'practice: a device the table is configured with and cannot reach deals nothing; the pit must know before a card is missed',
    pit: 'A technician checks the cable, the device and its power (`tableside diag` names the line).',
  },
  device_reachable: {
    meaning: 'The line of a device that raised `device_unreachable` is open again.',
    rule: 'practice: the end of a `device_unreachable`',
    pit: 'None.',
  },
  line_attack_counted: {
    meaning:
      "An attack on a device's line goes on (refused frames, failed or unproven handshakes, replayed HELLOs): once a minute from its start, `lastMinute` counts that minute's signals by reason, `total` all of them, `quarantined` says whether the device's cards are refused.",
    rule: 'practice: an attack is alarmed when it starts, counted each minute and alarmed when it ends, so a flood costs the journal at most about 60 records an hour (issue 33)',
    pit: 'Someone is writing on the line: check the cable, the device and what is plugged between them; do not deal from a quarantined device.',
  },
  line_attack_ended: {
    meaning:
      "An attack on a device's line ended: no signal for a minute and the device not quarantined; `counts` by reason, `total`, `lastedMs`.",
    rule: 'practice: the end of an attack on the line (issue 33)',
    pit: 'Note it with the attack; check the line before the next shoe.',
  },
};
