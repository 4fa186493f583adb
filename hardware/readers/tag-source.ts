/**
 * A TagSource is anything that reads RFID tag UIDs without firmware of ours:
 * a PN532 polled over HSU or I2C, a keyboard-wedge reader typing UIDs. The
 * reader device (reader-device.ts) turns one into protocol reader frames, so
 * the host's reader driver, deck registry and `foreign_card` path serve all
 * of them unchanged.
 */
import type { EventEmitter } from 'node:events';

/** Who the reader is, for its HELLO. */
export interface TagSourceIdentity {
  /** HELLO model: 1-32 letters, digits, . _ - */
  model: string;
  /** HELLO serial: 1-32 letters, digits, . _ - */
  serial: string;
  /** HELLO firmware: 1-32 letters, digits, . + _ - */
  firmware: string;
  /** 64 lower-case hex digits: what a firmware allow-list pins. */
  firmwareSha256: string;
}

/** A fault the technician must hear about: the part, what went wrong, what to do. */
export interface TagSourceFault {
  /** A protocol ERROR code: a lower-case word, e.g. pn532_nack. */
  code: string;
  /** The whole sentence, for logs and the CLI. */
  message: string;
  /** A shorter sentence for the protocol ERROR frame (at most 120 characters), if `message` is longer. */
  detail?: string;
}

export interface TagSourceEvents {
  /** A tag came into the field (or was typed); once per arrival. */
  tag: [uid: Uint8Array];
  /** The source cannot read tags until the fault clears; once per episode. */
  fault: [fault: TagSourceFault];
  /** Reading again after a fault. */
  recovered: [];
}

export interface TagSource extends EventEmitter<TagSourceEvents> {
  /** For logs: "PN532 on /dev/ttyUSB0 (HSU)". */
  readonly description: string;
  /**
   * Reaches the part and starts reading. Rejects with an error naming the
   * part and what to do when it cannot be reached at all.
   */
  start(): Promise<TagSourceIdentity>;
  /** Stops reading and releases the part; idempotent. */
  stop(): Promise<void>;
}

/** A UID as the protocol writes it: upper-case hex, most significant byte first. */
export function uidHex(uid: Uint8Array): string {
  return Array.from(uid, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
}

/** Squeezes a name into HELLO's 1-32 letters, digits, . _ - (keeping its end, where serials differ). */
export function helloName(text: string): string {
  const clean = text
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(-32)
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return clean || 'unknown';
}
