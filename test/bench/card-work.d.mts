import type { LinkSession } from '../../device-protocol/link.ts';
import type { TableSession } from '../../firmware-host/games/table-session.ts';
import type { encodeRecord, hashLine } from '../../firmware-host/journal/record.ts';
import type { eventPayload } from '../../firmware-host/mqtt/bridge.ts';

export interface CardWork {
  /** The shoe's next CARD frame (a new seeded shoe every 300 cards); not the daemon's work. */
  nextFrame(): Buffer;
  /** The daemon's (or with `relay`, the bare relay's) work for one frame; returns the ACK line. */
  take(frame: Buffer): string;
  /** The shoe hears the ACK; not the daemon's work. */
  settle(ackLine: string): void;
  readonly counts: { cards: number; events: number; bytes: number };
  shoes(): number;
}

/** The daemon's pure work for one card, without I/O; throws if the table refuses a card. */
export function makeCardWork(options: {
  LinkSession: typeof LinkSession;
  TableSession: typeof TableSession;
  encodeRecord: typeof encodeRecord;
  hashLine: typeof hashLine;
  eventPayload: typeof eventPayload;
  protocol: string;
  ruleset: string;
  relay?: boolean;
}): CardWork;
