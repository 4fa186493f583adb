/**
 * The parts of each wheel's spin under way, as the journal holds them: the
 * ROTOR and BALL a wheel reported (journaled as meta `spin_part` before
 * their ACK) until the spin or no-spin record that ends the spin. A
 * restarted daemon rebuilds this from its checkpoint and the journal, and
 * gives each wheel's driver its parts back, so a RESULT arriving after the
 * restart still completes the spin it belongs to.
 */
import type { BallMessage, RotorMessage } from '../../device-protocol/messages.ts';
import type { TableLogRecord } from '../table/log.ts';

export type SpinPartMessage = RotorMessage | BallMessage;

/** The meta record a part is journaled as. */
export function spinPartMeta(device: string, message: SpinPartMessage) {
  return { type: 'spin_part', device, message };
}

function isSpinPart(value: unknown): value is SpinPartMessage {
  const message = value as { type?: unknown; direction?: unknown } | null;
  return (
    message !== null &&
    typeof message === 'object' &&
    (message.type === 'ROTOR' || message.type === 'BALL') &&
    (message.direction === 'cw' || message.direction === 'ccw')
  );
}

export class SpinParts {
  private readonly byDevice = new Map<string, SpinPartMessage[]>();

  /** From a checkpoint's `spinParts` (anything unreadable is dropped: it is data from disk). */
  static from(value: unknown): SpinParts {
    const parts = new SpinParts();
    if (value === null || typeof value !== 'object') return parts;
    for (const [device, list] of Object.entries(value)) {
      if (Array.isArray(list)) parts.byDevice.set(device, list.filter(isSpinPart));
    }
    return parts;
  }

  /** A part journaled (live, or read back from a `spin_part` meta record). */
  add(device: string, message: unknown): void {
    if (!isSpinPart(message)) return;
    this.byDevice.set(device, [...(this.byDevice.get(device) ?? []), message]);
  }

  /** A spin or no-spin record ends its wheel's spin under way. */
  ended(record: TableLogRecord): void {
    if ((record.t === 'spin' || record.t === 'no_spin') && record.src !== undefined) {
      this.byDevice.delete(record.src);
    }
  }

  of(device: string): readonly SpinPartMessage[] {
    return this.byDevice.get(device) ?? [];
  }

  /** For a checkpoint; undefined when no spin is under way. */
  export(): Record<string, SpinPartMessage[]> | undefined {
    return this.byDevice.size > 0 ? Object.fromEntries(this.byDevice) : undefined;
  }
}
