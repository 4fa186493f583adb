/**
 * A driver's view of its device's authentication (protocol 1.4,
 * PROTOCOL.md § 5): the host endpoint's authentication reports turned into
 * the state `diag` and the status report show, alarms and the quarantine.
 *
 * Alarms: a refused frame (no MAC, a wrong MAC, a replay) raises
 * `device_unauthenticated`; a device that fails to authenticate is
 * quarantined with `device_quarantined`, and a good PROOF after that lifts
 * the quarantine with `device_requalified`. A HELLO that no PROOF followed
 * before the next (unproven), or a second HELLO within a minute on a proven
 * connection (replayed: a device that resets says one), is
 * `device_unauthenticated` too. Each of those is a signal of an attack on
 * the line, and `attack-watch.ts` throttles them (issue 33 N4): the attack's
 * first alarm says it started, each other kind is raised once per attack, a
 * count comes every minute and one alarm when it ends. An unpaired device
 * works unauthenticated or with an unpaired key, with a warning in the
 * status. Keys never appear in an alarm: only their fingerprints.
 */
import { type DevicePublicKey, keyFingerprint } from '../../device-protocol/auth/keys.ts';
import type { HostAuthReport } from '../../device-protocol/endpoint/host-endpoint.ts';
import type { AlarmKind } from '../table/events.ts';
import { type AttackSignal, AttackWatch } from './attack-watch.ts';

export interface DriverAuthStatus {
  /** `paired`: the config holds the device's key; `unpaired`: a bench. */
  pairing: 'paired' | 'unpaired';
  /** Fingerprint of the paired key. */
  pairedFingerprint?: string;
  /**
   * `authenticated`: this connection proved a key and its frames carry MACs;
   * `handshake`: waiting for the PROOF; `unauthenticated`: a device without
   * a key (or older than 1.4) on an unpaired line; `failed`: quarantined;
   * `none`: no HELLO yet.
   */
  state: 'none' | 'handshake' | 'authenticated' | 'unauthenticated' | 'failed';
  /** Fingerprint of the key the device proved on this connection. */
  deviceFingerprint?: string;
  /** Why it is unauthenticated or failed; a warning for an unpaired key. */
  detail?: string;
  handshakes: number;
  /** Frames refused by reason (missing_mac, bad_mac, replay). */
  refused: Record<string, number>;
  /** Frames dropped while a handshake was on. */
  dropped: number;
}

export interface AuthStatusOptions {
  name: string;
  paired?: DevicePublicKey;
  /** Wall clock, for the attack's throttle. */
  clock: () => number;
  alarm: (kind: AlarmKind, message: string, detail: Record<string, unknown>) => void;
  quarantine: (reason: string) => void;
  authenticated: () => void;
}

/** A second HELLO on a proven connection within this long is a replay, not a device that reset. */
const HELLO_AGAIN_WITHIN_MS = 60_000;

export class AuthStatusTracker {
  private readonly options: AuthStatusOptions;
  private state: DriverAuthStatus['state'] = 'none';
  private deviceFingerprint: string | undefined;
  private detail: string | undefined;
  private handshakes = 0;
  private dropped = 0;
  private readonly refused: Record<string, number> = {};
  private readonly attack = new AttackWatch();
  /** A handshake began (a HELLO) and no PROOF has ended it yet. */
  private handshakeOpen = false;
  /** This connection proved a key: a HELLO after that is said again. */
  private provenOnThisConnection = false;
  private lastHelloAgainAt: number | undefined;
  /** Why the device was quarantined, until a good PROOF lifts it (a new HELLO does not). */
  private quarantinedFor: string | undefined;

  constructor(options: AuthStatusOptions) {
    this.options = options;
  }

  status(): DriverAuthStatus {
    const paired = this.options.paired;
    const status: DriverAuthStatus = {
      pairing: paired === undefined ? 'unpaired' : 'paired',
      state: this.state,
      handshakes: this.handshakes,
      refused: { ...this.refused },
      dropped: this.dropped,
    };
    if (paired !== undefined) status.pairedFingerprint = keyFingerprint(paired);
    if (this.deviceFingerprint !== undefined) status.deviceFingerprint = this.deviceFingerprint;
    if (this.detail !== undefined) status.detail = this.detail;
    return status;
  }

