/**
 * Every MUST and SHOULD that PROTOCOL.md puts on a device, with the
 * conformance checks that test it, and what goes wrong at the host when a
 * device breaks it. A check is required exactly when it tests a MUST
 * (test/unit/conformance/requirements.test.ts holds this table, the text and
 * checks.ts in step). A MUST no check can test says why; a MUST's `breaks`
 * names the card lost, doubled, reordered or stalled, and `shownBy` the test
 * that shows it at the host, where one does. Data only.
 */
import type { CheckId } from './checks.ts';

export type Level = 'MUST' | 'SHOULD';

export interface Requirement {
  /** The PROTOCOL.md section that states it, without `§` (`3.4`). */
  readonly section: string;
  /** Its words there, keyword included, as they stand (line breaks read as spaces). */
  readonly says: string;
  readonly level: Level;
  /** The checks that test it (none: `untested` says why). */
  readonly checks: readonly CheckId[];
  /** Why no check of a run can test it. */
  readonly untested?: string;
  /** What goes wrong at the host when a device breaks it. */
  readonly breaks: string;
  /** A test that shows it at the host. */
  readonly shownBy?: string;
}

const CONSEQUENCES =
  'test/unit/conformance/what-the-host-does-with-a-device-that-breaks-a-must.test.ts';
const LEDGER =
  'test/unit/drivers/the-receive-ledger-drops-retransmissions-after-a-reconnect-but-not-after-a-restart.test.ts';
const WINDOW =
  'test/unit/protocol/a-1-2-device-window-delivers-events-in-order-whatever-the-line-does.test.ts';
const MAN_IN_THE_MIDDLE =
  'test/unit/protocol/a-hello-no-proof-covers-changes-nothing-on-a-paired-line-and-a-man-in-the-middle-cannot-ack-a-card.test.ts';
const HOST_LOST =
  'test/integration/firmware/the-shoe-firmware-blinks-its-status-led-while-no-host-proves-the-pairing-and-keeps-its-cards-for-its-table.test.ts';
const BACKLOG =
  'test/unit/protocol/a-device-hello-numbered-after-its-backlog-does-not-stall-the-host-order-past-a-gap.test.ts';

/** The checks that follow § 5 (authentication): its levels are that section's to state. */
export const AUTHENTICATION_CHECKS: readonly CheckId[] = ['auth'];

