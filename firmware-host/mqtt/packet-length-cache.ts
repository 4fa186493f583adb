/**
 * Keeps the MQTT encoder from pinning memory shoe after shoe.
 *
 * mqtt-packet, the encoder under both MQTT.js and aedes, caches the encoded
 * "remaining length" of every packet shorter than 16,384 bytes: one Buffer
 * per distinct length, never evicted (mqtt-packet issue 163). Each is a 1-4
 * byte slice of Node's shared allocation pool, and a slice keeps its whole
 * pool block (`Buffer.poolSize`: 8 KiB on Node 20, 64 KiB on Node 24) alive.
 * A table publishes payloads of ever new lengths as its numbers grow, so each
 * new length pinned a fresh block: about 0.3 MB of resident memory a shoe.
 *
 * Filling the cache once, back to back, packs its entries into a few
 * contiguous blocks (16,384 × 8 bytes); the cache then never grows. Packets
 * of 0 and 1 bytes after the header cannot be made from a PUBLISH and are
 * left to the encoder: two entries at most.
 */
import { writeToStream } from 'mqtt-packet';

/** mqtt-packet caches lengths below this (writeToStream.js). */
export const CACHED_LENGTHS = 16_384;

let filled = false;

/** Fills mqtt-packet's length cache once per process; later calls do nothing. */
export function fillMqttLengthCache(): void {
  if (filled) return;
  filled = true;
  // MQTT.js turns the encoder's two-byte number cache off (65,536 Buffers,
  // about 6.5 MB of heap) when its client is made; the fill runs before that,
  // so it turns it off first, or the fill's first packet would build it.
  writeToStream.cacheNumbers = false;
  const payload = Buffer.alloc(CACHED_LENGTHS);
  // A PUBLISH with an empty topic has 2 bytes (the topic's length) before its
  // payload, so payloads of 0..16,381 bytes give remaining lengths 2..16,383.
  const discard = { write: () => true } as unknown as NodeJS.WritableStream;
  for (let length = 2; length < CACHED_LENGTHS; length++) {
    writeToStream(
      {
        cmd: 'publish',
        topic: '',
        payload: payload.subarray(0, length - 2),
        qos: 0,
        dup: false,
        retain: false,
      },
      discard,
    );
  }
}
