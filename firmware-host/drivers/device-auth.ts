/**
 * A driver's side of device authentication (protocol 1.4, PROTOCOL.md § 5):
 * the pure `HostAuth` with fresh handshake secrets, alarms and the state
 * `diag` and the status report show. Framer events come in through
 * `incoming`; what passes goes to the link session (`pass`); every line the
 * link session writes goes out through `outgoing` (sealed once the device
 * has proved itself).
 *
 * Alarms: a refused frame (no MAC, a wrong MAC, a replay) raises
 * `device_unauthenticated` at most once a second per reason (a flood is
 * counted, not echoed); a device that fails to authenticate is quarantined
 * with `device_quarantined`, and a good PROOF after that lifts the
 * quarantine with `device_requalified`. An unpaired device works unauthenticated or
 * with an unpaired key, with a warning in the status. Keys never appear in
 * an alarm: only their fingerprints.
 */
import { HostAuth, type HostAuthAction } from '../../device-protocol/auth/host-auth.ts';
import { type DevicePublicKey, keyFingerprint } from '../../device-protocol/auth/keys.ts';
import type { DeviceTalker, FrameDiscard, FrameEvent } from '../../device-protocol/frame.ts';
import { freshHandshakeSecrets } from '../../hardware/keys/device-key.ts';
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

export interface DriverAuthOptions {
  name: string;
  talker: DeviceTalker;
  paired?: DevicePublicKey;
  now: () => number;
  /** Wall clock, for the alarm rate limit. */
  clock: () => number;
  write: (line: string) => void;
  pass: (event: FrameEvent) => void;
  /** Counts a line that could not be read while the PROOF was awaited, without NAKing it. */
  unread: (event: FrameDiscard) => void;
  alarm: (kind: AlarmKind, message: string, detail: Record<string, unknown>) => void;
  quarantine: (reason: string) => void;
  authenticated: () => void;
  /** Asks the device at once for the frames dropped while waiting for its PROOF. */
  askAgain: (seqs: readonly number[]) => void;
  schedule: () => void;
}

/** At most this many dropped frames are asked for again (a window is 32). */
const ASK_AGAIN_AT_MOST = 64;

const ALARM_EVERY_MS = 1000;

export class DriverAuth {
  private readonly host: HostAuth;
  private readonly options: DriverAuthOptions;
  private state: DriverAuthStatus['state'] = 'none';
  private deviceFingerprint: string | undefined;
  private detail: string | undefined;
  private handshakes = 0;
  private dropped = 0;
  /** Seqs dropped during the handshake on: NAKed once it ends, so they come again at once. */
  private droppedSeqs: number[] = [];
  private readonly refused: Record<string, number> = {};
  private readonly lastAlarm = new Map<string, number>();
  /** Why the device was quarantined, until a good PROOF lifts it (a new HELLO does not). */
  private quarantinedFor: string | undefined;

  constructor(options: DriverAuthOptions) {
    this.options = options;
    this.host = new HostAuth({
      talker: options.talker,
      fresh: freshHandshakeSecrets,
      ...(options.paired === undefined ? {} : { paired: options.paired }),
    });
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

  /** The key the device proved on this connection (for pairing). */
  get provenKey(): DevicePublicKey | undefined {
    return this.host.provenKey;
  }

  nextDeadline(): number | undefined {
    return this.host.nextDeadline();
  }

  tick(now: number): void {
    this.handle(this.host.tick(now));
  }

  outgoing(line: string, type: string): string {
    return this.host.outgoing(line, type);
  }

  incoming(event: FrameEvent, now: number): void {
    this.handle(this.host.incoming(event, now));
  }

  private handle(actions: readonly HostAuthAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'pass':
          this.options.pass(action.event);
          if (action.event.kind === 'frame' && action.event.frame.type === 'HELLO') {
            this.state = this.host.state === 'challenging' ? 'handshake' : this.state;
            // A new HELLO: the device sends all it keeps again by itself.
            this.droppedSeqs = [];
          }
          break;
        case 'write':
          this.options.write(action.line);
          this.options.schedule();
          break;
        case 'authenticated':
          this.handshakes++;
          this.state = 'authenticated';
          this.deviceFingerprint = action.fingerprint;
          this.detail = action.paired
            ? undefined
            : `unpaired key ${action.fingerprint}: pair it (tableside device pair ${this.options.name}) before play`;
          this.options.authenticated();
          if (this.quarantinedFor !== undefined) {
            this.options.alarm(
              'device_requalified',
              `${this.options.name} proved its paired key again: quarantine lifted (it was: ${this.quarantinedFor}); its frames are dealt again`,
              { was: this.quarantinedFor, fingerprint: action.fingerprint },
            );
            this.quarantinedFor = undefined;
          }
          this.askAgainForDropped();
          break;
        case 'unauthenticated':
          this.state = 'unauthenticated';
          this.deviceFingerprint = undefined;
          this.detail = `${action.detail}: its frames are not authenticated (a bench only)`;
          this.askAgainForDropped();
          break;
        case 'refused':
          this.refused[action.reason] = (this.refused[action.reason] ?? 0) + 1;
          this.rateLimitedAlarm(action.reason, () =>
            this.options.alarm(
              'device_unauthenticated',
              `${this.options.name}: frame refused (${action.reason.replace('_', ' ')}): ${action.detail}; not dealt`,
              {
                reason: action.reason,
                ...(action.type === undefined ? {} : { frameType: action.type }),
                ...(action.seq === undefined ? {} : { frameSeq: action.seq }),
              },
            ),
          );
          break;
        case 'failed': {
          this.state = 'failed';
          this.detail = `${action.reason.replace('_', ' ')}: ${action.detail}`;
          const reason = `authentication failed (${this.detail})`;
          this.quarantinedFor = this.detail;
          this.options.quarantine(reason);
          this.options.alarm(
            'device_quarantined',
            `${this.options.name} quarantined: ${reason}; its frames are refused`,
            { reason: action.reason },
          );
          break;
        }
        case 'dropped':
          this.dropped++;
          if (action.seq !== undefined && this.droppedSeqs.length < ASK_AGAIN_AT_MOST)
            this.droppedSeqs.push(action.seq);
          break;
        case 'unread':
          this.options.unread(action.event);
          if (action.seq !== undefined && this.droppedSeqs.length < ASK_AGAIN_AT_MOST)
            this.droppedSeqs.push(action.seq);
          break;
      }
    }
  }

  /**
   * The handshake is over: the events dropped while it was on are asked for
   * by NAK (PROTOCOL.md § 5.2), so the device sends them again at once
   * rather than after its ACK timeout (300 ms of a stalled window).
   */
  private askAgainForDropped(): void {
    if (this.droppedSeqs.length === 0) return;
    const seqs = [...new Set(this.droppedSeqs)];
    this.droppedSeqs = [];
    this.options.askAgain(seqs);
  }

  private rateLimitedAlarm(reason: string, raise: () => void): void {
    const now = this.options.clock();
    const last = this.lastAlarm.get(reason);
    if (last !== undefined && now - last < ALARM_EVERY_MS) return;
    this.lastAlarm.set(reason, now);
    raise();
  }
}
