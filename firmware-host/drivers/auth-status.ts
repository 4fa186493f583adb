/**
 * A driver's view of its device's authentication (protocol 1.4,
 * PROTOCOL.md § 5): the host endpoint's authentication reports turned into
 * the state `diag` and the status report show, alarms and the quarantine.
 *
 * Alarms: a refused frame (no MAC, a wrong MAC, a replay) raises
 * `device_unauthenticated` at most once a second per reason (a flood is
 * counted, not echoed); a device that fails to authenticate is quarantined
 * with `device_quarantined`, and a good PROOF after that lifts the
 * quarantine with `device_requalified`. An unpaired device works unauthenticated or
 * with an unpaired key, with a warning in the status. Keys never appear in
 * an alarm: only their fingerprints.
 */
import { type DevicePublicKey, keyFingerprint } from '../../device-protocol/auth/keys.ts';
import type { HostAuthReport } from '../../device-protocol/endpoint/host-endpoint.ts';
import type { AlarmKind } from '../table/events.ts';

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
  /** Wall clock, for the alarm rate limit. */
  clock: () => number;
  alarm: (kind: AlarmKind, message: string, detail: Record<string, unknown>) => void;
  quarantine: (reason: string) => void;
  authenticated: () => void;
}

const ALARM_EVERY_MS = 1000;

export class AuthStatusTracker {
  private readonly options: AuthStatusOptions;
  private state: DriverAuthStatus['state'] = 'none';
  private deviceFingerprint: string | undefined;
  private detail: string | undefined;
  private handshakes = 0;
  private dropped = 0;
  private readonly refused: Record<string, number> = {};
  private readonly lastAlarm = new Map<string, number>();
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
        this.state = 'handshake';
        break;
      case 'authenticated':
        this.handshakes++;
        this.state = 'authenticated';
        this.deviceFingerprint = report.fingerprint;
        this.detail = report.paired
          ? undefined
          : `unpaired key ${report.fingerprint}: pair it (tableside device pair ${this.options.name}) before play`;
        this.options.authenticated();
        if (this.quarantinedFor !== undefined) {
          this.options.alarm(
            'device_requalified',
            `${this.options.name} proved its paired key again: quarantine lifted (it was: ${this.quarantinedFor}); its frames are dealt again`,
            { was: this.quarantinedFor, fingerprint: report.fingerprint },
          );
          this.quarantinedFor = undefined;
        }
        break;
      case 'unauthenticated':
        this.state = 'unauthenticated';
        this.deviceFingerprint = undefined;
        this.detail = `${report.detail}: its frames are not authenticated (a bench only)`;
        break;
      case 'refused':
        this.refused[report.reason] = (this.refused[report.reason] ?? 0) + 1;
        this.rateLimitedAlarm(report.reason, () =>
          this.options.alarm(
            'device_unauthenticated',
            `${this.options.name}: frame refused (${report.reason.replace('_', ' ')}): ${report.detail}; not dealt`,
            {
              reason: report.reason,
              ...(report.type === undefined ? {} : { frameType: report.type }),
              ...(report.seq === undefined ? {} : { frameSeq: report.seq }),
            },
          ),
        );
        break;
      case 'failed': {
        this.state = 'failed';
        this.detail = `${report.reason.replace('_', ' ')}: ${report.detail}`;
        const reason = `authentication failed (${this.detail})`;
        this.quarantinedFor = this.detail;
        this.options.quarantine(reason);
        this.options.alarm(
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

  private rateLimitedAlarm(reason: string, raise: () => void): void {
    const now = this.options.clock();
    const last = this.lastAlarm.get(reason);
    if (last !== undefined && now - last < ALARM_EVERY_MS) return;
    this.lastAlarm.set(reason, now);
    raise();
  }
}
