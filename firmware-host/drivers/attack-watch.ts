/**
 * Throttles the alarms of an attack on a device's line (issue 33 N4): a flood
 * of forged or replayed HELLOs, racing `PROOF,none`s or frames with bad MACs
 * used to raise an alarm (a journal record) for each, some 1,270 a minute,
 * or none at all for replayed HELLOs. Now an attack is:
 *
 * - one alarm when it starts: the first signal's own alarm, marked
 *   `attack: 'started'`;
 * - the first alarm of each other kind while it lasts (the device is
 *   quarantined, then proves its key again: the state a console shows), the
 *   repeats only counted;
 * - `line_attack_counted` every minute from its start while it lasts, with
 *   the signals counted in that minute and in all;
 * - `line_attack_ended` once no signal came for a minute and the device is
 *   not quarantined.
 *
 * So an attack costs at most 60 + 2 + the few kinds alarms an hour, whatever
 * its rate. Pure: the caller passes the time in and raises what it is told.
 */

export const ATTACK_COUNT_EVERY_MS = 60_000;
/** A line with no signal for this long, its device not quarantined, is no longer under attack. */
export const ATTACK_QUIET_MS = 60_000;

/** What the driver raises for a signal, and under which key a repeat within the attack is only counted. */
export interface AttackSignal {
  /** What happened, the key it is counted by: `bad_mac`, `no_key`, `hello_unproven` ... */
  readonly reason: string;
  /** The alarm it would raise alone; the first of each key in an attack is raised. */
  readonly alarmKey: string;
}

export type AttackAlarm =
  | {
      readonly kind: 'line_attack_counted';
      /** Signals by reason in the minute just ended. */
      readonly lastMinute: Readonly<Record<string, number>>;
      readonly total: number;
      readonly sinceMs: number;
    }
  | {
      readonly kind: 'line_attack_ended';
      /** Signals by reason over the whole attack. */
      readonly counts: Readonly<Record<string, number>>;
      readonly total: number;
      readonly lastedMs: number;
    };

interface Attack {
  readonly startedAt: number;
  lastSignalAt: number;
  nextCountAt: number;
  total: number;
  readonly counts: Record<string, number>;
  minute: Record<string, number>;
  readonly raised: Set<string>;
}

export class AttackWatch {
  readonly #countEveryMs: number;
  readonly #quietMs: number;
  #attack: Attack | undefined;

  constructor(countEveryMs = ATTACK_COUNT_EVERY_MS, quietMs = ATTACK_QUIET_MS) {
    this.#countEveryMs = countEveryMs;
    this.#quietMs = quietMs;
  }

  get underAttack(): boolean {
    return this.#attack !== undefined;
  }

  /**
   * A signal of an attack at `now`: `started` (raise its alarm, marked as the
   * start), `first` (the first of its key in this attack: raise it), or
   * `counted` (only counted, in the next minute's count).
   */
  signal(signal: AttackSignal, now: number): 'started' | 'first' | 'counted' {
    let attack = this.#attack;
    let verdict: 'started' | 'first' | 'counted';
    if (attack === undefined) {
      attack = {
        startedAt: now,
        lastSignalAt: now,
        nextCountAt: now + this.#countEveryMs,
        total: 0,
        counts: {},
        minute: {},
        raised: new Set(),
      };
      this.#attack = attack;
      verdict = 'started';
    } else {
      verdict = attack.raised.has(signal.alarmKey) ? 'counted' : 'first';
    }
    attack.raised.add(signal.alarmKey);
    attack.lastSignalAt = now;
    attack.total++;
    attack.counts[signal.reason] = (attack.counts[signal.reason] ?? 0) + 1;
    attack.minute[signal.reason] = (attack.minute[signal.reason] ?? 0) + 1;
    return verdict;
  }

  /**
   * A state alarm that is no signal of its own (the device proved its key
   * again): raised once per attack, counted after; always raised outside one.
   */
  recovery(alarmKey: string): boolean {
    const attack = this.#attack;
    if (attack === undefined) return true;
    if (attack.raised.has(alarmKey)) return false;
    attack.raised.add(alarmKey);
    return true;
  }

  /** The minute counts due by `now`, and the end if the line has been quiet and the device is not quarantined. */
  tick(now: number, quarantined: boolean): AttackAlarm[] {
    const attack = this.#attack;
    if (attack === undefined) return [];
    const alarms: AttackAlarm[] = [];
    if (now - attack.lastSignalAt >= this.#quietMs && !quarantined) {
      this.#attack = undefined;
      alarms.push({
        kind: 'line_attack_ended',
        counts: { ...attack.counts },
        total: attack.total,
        lastedMs: now - attack.startedAt,
      });
      return alarms;
    }
    if (now >= attack.nextCountAt) {
      alarms.push({
        kind: 'line_attack_counted',
        lastMinute: attack.minute,
        total: attack.total,
        sinceMs: now - attack.startedAt,
      });
      attack.minute = {};
      // Ticks that came late do not pile up counts: the next is a minute from this one's due time.
      while (attack.nextCountAt <= now) attack.nextCountAt += this.#countEveryMs;
    }
    return alarms;
  }
}
