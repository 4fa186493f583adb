/** What a driver hands the table: a device's records, each with the acknowledgement the table calls once it is durable. */
import type { z } from 'zod';
import type { CardRecord, cutRecord, RouletteRecord, ShuffleRecord } from '../table/log.ts';

export type CutRecord = z.infer<typeof cutRecord>;
export type DriverRecord = CardRecord | CutRecord | ShuffleRecord | RouletteRecord;

/** A record from the device with its acknowledgement. */
export interface Observation {
  readonly device: string;
  /** The device's seq of the frame that completed the record. */
  readonly seq: number;
  readonly record: DriverRecord;
  /** The record is durable: ACK it to the device. Idempotent. */
  ack(): void;
}
