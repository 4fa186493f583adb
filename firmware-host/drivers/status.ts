/** What a driver reports of its device: availability, identity, counters, authentication and line (DriverStatus). */
import type { DriverAuthStatus } from './auth-status.ts';

export type Availability = 'online' | 'offline';

export interface DeviceIdentityReport {
  model: string;
  serial: string;
  protocol: string;
  firmware: string;
  firmwareSha256: string;
}

export interface DriverCounters {
  framesReceived: number;
  crcErrors: number;
  /** Malformed, over-long and unstarted lines. */
  badLines: number;
  naksSent: number;
  naksReceived: number;
  retransmits: number;
  duplicatesDropped: number;
  /** Events of a 1.2 device held until a missing one arrived (PROTOCOL.md § 3.8). */
  heldForOrder: number;
  /** Times the host stopped waiting for a missing seq (a device breaking § 3.8). */
  orderGaps: number;
  reconnects: number;
  cardsRefused: number;
  foreignTags: number;
  commandsFailed: number;
  unsupported: number;
  invalid: number;
}

export interface DriverStatus {
  name: string;
  /** The profile's kind: a shipped one, or a vendor's. */
  kind: string;
  url: string;
  link: string;
  availability: Availability;
  identity?: DeviceIdentityReport;
  /** Why the device is quarantined; absent when it is not. */
  quarantined?: string;
  counters: DriverCounters;
  /** Pairing and key state (protocol 1.4). */
  auth: DriverAuthStatus;
  /** While the line is not open: why, and when it is tried again. */
  line?: DriverLineStatus;
}

/** Why a device's line is not open, from its last reopen. */
export interface DriverLineStatus {
  /** The link's reason: the OS error and the path (`open failed: serial /dev/ttyUSB9: ...`). */
  reason: string;
  /** Failed opens since it was last open. */
  attempt: number;
  /** Until the next open; absent while one is under way or the link gave up. */
  nextTryInMs?: number;
  /** Since the line was last open (or the driver started). */
  unreachableForMs: number;
  /** `device_unreachable` was raised for this outage. */
  alarmed: boolean;
}