  /** One report of the host endpoint's authentication. */
  report(report: HostAuthReport): void {
    switch (report.kind) {
      case 'challenging':
        this.challenging();
        this.state = 'handshake';
        break;
      case 'authenticated':
        this.handshakeOpen = false;
        this.provenOnThisConnection = true;
        this.handshakes++;
        this.state = 'authenticated';
        this.deviceFingerprint = report.fingerprint;
        this.detail = report.paired
          ? undefined
          : `unpaired key ${report.fingerprint}: pair it (tableside device pair ${this.options.name}) before play`;
        this.options.authenticated();
        if (this.quarantinedFor !== undefined) {
          // Within an attack, only its first requalification is alarmed; the count says the rest.
          if (this.attack.recovery('device_requalified')) {
            this.options.alarm(
              'device_requalified',
              `${this.options.name} proved its paired key again: quarantine lifted (it was: ${this.quarantinedFor}); its frames are dealt again`,
              { was: this.quarantinedFor, fingerprint: report.fingerprint },
            );
          }
          this.quarantinedFor = undefined;
        }
        break;
      case 'unauthenticated':
        this.handshakeOpen = false;
        this.state = 'unauthenticated';
        this.deviceFingerprint = undefined;
        this.detail = `${report.detail}: its frames are not authenticated (a bench only)`;
        break;
      case 'refused':
        this.refused[report.reason] = (this.refused[report.reason] ?? 0) + 1;
        this.signal(
          { reason: report.reason, alarmKey: `device_unauthenticated:${report.reason}` },
          'device_unauthenticated',
          `${this.options.name}: frame refused (${report.reason.replace('_', ' ')}): ${report.detail}; not dealt`,
          {
            reason: report.reason,
            ...(report.type === undefined ? {} : { frameType: report.type }),
            ...(report.seq === undefined ? {} : { frameSeq: report.seq }),
          },
        );
        break;
      case 'failed': {
        this.state = 'failed';
        this.detail = `${report.reason.replace('_', ' ')}: ${report.detail}`;
        const reason = `authentication failed (${this.detail})`;
        this.quarantinedFor = this.detail;
        this.handshakeOpen = false;
        this.options.quarantine(reason);
        this.signal(
          { reason: report.reason, alarmKey: 'device_quarantined' },
          'device_quarantined',
          `${this.options.name} quarantined: ${reason}; its frames are refused`,
          { reason: report.reason },
        );
        break;
      }
      case 'dropped':
        this.dropped++;
        break;
    }
  }

  /** The driver's beat: an attack's count each minute, and its end. */
  tick(): void {
    const now = this.options.clock();
    const name = this.options.name;
    const quarantined = this.quarantinedFor !== undefined;
    for (const alarm of this.attack.tick(now, quarantined)) {
      if (alarm.kind === 'line_attack_counted') {
        this.options.alarm(
          'line_attack_counted',
          `${name}: its line is under attack for ${minutes(alarm.sinceMs)}: ${describeCounts(alarm.lastMinute)} in the last minute, ${alarm.total} in all; ${quarantined ? 'quarantined' : 'its proven frames are dealt'}`,
          { lastMinute: alarm.lastMinute, total: alarm.total, sinceMs: alarm.sinceMs, quarantined },
        );
      } else {
        this.options.alarm(
          'line_attack_ended',
          `${name}: the attack on its line ended after ${minutes(alarm.lastedMs)} (${describeCounts(alarm.counts)}); its line has been quiet a minute and it is not quarantined`,
          { counts: alarm.counts, total: alarm.total, lastedMs: alarm.lastedMs },
        );
      }
    }
  }

  /** The line closed: the next HELLO starts a connection, not a replay. */
  lineClosed(): void {
    this.handshakeOpen = false;
    this.provenOnThisConnection = false;
    this.lastHelloAgainAt = undefined;
  }

  /** A HELLO began a handshake: the one before it never proved itself, or a proven connection says HELLO again. */
  private challenging(): void {
    const now = this.options.clock();
    const name = this.options.name;
    if (this.handshakeOpen) {
      this.signal(
        { reason: 'hello_unproven', alarmKey: 'device_unauthenticated:hello' },
        'device_unauthenticated',
        `${name}: a HELLO that no PROOF followed was replaced by another: a forged or replayed HELLO on its line`,
        { reason: 'hello_unproven' },
      );
    } else if (this.provenOnThisConnection) {
      const last = this.lastHelloAgainAt;
      this.lastHelloAgainAt = now;
      // A device that resets says HELLO once; a second within the minute is a replay.
      if (last !== undefined && now - last < HELLO_AGAIN_WITHIN_MS) {
        this.signal(
          { reason: 'hello_again', alarmKey: 'device_unauthenticated:hello' },
          'device_unauthenticated',
          `${name}: HELLO again on a proven connection, twice within a minute: a replayed HELLO on its line`,
          { reason: 'hello_again' },
        );
      }
    }
    this.handshakeOpen = true;
  }

  private signal(
    signal: AttackSignal,
    kind: AlarmKind,
    message: string,
    detail: Record<string, unknown>,
  ): void {
    const verdict = this.attack.signal(signal, this.options.clock());
    if (verdict === 'counted') return;
    if (verdict === 'first') {
      this.options.alarm(kind, message, detail);
      return;
    }
    this.options.alarm(
      kind,
      `${message} (an attack on its line started: repeats are counted each minute)`,
      { ...detail, attack: 'started' },
    );
  }
}

function minutes(ms: number): string {
  const whole = Math.max(1, Math.round(ms / 60_000));
  return whole === 1 ? '1 minute' : `${whole} minutes`;
}

/** `{ no_key: 3, hello_unproven: 4 }` as `7 signals (no_key 3, hello_unproven 4)`. */
function describeCounts(counts: Readonly<Record<string, number>>): string {
  const entries = Object.entries(counts);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return 'no signal';
  const each = entries.map(([reason, count]) => `${reason} ${count}`).join(', ');
  return `${total} signal${total === 1 ? '' : 's'} (${each})`;
}
