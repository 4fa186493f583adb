/** What a conformance run is given: the line, what the device must be, and where its progress goes. */
import type { HostSigner } from '../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { DeviceTalker } from '../../device-protocol/frame.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { CheckResult } from './checks.ts';
import type { TraceEntry } from './trace.ts';
import type { WireClock } from './wire.ts';

export interface ConformanceOptions {
  /** The URL the transport was opened from, for the report. */
  readonly link: string;
  /** The host's end of the line, not yet open. */
  readonly transport: Transport;
  /** The talker the device must be; absent: whatever its HELLO says. */
  readonly talker?: DeviceTalker;
  /** The device's paired key (§ 5.1): the auth check becomes required. */
  readonly key?: DevicePublicKey;
  /**
   * The table's host key the device was paired with (§ 5.2, 1.7): the host signs its CONFIRMs
   * with it, and the paired-host and hostile-host checks run; absent, they are not run.
   */
  readonly hostKey?: HostSigner;
  /** The device acts by itself (a simulator's scenario): no instructions, the shorter waits. */
  readonly scripted?: boolean;
  /** Shows a person what to do (deal a card, spin the wheel). */
  readonly instruct?: (text: string) => void;
  /** Each result as it is known (a progress line). */
  readonly onResult?: (result: CheckResult) => void;
  /** Everything that crossed the line, at the end (for a capture file). */
  readonly onTrace?: (trace: readonly TraceEntry[]) => void;
  readonly clock?: WireClock;
  readonly openTimeoutMs?: number;
}
