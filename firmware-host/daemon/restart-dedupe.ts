/**
 * Restart dedupe: a card is ACKed to its device only after its record is
 * fsynced, so a crash between the fsync and the ACK leaves the device
 * retransmitting a card the journal already holds. The driver's own ledger
 * is empty after a restart; this guard remembers, from the journal, the last
 * records each device delivered (by device seq and content), and recognises
 * those retransmissions until the device sends something new.
 *
 * Pure: built from journal inputs, consulted per observation.
 */
import type { TableLogRecord } from '../table/log.ts';

/** How many of a device's most recent records are remembered. */
const REMEMBERED_PER_DEVICE = 64;

export type DedupeVerdict = 'new' | 'already_journaled';

/** The remembered records, JSON-safe, for a journal checkpoint: [device, [[dseq, fingerprint], …]] oldest first. */
export type DedupeMemory = Array<
  [device: string, records: Array<[dseq: number, fingerprint: string]>]
>;

function fingerprint(record: TableLogRecord): string {
  const { ts: _ts, src: _src, dseq: _dseq, ...content } = record;
  return JSON.stringify(content);
}

/**
 * A remembered record, or its fingerprint as a checkpoint gave it back. The
 * record itself is kept (records are never changed once journaled) and its
 * fingerprint made only when asked: a card journaled is then not
 * serialized once more for a comparison that only a restart needs.
 */
type Remembered = string | TableLogRecord;

const fingerprintOf = (remembered: Remembered) =>
  typeof remembered === 'string' ? remembered : fingerprint(remembered);

export class RestartDedupe {
  /** device → (device seq → record or fingerprint); emptied per device at its first new record. */
  private readonly recent = new Map<string, Map<number, Remembered>>();

  /** An independent copy of this memory. */
  clone(): RestartDedupe {
    return RestartDedupe.from(this.export());
  }

  /** What a checkpoint keeps: the same memory, in the same order. */
  export(): DedupeMemory {
    return [...this.recent].map(([device, seen]) => [
      device,
      [...seen].map(([dseq, remembered]): [number, string] => [dseq, fingerprintOf(remembered)]),
    ]);
  }

  /** Memory read back from a checkpoint; throws a TypeError naming what is wrong. */
  static from(memory: unknown): RestartDedupe {
    const dedupe = new RestartDedupe();
    if (!Array.isArray(memory)) throw new TypeError('dedupe memory is not a list');
    for (const entry of memory) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
        throw new TypeError('dedupe memory entry is not [device, records]');
      }
      const seen = new Map<number, Remembered>();
      for (const pair of entry[1] as unknown[]) {
        if (!Array.isArray(pair) || !Number.isSafeInteger(pair[0]) || typeof pair[1] !== 'string') {
          throw new TypeError(`dedupe memory of ${entry[0]} holds a bad [dseq, fingerprint]`);
        }
        seen.set(pair[0] as number, pair[1]);
      }
      dedupe.recent.set(entry[0], seen);
    }
    return dedupe;
  }

  /** Feeds the journal's inputs in order, at start. */
  remember(record: TableLogRecord): void {
    const device = record.src;
    const dseq = record.dseq;
    if (device === undefined || dseq === undefined) return;
    let seen = this.recent.get(device);
    if (!seen) {
      seen = new Map();
      this.recent.set(device, seen);
    }
    seen.delete(dseq);
    seen.set(dseq, record);
    if (seen.size > REMEMBERED_PER_DEVICE) {
      const oldest = seen.keys().next().value;
      if (oldest !== undefined) seen.delete(oldest);
    }
  }

  /**
   * Whether a record a device delivers now is one the journal already has.
   * The first genuinely new record from a device ends the guard for it: from
   * then on the driver's own ledger is authoritative.
   */
  classify(device: string, dseq: number, record: TableLogRecord): DedupeVerdict {
    const seen = this.recent.get(device);
    if (!seen) return 'new';
    const remembered = seen.get(dseq);
    if (remembered !== undefined && fingerprintOf(remembered) === fingerprint(record)) {
      return 'already_journaled';
    }
    this.recent.delete(device);
    return 'new';
  }
}
