/**
 * A device's line while it is not open: why (the link's last reason, the
 * failure before an open under way), the attempt and the next try, and
 * `device_unreachable` once an outage outlasts `unreachableAfterMs`, then
 * `device_reachable` when the line opens again.
 */
import type {
  LinkStateChange,
  ReconnectingLink,
} from '../../hardware/transports/reconnecting-link.ts';
import type { AlarmKind } from '../table/events.ts';
import type { DriverLineStatus } from './status.ts';

export interface LineWatchOptions {
  /** The device's name, in the alarms. */
  name: string;
  link: ReconnectingLink;
  unreachableAfterMs: number;
  /** Monotonic milliseconds. */
  now: () => number;
  alarm(kind: AlarmKind, message: string, detail: Record<string, unknown>): void;
}

export class LineWatch {
  /** When the line was last open, or the driver started (undefined while open). */
  private unreachableSince: number | undefined;
  /** `device_unreachable` was raised since the line was last open. */
  private unreachableAlarmed = false;
  /** When the link's latest state change came (for the next try's countdown). */
  private linkChangedAt = 0;
  /** Why the line last failed or dropped: kept while the next open is under way. */
  private lineProblem: string | undefined;

  constructor(private readonly options: LineWatchOptions) {}

  /** The driver started: the line is unopened from now. */
  started(): void {
    this.unreachableSince = this.options.now();
    this.unreachableAlarmed = false;
  }

  changed(change: LinkStateChange): void {
    this.linkChangedAt = this.options.now();
    if (change.state === 'open') this.lineBack();
    else this.unreachableSince ??= this.linkChangedAt;
    if (change.state !== 'opening' && change.state !== 'open') this.lineProblem = change.reason;
  }

  /** Why the line is not open and when it is tried again; undefined while it is open. */
  status(): DriverLineStatus | undefined {
    const { link, now: clock } = this.options;
    const since = this.unreachableSince;
    const change = link.lastChange;
    if (since === undefined || link.isOpen) return undefined;
    const now = clock();
    const line: DriverLineStatus = {
      // While an open is under way (its reason just 'retry'), the failure before it.
      reason:
        change?.state === 'opening'
          ? (this.lineProblem ?? `opening ${link.url}`)
          : (change?.reason ?? 'not opened yet'),
      attempt: change?.attempt ?? 0,
      unreachableForMs: Math.round(now - since),
      alarmed: this.unreachableAlarmed,
    };
    if (change?.state === 'reopening' && change.delayMs !== undefined) {
      line.nextTryInMs = Math.max(0, Math.round(this.linkChangedAt + change.delayMs - now));
    }
    return line;
  }

  /** `device_unreachable` once per outage, when the line stays unopened past `unreachableAfterMs`. */
  check(): void {
    const { link, name } = this.options;
    const line = this.status();
    if (line === undefined || this.unreachableAlarmed) return;
    if (line.unreachableForMs < this.options.unreachableAfterMs) return;
    this.unreachableAlarmed = true;
    const retry =
      link.state === 'failed' ? 'the link gave up' : `tried again every ${this.retryEvery()}`;
    this.options.alarm(
      'device_unreachable',
      `${name}: ${link.url} not open for ${Math.round(line.unreachableForMs / 1000)} s: ${line.reason} (${line.attempt} attempt(s), ${retry}); check the cable and the device's power`,
      {
        url: link.url,
        reason: line.reason,
        attempts: line.attempt,
        unreachableForMs: line.unreachableForMs,
      },
    );
  }

  /** The line opened: an outage that raised `device_unreachable` is announced over. */
  private lineBack(): void {
    const { link, name } = this.options;
    const since = this.unreachableSince;
    this.unreachableSince = undefined;
    this.lineProblem = undefined;
    if (!this.unreachableAlarmed || since === undefined) return;
    this.unreachableAlarmed = false;
    const forMs = Math.round(this.options.now() - since);
    this.options.alarm(
      'device_reachable',
      `${name}: ${link.url} open again after ${Math.round(forMs / 1000)} s unreachable`,
      { url: link.url, unreachableForMs: forMs },
    );
  }

  private retryEvery(): string {
    const ms = this.options.link.options.maxDelayMs;
    return ms < 1000 ? `${ms} ms at most` : `${ms / 1000} s at most`;
  }
}
