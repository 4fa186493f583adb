/**
 * A rogue on a paired shoe's line: frames with valid CRCs but no key. A
 * device without the key (in place of the shoe, or with another key) is
 * quarantined; frames injected beside the real shoe (a tap on its cable)
 * are refused with an alarm and never dealt, while the real shoe goes on.
 * On the virtual clock (test/helpers/virtual-table.ts): "deals nothing" is
 * checked over a second of table time (a quarantined line is busy: a
 * second of it costs about as much real time), not a guessed real pause.
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { installVirtualClock } from '../../helpers/virtual-table.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT } from './auth-helpers.ts';
import { benchPerTest } from './helpers.ts';

const RULESET = 'tdc-baccarat-no-commission';

describe('a rogue device with valid CRCs but no key on a paired line', () => {
  const openBench = benchPerTest();

  it('a device with no key in place of the paired shoe is quarantined and deals nothing', async () => {
    const paired = await ed25519Key();
    const clock = installVirtualClock();
    const current = openBench(
      { kind: 'shoe', ruleset: RULESET, seed: 7, scenario: SHOE_SCRIPT },
      { pairedKey: paired.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    // Under 1.7 its HELLO is never ACKed (no PROOF covers it): the device is never ready,
    // and the cards it tries to deal wait on it.
    void current.sim.stepMany(3);
    await clock.runUntil(() => current.driver.isQuarantined, 5_000, 'quarantine');
    // Longer than the driver's 10 s stall: a line quarantined for good is one alarm, no link_stalled.
    await clock.advance(15_000);
    expect(current.observations).toHaveLength(0);
    expect(current.driver.status().quarantined).toMatch(
      /authentication failed \(no key: paired device answered PROOF,none/,
    );
    expect(current.driver.status().auth.state).toBe('failed');
    expect(alarms.map((alarm) => alarm.kind)).toEqual(['device_quarantined']);
  });

  it('a device with another key is quarantined, naming both fingerprints', async () => {
    const paired = await ed25519Key();
    const other = await ed25519Key();
    const clock = installVirtualClock();
    const current = openBench(
      { kind: 'shoe', ruleset: RULESET, seed: 7, scenario: SHOE_SCRIPT, key: other },
      { pairedKey: paired.publicKey },
    );
    void current.sim.stepMany(2);
    await clock.runUntil(() => current.driver.isQuarantined, 5_000, 'quarantine');
    await clock.advance(1_000);
    expect(current.observations).toHaveLength(0);
    expect(current.driver.status().quarantined).toMatch(
      /key mismatch: device key [0-9A-F-]{19} is not the paired key [0-9A-F-]{19}/,
    );
  });

  it('frames injected beside the authenticated shoe are refused with an alarm; the shoe deals on', async () => {
    const key = await ed25519Key();
    const clock = installVirtualClock();
    const current = openBench(
      { kind: 'shoe', ruleset: RULESET, seed: 8, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    await clock.drive(current.sim.whenReady(), 5_000, 'device ready');
    await clock.drive(current.sim.stepMany(2), 5_000, 'cards dealt');
    await clock.runUntil(() => current.observations.length === 2, 5_000, 'two cards');
    // A tap on the cable: perfectly framed cards, right CRC, next seqs, no MAC.
    for (const [seq, card] of [
      [40, 'AS'],
      [41, 'KH'],
    ] as const) {
      const line = encodeFrame({
        talker: 'SH',
        seq,
        type: 'CARD',
        fields: [card, 'red', 'down'],
      });
      current.wire.deliver('device', Buffer.from(line, 'latin1'));
    }
    await clock.runUntil(
      () => (current.driver.status().auth.refused.missing_mac ?? 0) === 2,
      5_000,
      'refusals',
    );
    await clock.drive(current.sim.stepMany(Number.POSITIVE_INFINITY), 60_000, 'the rest');
    await clock.drive(current.sim.whenDone(), 60_000, 'every card acknowledged');
    const cards = current.observations.map((o) => (o.record.t === 'card' ? o.record.card : ''));
    expect(cards).toHaveLength(6);
    expect(
      current.sim.steps
        .filter((s) => s.kind === 'card')
        .map((s) => (s.kind === 'card' ? s.card : '')),
    ).toEqual(cards);
    expect(alarms).toHaveLength(1); // two refusals within a second: one alarm, both counted
    expect(alarms[0]).toMatchObject({
      kind: 'device_unauthenticated',
      device: 'shoe',
      reason: 'missing_mac',
      frameType: 'CARD',
      frameSeq: 40,
    });
    expect(alarms[0]!.message).toMatch(/frame refused \(missing mac\).*not dealt/);
    expect(current.driver.isQuarantined).toBe(false);
  });

  it('a flood of unauthenticated frames quarantines the paired line', async () => {
    const key = await ed25519Key();
    const clock = installVirtualClock();
    const current = openBench(
      { kind: 'shoe', ruleset: RULESET, seed: 9, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    await clock.drive(current.sim.whenReady(), 5_000, 'device ready');
    await clock.drive(current.sim.stepMany(1), 5_000, 'cards dealt');
    await clock.runUntil(() => current.observations.length === 1, 5_000, 'one card');
    for (let seq = 100; seq < 120; seq++) {
      const line = encodeFrame({ talker: 'SH', seq, type: 'CUT', fields: [] });
      current.wire.deliver('device', Buffer.from(line, 'latin1'));
    }
    await clock.runUntil(() => current.driver.isQuarantined, 5_000, 'quarantine');
    expect(current.driver.status().quarantined).toMatch(
      /not authenticating: 16 frames in a row failed/,
    );
    expect(current.observations).toHaveLength(1);
  });
});
