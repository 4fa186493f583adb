/** The link session's options: one schema for both roles (PROTOCOL.md § 3). */
import { z } from 'zod';
import { ProtocolError } from '../errors.ts';
import { isFrameType, TALKERS } from '../frame.ts';
import { framerOptionsSchema } from '../frame-decoder.ts';

export const linkOptionsSchema = z
  .object({
    /** Who we are on the wire: `HO` for the host, `SH`/`SF`/`RD` for a device (simulator). */
    localTalker: z.enum(TALKERS),
    /** The one talker expected on this line; frames from others are discarded. Unset: any but our own. */
    peerTalker: z.enum(TALKERS).optional(),
    /** Wait this long for an ACK before sending again. */
    ackTimeoutMs: z.number().int().min(1).max(600_000).default(500),
    /** Each retransmission waits `backoffFactor` times longer than the one before. */
    backoffFactor: z.number().min(1).max(10).default(1.5),
    /** Each wait for an ACK is at most this long, however many attempts the backoff has grown over. */
    maxAckTimeoutMs: z.number().int().min(1).max(3_600_000).default(60_000),
    /**
     * Transmissions of one frame, the first included, before it is reported
     * failed. 0: retransmit forever (a device: a real shoe keeps a card until
     * the host ACKs it).
     */
    maxAttempts: z.number().int().min(0).max(100).default(5),
    /**
     * Unacknowledged event frames at once. Above 1, events stay in order
     * only with protocol 1.2 on both sides (the in-order window); a device
     * announcing 1.2 uses it only with a host that announced 1.2 too.
     */
    maxInFlight: z.number().int().min(1).max(32).default(1),
    /** Frames waiting to be sent; past this, `send` reports `failed` with `queue_full`. */
    maxQueued: z.number().int().min(1).max(4096).default(1024),
    /** Recent seqs remembered per peer to drop duplicates; far below the 65536 wrap. */
    dedupeWindow: z.number().int().min(1).max(4096).default(128),
    /** Types whose ACK waits for `ack(seq)`, e.g. `['CARD']` on the host. */
    deferAck: z.array(z.string().refine(isFrameType, 'expected an upper-case TYPE')).default([]),
    /** Host only: NAK a device's events (`hello`) until it has sent HELLO. */
    requirePeerHello: z.boolean().default(true),
    /** Answer PING with PONG (the PING is delivered too). */
    answerPing: z.boolean().default(true),
    /** First seq this side sends. */
    initialSeq: z.number().int().min(0).max(65535).default(0),
    /** For `receiveBytes`. */
    framer: framerOptionsSchema.default({ maxLineBytes: 250 }),
  })
  .strict()
  .refine((options) => options.peerTalker !== options.localTalker, {
    message: 'peerTalker must differ from localTalker',
    path: ['peerTalker'],
  });

export type LinkOptions = z.input<typeof linkOptionsSchema>;
export type ResolvedLinkOptions = z.output<typeof linkOptionsSchema>;

export function resolveLinkOptions(options: LinkOptions): ResolvedLinkOptions {
  const parsed = linkOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new ProtocolError('bad_options', `bad link options: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}
