import { describe, expect, it } from 'vitest';
import { AttackWatch } from '../../../firmware-host/drivers/attack-watch.ts';

const MINUTE = 60_000;
const badMac = { reason: 'bad_mac', alarmKey: 'device_unauthenticated:bad_mac' };
const noKey = { reason: 'no_key', alarmKey: 'device_quarantined' };

describe('AttackWatch', () => {
  it('starts an attack at its first signal, raises each other kind once and counts repeats', () => {
    const watch = new AttackWatch();
    expect(watch.signal(badMac, 0)).toBe('started');
    expect(watch.signal(badMac, 10)).toBe('counted');
    expect(watch.signal(noKey, 20)).toBe('first');
    expect(watch.signal(noKey, 30)).toBe('counted');
    expect(watch.recovery('device_requalified')).toBe(true);
    expect(watch.recovery('device_requalified')).toBe(false);
    expect(watch.underAttack).toBe(true);
  });

  it('counts once a minute from the start while signals come, with that minute’s signals', () => {
    const watch = new AttackWatch();
    watch.signal(badMac, 0);
    expect(watch.tick(MINUTE - 1, false)).toEqual([]);
    watch.signal(badMac, 30_000);
    expect(watch.tick(MINUTE, false)).toEqual([
      { kind: 'line_attack_counted', lastMinute: { bad_mac: 2 }, total: 2, sinceMs: MINUTE },
    ]);
    watch.signal(noKey, MINUTE + 5);
    // A beat that came late (a loaded machine) gives one count, not a pile of them.
    expect(watch.tick(2 * MINUTE + 500, true)).toEqual([
      {
        kind: 'line_attack_counted',
        lastMinute: { no_key: 1 },
        total: 3,
        sinceMs: 2 * MINUTE + 500,
      },
    ]);
    expect(watch.tick(2 * MINUTE + 900, true)).toEqual([]);
  });

  it('ends a minute after the last signal, and not while the device is quarantined', () => {
    const watch = new AttackWatch();
    watch.signal(noKey, 0);
    watch.signal(badMac, 1_000);
    expect(watch.tick(61_000, true).map((alarm) => alarm.kind)).toEqual(['line_attack_counted']);
    expect(watch.tick(90_000, true)).toEqual([]);
    expect(watch.tick(90_001, false)).toEqual([
      {
        kind: 'line_attack_ended',
        counts: { no_key: 1, bad_mac: 1 },
        total: 2,
        lastedMs: 90_001,
      },
    ]);
    expect(watch.underAttack).toBe(false);
    // The next signal is a new attack.
    expect(watch.signal(badMac, 100_000)).toBe('started');
  });
});
