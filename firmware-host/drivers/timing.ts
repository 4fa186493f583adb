/** A driver's timeouts and intervals, validated in one place. */
import { z } from 'zod';
import { LINK_STALLED_AFTER_MS } from './stall-watch.ts';

/** How long a configured device's line may stay unopened before `device_unreachable` (driver timing `unreachableAfterMs`). */
export const DEVICE_UNREACHABLE_AFTER_MS = 30_000;

/** Every timeout and interval of a driver, validated in one place. */
export const driverTimingSchema = z
  .object({
    /** A PING this often while the line is open. */
    heartbeatMs: z.number().int().min(50).max(60_000).default(1_000),
    /** No frame for this long: the device is `offline`. */
    offlineAfterMs: z.number().int().min(100).max(600_000).default(3_500),
    /** A device that keeps sending this long with nothing taken raises `link_stalled` (stall-watch.ts). */
    stalledAfterMs: z.number().int().min(1_000).max(3_600_000).default(LINK_STALLED_AFTER_MS),
    /**
     * The line not open this long (absent, refused, dropped and not back):
     * `device_unreachable`, once, and `device_reachable` when it opens again.
     */
    unreachableAfterMs: z
      .number()
      .int()
      .min(1_000)
      .max(86_400_000)
      .default(DEVICE_UNREACHABLE_AFTER_MS),
    /** No frame for this long: the link closes and reopens (a pty reports no close). 0: never. */
    silenceTimeoutMs: z.number().int().min(0).max(3_600_000).default(6_000),
    /** A command not ACKed by then fails. */
    commandTimeoutMs: z.number().int().min(50).max(120_000).default(3_000),
    /** How long deckCheck() waits for the COUNT after the ACK. */
    countTimeoutMs: z.number().int().min(50).max(600_000).default(30_000),
  })
  .strict()
  .refine((timing) => timing.offlineAfterMs > timing.heartbeatMs, {
    message: 'offlineAfterMs must be longer than heartbeatMs',
    path: ['offlineAfterMs'],
  });

export type DriverTiming = z.output<typeof driverTimingSchema>;
