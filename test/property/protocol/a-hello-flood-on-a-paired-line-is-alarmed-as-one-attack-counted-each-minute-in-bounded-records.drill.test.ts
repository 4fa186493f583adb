/**
 * Issue 33 N4: forged HELLOs with racing `PROOF,none`, or the shoe's own
 * HELLO replayed, keep coming on a paired shoe's line. Each used to raise its
 * own `device_quarantined` (and `device_requalified`) alarm: 196 a minute at
 * one every 300 ms, about 1,270 at one every 20 ms, each a journal record;
 * replayed HELLOs raised none at all. Now an attack is one alarm when it
 * starts (`attack: 'started'`), a `line_attack_counted` every minute while it
 * lasts and one `line_attack_ended` once the line has been quiet a minute
 * with the shoe proven again: the alarms (the journal's records) per hour
 * are bounded whatever the rate. Virtual time, the pure parts as the driver
 * composes them (auth-pair.ts); the figures are printed for the report.
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { AuthPair, SHOE_HELLO } from './auth-pair.ts';

const MINUTE = 60_000;
/** A card every 2 s while the flood runs. */
const DEAL_EVERY_MS = 2_000;
/** An attack's alarms besides its counts: its start, the first of each other kind, its end. */
const ONCE_PER_ATTACK_AT_MOST = 6;
/** At most this many alarms (journal records) an hour per attack: a count a minute and those. */
const ALARMS_PER_HOUR_AT_MOST = 60 + ONCE_PER_ATTACK_AT_MOST;

/** The shoe's own HELLO re-framed with the seq of its next frame (N1's injection). */
function replayedHello(pair: AuthPair): string {
  return encodeFrame(messageFrame('SH', pair.shoeNextSeq, SHOE_HELLO));
}

const PROOF_NONE = encodeFrame({ talker: 'SH', seq: 0, type: 'PROOF', fields: ['none'] });

/** What is injected, how often, and for how long (virtual; several minute counts, at a bounded cost). */
const FLOODS: Array<[string, number, boolean, number]> = [
  ['a forged HELLO with a racing PROOF,none every 300 ms', 300, true, 2 * MINUTE],
  ['a forged HELLO with a racing PROOF,none every 50 ms', 50, true, 75_000],
  ['a forged HELLO with a racing PROOF,none every 20 ms', 20, true, 75_000],
  ['a replayed HELLO every 219 ms (137 in 30 s)', 219, false, 2 * MINUTE],
];

async function dealingPair(): Promise<AuthPair> {
  const pair = await AuthPair.create();
  pair.open();
  for (let dealt = 0; dealt < 3; dealt++) {
    pair.deal();
    pair.runUntil(pair.now + 50);
  }
  pair.runUntil(pair.now + 1_000);
  expect(pair.hostAuth.state).toBe('authenticated');
  expect(pair.raised).toEqual([]);
  return pair;
}

describe('a HELLO flood on a paired shoe’s line', () => {
  it.each(FLOODS)(
    '(%s) is one attack: started, counted each minute, ended',
    async (label, everyMs, withProof, floodMs) => {
      const pair = await dealingPair();
      const start = pair.now;
      let injections = 0;
      let nextDeal = start + DEAL_EVERY_MS;
      for (let at = start; at < start + floodMs; at += everyMs) {
        pair.runUntil(at);
        if (at >= nextDeal) {
          pair.deal();
          nextDeal += DEAL_EVERY_MS;
        }
        pair.rogueWrites(replayedHello(pair));
        if (withProof) pair.rogueWrites(PROOF_NONE);
        injections++;
      }
      const floodEnd = start + floodMs;
      pair.runUntil(floodEnd);
      const duringFlood = pair.raised.length;
      // Quiet again: the shoe proves itself (a fresh CHALLENGE at most 30 s later), then a quiet minute.
      pair.runUntil(floodEnd + 3 * MINUTE);

      const started = pair.raised.filter((alarm) => alarm.detail.attack === 'started');
      expect(started).toHaveLength(1);
      expect(started[0]!.at - start).toBeLessThan(1_000);
      const ended = pair.raised.filter((alarm) => alarm.kind === 'line_attack_ended');
      expect(ended).toHaveLength(1);
      expect(ended[0]!.at).toBeGreaterThan(floodEnd);
      expect(pair.raised.at(-1)!.kind).toBe('line_attack_ended');
      const lasted = ended[0]!.at - started[0]!.at;
      // One count a minute from the start, for as long as the attack lasted.
      const counted = pair.raised.filter((alarm) => alarm.kind === 'line_attack_counted');
      expect(counted).toHaveLength(Math.floor(lasted / MINUTE));
      for (const [index, count] of counted.entries()) {
        expect(count.at - started[0]!.at).toBeGreaterThanOrEqual((index + 1) * MINUTE);
        expect(count.at - started[0]!.at).toBeLessThan((index + 1) * MINUTE + 2_000);
      }
      // Besides the counts: its start, the first of each other kind (quarantined, proven again), its end.
      const others = pair.raised.length - counted.length;
      expect(others).toBeLessThanOrEqual(ONCE_PER_ATTACK_AT_MOST);
      // Every injection is counted (from 1.7 a replayed HELLO's first is refused too).
      expect(ended[0]!.detail.total).toBeGreaterThanOrEqual(injections);
      const perHour = others + 60;
      console.log(
        `${label}: ${injections} injections in ${(floodMs / MINUTE).toFixed(2)} min: ${duringFlood} alarms during the flood, ` +
          `${pair.raised.length} in all over the attack's ${(lasted / MINUTE).toFixed(1)} min ` +
          `(${counted.length} counts, ${others} others: ${[...new Set(pair.raised.map((alarm) => alarm.kind))].join(', ')}); ` +
          `an hour of it: ${perHour} alarms`,
      );
      expect(perHour).toBeLessThanOrEqual(ALARMS_PER_HOUR_AT_MOST);
      // The shoe deals again once the flood stops, with nothing lost.
      expect(pair.hostAuth.state).toBe('authenticated');
    },
    240_000,
  );

  it('a shoe that resets and sends its HELLO again raises nothing', async () => {
    const pair = await dealingPair();
    pair.restartShoe();
    pair.shoeOpens();
    pair.deal();
    pair.runUntil(pair.now + 3 * MINUTE);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(pair.stored).toEqual(pair.expected);
    expect(pair.raised).toEqual([]);
  });

  it('a lone replayed HELLO no PROOF covers is refused: one attack, started and ended', async () => {
    // From 1.7 (PROTOCOL.md § 5.2) a HELLO that no PROOF covers is refused as `unproven_hello`,
    // an alarm: even one replayed HELLO is a rogue's, not a shoe that reset (it proves its own).
    const pair = await dealingPair();
    pair.rogueWrites(replayedHello(pair));
    pair.runUntil(pair.now + 3 * MINUTE);
    expect(pair.hostAuth.state).toBe('authenticated');
    expect(
      pair.raised.map((alarm) => [alarm.kind, alarm.detail.attack ?? alarm.detail.total]),
    ).toEqual([
      ['device_unauthenticated', 'started'],
      ['line_attack_ended', 1],
    ]);
    expect(pair.raised[0]!.detail.reason).toBe('unproven_hello');
  });
});