export const REQUIREMENTS: readonly Requirement[] = [
  {
    section: '2',
    says: 'Every frame a device sends MUST follow this grammar and carry its CRC',
    level: 'MUST',
    checks: ['frames'],
    breaks:
      'lost: the host discards the line (bad_crc, malformed) and every copy of it, so the card never arrives and the device holds it for ever (stalled)',
    shownBy: CONSEQUENCES,
  },
  {
    section: '2',
    says: 'A device SHOULD NOT write bytes outside frames',
    level: 'SHOULD',
    checks: ['stray-bytes'],
    breaks: 'nothing: the host discards them (no_start) and counts them',
  },
  {
    section: '2',
    says: 'A frame MUST be at most **250 bytes including its CR LF**',
    level: 'MUST',
    checks: ['frames'],
    breaks:
      'lost: the host discards a longer line (too_long) and every copy of it, so what it said never arrives',
  },
  {
    section: '2.2',
    says: 'A device MUST discard a line past 250 bytes as the table says, and go on reading, and MUST NOT act on a line it discards',
    level: 'MUST',
    checks: ['nak-too-long', 'nak-bad-crc'],
    breaks:
      'stalled: a device that buffers a long line whole runs out of memory or stops reading, and its cards stop; one that acts on a damaged line obeys a command the host never sent (GATE unlock for lock)',
  },
  {
    section: '3.1',
    says: 'sends MUST take the next number',
    level: 'MUST',
    checks: [],
    untested:
      'the suite judges that no seq names two frames (seq), not that none is skipped: a 1.2 device numbers its reliable frames only (§ 3.1), and a PONG queued behind a window runs ahead of it (§ 3.8), so a gap proves nothing in a trace',
    breaks:
      'stalled: a 1.2 host holds every later event behind a seq that never comes until the device answers its NAK missing with a PING (§ 3.8) or the window overflows (order_gap)',
    shownBy: BACKLOG,
  },
  {
    section: '3.1',
    says: 'The receiver MUST answer every valid reliable frame with',
    level: 'MUST',
    checks: ['host-hello', 'ping', 'unknown-type', 'commands'],
    breaks:
      'stalled: the host sends its frame 5 times, gives it up and raises an alarm; a GATE lock or a SHUFFLE is never carried out',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.1',
    says: 'An `ACK` for a seq the sender is not waiting for (late or repeated) MUST be ignored',
    level: 'MUST',
    checks: ['stale-ack'],
    breaks:
      'lost: a device that takes a late ACK of an earlier frame for the ACK of the card in flight forgets a card the host never received',
  },
  {
    section: '3.3',
    says: 'A device MUST answer a line it discards as `bad_crc` or `too_long` with that NAK',
    level: 'MUST',
    checks: ['nak-bad-crc', 'nak-too-long'],
    breaks:
      'stalled: the host hears nothing of its damaged frame and sends it again only after its ACK timeout, 500 ms growing 1.5 times a try; a GATE lock damaged twice on a noisy line leaves the card exit unlocked over a second longer. Still a MUST: the host has no other way to learn that a command did not arrive before its timer, and the exit lock is a security control',
  },
  {
    section: '3.3',
    says: 'SHOULD answer one it discards as `malformed`',
    level: 'SHOULD',
    checks: ['nak-malformed'],
    breaks:
      'time: the host sends its frame again on its timer; a malformed line mostly lost bytes, its seq with them, and its NAK could not name it',
  },
  {
    section: '3.3',
    says: 'On a NAK naming one of its unacknowledged frames a sender MUST send that frame again at once',
    level: 'MUST',
    checks: ['nak-resend'],
    breaks:
      'stalled: a 1.2 host holds every event past the damaged one until the device resends it; without the NAK answered that is one ACK timeout per damaged card, the whole window waiting behind it. Still a MUST: the host NAKs a card it holds others behind, and a device that waits for its timer there multiplies the stall by the window',
    shownBy: WINDOW,
  },
  {
    section: '3.3',
    says: 'it SHOULD send each frame once for all of them, not once per NAK',
    level: 'SHOULD',
    checks: [],
    untested: 'the suite sends one NAK at a time',
    breaks: 'copies: the host drops the extra ones as duplicates',
  },
  {
    section: '3.4',
    says: 'A sender that has no ACK for a reliable frame after its ACK timeout MUST send the **same line again**',
    level: 'MUST',
    checks: ['hello-retransmit', 'retransmit'],
    breaks:
      'lost: a card whose line was damaged, or whose ACK was, never reaches the journal; a new seq for the copy would be a second card (doubled)',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.4',
    says: 'A **device MUST NOT give up** on a frame',
    level: 'MUST',
    checks: ['retransmit', 'reconnect'],
    breaks:
      'lost: a card given up while the cable was out, or while the host restarted, is never journaled',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.4',
    says: 'It SHOULD show its fault light after 5 transmissions without an ACK',
    level: 'SHOULD',
    checks: [],
    untested: 'a light is not on the line',
    breaks: 'nothing at the host: the dealer is not told that the shoe waits',
  },
  {
    section: '3.4',
    says: "Its ACK timeout SHOULD be at least the host's 500 ms",
    level: 'SHOULD',
    checks: ['ack-timeout'],
    breaks: 'copies: the host drops them while its journal writes the card (§ 3.2: deferred ACK)',
  },
  {
    section: '3.4',
    says: 'it MUST NOT send one line more than 10 times in a second',
    level: 'MUST',
    checks: ['no-flood'],
    breaks:
      'stalled: on a noisy line each corrupted copy draws a NAK and each NAK another copy, a storm that fills the line while the cards behind wait',
  },
  {
    section: '3.4',
    says: 'then SHOULD send at once every frame still unacknowledged',
    level: 'SHOULD',
    checks: ['reconnect'],
    breaks: "time: the card comes on the device's timer instead",
  },
  {
    section: '3.4',
    says: 'SHOULD send again at once every frame still unacknowledged, within its window',
    level: 'SHOULD',
    checks: [],
    untested:
      "a copy on the device's timer passes the reconnect check too; ack-timeout no longer counts a copy the host's HELLO asked for",
    breaks: "time: what went into a closed port comes on the device's timer instead",
  },
  {
    section: '3.5',
    says: 'A device MUST have at most one unacknowledged event at a time',
    level: 'MUST',
    checks: ['window'],
    breaks:
      'reordered: a host below 1.2 takes events as they come, so a card sent again after a loss arrives after the card dealt after it',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.6',
    says: 'it MUST be ACKed again, and a device MUST NOT act on it again',
    level: 'MUST',
    checks: ['duplicate'],
    breaks:
      'doubled or stalled: a command whose ACK was lost is carried out twice (a second SHUFFLE, a second PONG), or, not ACKed again, sent until the host gives it up with an alarm',
  },
  {
    section: '3.7',
    says: 'kept running) **MUST keep counting**',
    level: 'MUST',
    checks: ['reconnect'],
    breaks:
      'lost: a HELLO at 0 tells the host the device restarted, so it drops the ACKs it owes and takes what follows as new; the device then resends cards with seqs the host no longer recognises as stored (doubled) or reuses a seq for a new card (lost)',
    shownBy: LEDGER,
  },
  {
    section: '3.7',
    says: 'it MUST start again at 0 with its `HELLO` and count on from there',
    level: 'MUST',
    checks: [],
    untested:
      'the suite cannot restart a device; the seq, hold-events and window judges take a HELLO at 0 as a restart',
    breaks:
      'lost: a restarted device that counts on from elsewhere is read as one that reconnected, and its new card whose seq and content match one stored within 2048 seqs is taken for a copy',
    shownBy: LEDGER,
  },
  {
    section: '3.7',
    says: 'A device MUST NOT give a frame it still sends again a new seq, and MUST NOT reuse a seq across a reconnect',
    level: 'MUST',
    checks: ['seq', 'retransmit', 'nak-hello', 'reconnect'],
    breaks:
      'doubled: a copy under a new seq is a second card; lost: a new card under a used seq is ACKed as a copy and never delivered',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.8',
    says: 'It MUST number only its reliable frames',
    level: 'MUST',
    checks: [],
    untested:
      'an ACK takes no seq with 1.2, so a gap behind one cannot be told from a PONG queued ahead (§ 3.8) in a trace',
    breaks:
      'stalled: each ACK that took a seq is a hole the host holds the next events behind, until its NAK missing is answered with a PING',
    shownBy: BACKLOG,
  },
  {
    section: '3.8',
    says: 'the device MUST keep to stop and wait',
    level: 'MUST',
    checks: ['window'],
    breaks:
      'reordered: a host older than 1.2 delivers a window as it comes, so a card resent after a loss lands after the cards behind it',
    shownBy: CONSEQUENCES,
  },
  {
    section: '3.8',
    says: 'MUST have one event in flight',
    level: 'MUST',
    checks: ['window'],
    breaks:
      "reordered: a host that restarted learns where the device's events resume from the first one it is sent; a window sent before that, its first copy lost, starts the host's order past a card that then arrives behind it",
    shownBy: WINDOW,
  },
  {
    section: '3.8',
    says: 'SHOULD send only its oldest unacknowledged',
    level: 'SHOULD',
    checks: [],
    untested: 'the suite withholds one event at a time, so no window is open when it times copies',
    breaks:
      'copies: the host holds what came after the gap and drops the copies; on a noisy line, NAKs for the corrupted ones',
  },
  {
    section: '3.8',
    says: 'MUST send a `PING` with that seq',
    level: 'MUST',
    checks: [],
    untested: 'the suite never NAKs missing: its host holds no order',
    breaks:
      'stalled: the host holds every event behind the forgotten seq until 64 more have come (order_gap)',
    shownBy: BACKLOG,
  },
  {
    section: '3.10',
    says: 'the other MUST ACK it and answer `PONG` with the same token',
    level: 'MUST',
    checks: ['ping'],
    breaks:
      'stalled: a device that deals nothing for a while is reported offline after 3.5 s of silence, and the table stops it',
  },
  {
    section: '4.1',
    says: 'a device MUST send `HELLO` first',
    level: 'MUST',
    checks: ['hello'],
    breaks:
      'stalled: the host NAKs every event hello and delivers none until a HELLO comes (§ 4.2)',
    shownBy: CONSEQUENCES,
  },
  {
    section: '4.1',
    says: 'It MUST NOT send a new event before the host has ACKed that `HELLO`',
    level: 'MUST',
    checks: ['hold-events'],
    breaks:
      "doubled: if the HELLO was lost the host takes the card in the old session; the HELLO sent again empties its duplicate window, and the copy of the card, whose seq follows the HELLO's, is a second card",
    shownBy: CONSEQUENCES,
  },
  {
    section: '4.1',
    says: "SHOULD NOT send a second copy while the first one's ACK timeout runs",
    level: 'SHOULD',
    checks: ['ack-timeout'],
    breaks: 'time: each HELLO starts a session, and the events wait for the new one',
  },
  {
    section: '4.2',
    says: '`NAK` with reason `hello` MUST send a new `HELLO`',
    level: 'MUST',
    checks: ['nak-hello'],
    breaks:
      "stalled: a host that restarted, or reopened its line, delivers none of the device's events until it has a HELLO",
    shownBy: CONSEQUENCES,
  },
  {
    section: '4.3',
    says: '**MUST NOT wait for it**',
    level: 'MUST',
    checks: [],
    untested:
      "the suite sends its HELLO as soon as it has ACKed the device's, so a device that waits for it cannot be told apart",
    breaks:
      "stalled: the host's HELLO may go into a port the device has not opened yet, and comes again only on the host's timer, at most 5 times",
  },
  {
    section: '5.2',
    says: 'A new `CHALLENGE` ends the session in use: the device MUST NOT seal with, or accept frames under, the old keys again',
    level: 'MUST',
    checks: ['old-session'],
    breaks:
      'doubled: a frame of the session that ended, captured and written again after a new CHALLENGE, is obeyed twice (a GATE unlock); and a man in the middle that keeps the old keys ACKs a card the table never had',
  },
  {
    section: '5.2',
    says: 'A device paired with a host MUST take its session keys into use only once a `CONFIRM` signed by the host key it recorded at pairing verifies',
    level: 'MUST',
    checks: ['confirm-other-key', 'confirm-bad-signature', 'confirm-none', 'replayed-handshake'],
    breaks:
      'lost: a man in the middle that runs its own CHALLENGE learns the session keys and ACKs a card the table never had; the device forgets it (issue 33 N3)',
    shownBy: MAN_IN_THE_MIDDLE,
  },
  {
    section: '5.2',
    says: 'until then it MUST NOT take any frame of the host but `HELLO`, `CHALLENGE`, `CONFIRM` and a bare `NAK,<seq>,hello`',
    level: 'MUST',
    checks: ['hello-proof', 'confirm-none'],
    breaks:
      'lost: an unsealed ACK a man in the middle writes before any CONFIRM releases a card the table never had',
    shownBy: MAN_IN_THE_MIDDLE,
  },
  {
    section: '5.2',
    says: 'it MUST keep every unACKed event',
    level: 'MUST',
    checks: ['host-lost', 'keeps-cards'],
    breaks:
      'lost: the cards in flight when no host confirmed (a man in the middle on the line) never reach the table; stalled: a device that keeps them but never says HELLO again holds them until the table asks for one',
    shownBy: HOST_LOST,
  },
  {
    section: '7',
    says: "A device MUST report each event of its talker's table below when it happens",
    level: 'MUST',
    checks: ['event', 'messages'],
    breaks: 'lost: a card that left the shoe unreported is one the table never checks',
  },
  {
    section: '7',
    says: 'MUST send each type with exactly the fields its table lists, each valid, from a talker the table allows',
    level: 'MUST',
    checks: ['codecs', 'hello'],
    breaks:
      'lost: the host ACKs such a frame and reports it invalid, so the device forgets a card the host could not read',
    shownBy: CONSEQUENCES,
  },
  {
    section: '7.2',
    says: 'SHOULD answer an `INDICATE` for a light it does not have with `ERROR,no_such_light`',
    level: 'SHOULD',
    checks: [],
    untested: 'the suite asks only for the standard green light',
    breaks: 'nothing lost: the dealer sees no light where the host asked for one',
  },
  {
    section: '7.2',
    says: 'it MUST report such a card',
    level: 'MUST',
    checks: [],
    untested: 'the suite cannot put an unreadable card in a shoe',
    breaks:
      'lost: the card reaches the table and no one checks it, where the host would have raised an alarm',
  },
  {
    section: '7.3',
    says: 'which MUST cover positions 0 to count-1 exactly once',
    level: 'MUST',
    checks: ['messages'],
    breaks: 'stalled: the host cannot put the order together and checks no dealt card against it',
  },
  {
    section: '7.5',
    says: 'A spin MUST be sent as `ROTOR`, `BALL`, `RESULT` in that order',
    level: 'MUST',
    checks: [],
    untested:
      'the messages check waits for the RESULT, and a wheel on its own may spin without a BALL the host saw',
    breaks:
      'reordered: a RESULT before its BALL is a result with no spin, which the host raises as an alarm',
  },
];
