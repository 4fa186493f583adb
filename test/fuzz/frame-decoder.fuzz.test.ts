/**
 * Fuzz: well over 100,000 chunks of random bytes and mutated frames
 * (flipped bits, dropped and duplicated bytes, lost CR LF, over-long lines)
 * through the FrameDecoder. Nothing may throw,
 * the buffer may never pass the line limit, and every frame accepted must
 * really be in the input with a CRC that an independent bit-by-bit CRC
 * confirms. Seeded, so a failure can be replayed: FUZZ_SEED=<n>.
 */
import { describe, expect, it } from 'vitest';
import {
  encodeFrame,
  type FrameEvent,
  frameBody,
  MAX_LINE_BYTES,
  type Talker,
} from '../../device-protocol/frame.ts';
import { FrameDecoder } from '../../device-protocol/frame-decoder.ts';
import { createRandom } from '../../simulators/random.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20240611);
const CHUNKS = 120_000;

const seededFloats = (seed: number): (() => number) => createRandom(seed).float;

function bitwiseCrc(text: string): number {
  let crc = 0xffff;
  for (let index = 0; index < text.length; index++) {
    crc ^= text.charCodeAt(index) << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

interface Corpus {
  chunks: Buffer[];
  /** The whole input as one string, one character per byte. */
  text: string;
  validLines: Set<string>;
}

function buildCorpus(seed: number): Corpus {
  const random = seededFloats(seed);
  const int = (max: number) => Math.floor(random() * max);
  const talkers: Talker[] = ['SH', 'SF', 'RD', 'HO'];
  const samples: Array<[string, string[]]> = [
    ['CARD', ['AS', 'red', 'down']],
    ['CARD', ['TD', 'blue', 'up']],
    ['CUT', []],
    ['PING', ['k7']],
    ['ACK', ['17']],
    ['NAK', ['', 'bad_crc']],
    ['STATUS', ['ready', 'cards=412']],
    ['ORDER', ['0', ...Array.from({ length: 40 }, () => 'KS')]],
  ];
  const records: string[] = [];
  const validLines = new Set<string>();
  let chunkCount = 0;
  const chunks: Buffer[] = [];
  while (chunkCount < CHUNKS) {
    const [type, fields] = samples[int(samples.length)]!;
    let line = encodeFrame({ talker: talkers[int(4)]!, seq: int(65536), type, fields });
    validLines.add(line);
    const roll = random();
    if (roll < 0.15) {
      const at = int(line.length);
      line =
        line.slice(0, at) +
        String.fromCharCode(line.charCodeAt(at) ^ (1 << int(8))) +
        line.slice(at + 1);
    } else if (roll < 0.25) {
      const at = int(line.length);
      line = line.slice(0, at) + line.slice(at + 1);
    } else if (roll < 0.35) {
      const at = int(line.length);
      line = line.slice(0, at) + line[at] + line.slice(at);
    } else if (roll < 0.4) {
      line = `$SH,1,${'x'.repeat(200 + int(3000))}${random() < 0.5 ? '\r\n' : ''}`;
    } else if (roll < 0.47) {
      line = Array.from({ length: 1 + int(80) }, () => String.fromCharCode(int(256))).join('');
    } else if (roll < 0.5) {
      line = line.slice(0, -2); // CR LF lost
    }
    records.push(line);
    // Cut this record into chunks of 1-64 bytes.
    const buffer = Buffer.from(line, 'latin1');
    for (let start = 0; start < buffer.length; ) {
      const size = 1 + int(64);
      chunks.push(buffer.subarray(start, start + size));
      start += size;
      chunkCount++;
    }
  }
  records.push('\r\n');
  chunks.push(Buffer.from('\r\n'));
  return { chunks, text: records.join(''), validLines };
}

/** Every `$...*XXXX` followed by CR LF in the input: the only frames that may be accepted. */
function candidateLines(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(/\$[^$\r\n]*\*[0-9A-F]{4}\r\n/g)) found.add(match[0]);
  return found;
}

function checkAccepted(events: FrameEvent[], corpus: Corpus, candidates: Set<string>) {
  let frames = 0;
  let mutatedAccepted = 0;
  for (const event of events) {
    if (event.kind !== 'frame') continue;
    frames++;
    const line = encodeFrame(event.frame);
    expect(candidates.has(line), `accepted a frame not in the input: ${JSON.stringify(line)}`).toBe(
      true,
    );
    const crcText = line.slice(-6, -2);
    expect(bitwiseCrc(frameBody(event.frame))).toBe(Number.parseInt(crcText, 16));
    if (!corpus.validLines.has(line)) mutatedAccepted++;
  }
  return { frames, mutatedAccepted };
}

describe(`frame decoder fuzz (seed ${SEED})`, () => {
  const corpus = buildCorpus(SEED);
  const candidates = candidateLines(corpus.text);

  it(`survives ${CHUNKS} random and mutated chunks with a bounded buffer, measured after every chunk`, () => {
    expect(corpus.chunks.length).toBeGreaterThanOrEqual(100_000);
    const decoder = new FrameDecoder();
    const events: FrameEvent[] = [];
    let maxBuffered = 0;
    for (const chunk of corpus.chunks) {
      for (const event of decoder.push(chunk)) events.push(event);
      if (decoder.bufferedBytes > maxBuffered) maxBuffered = decoder.bufferedBytes;
    }
    events.push(...decoder.end());
    expect(maxBuffered).toBeLessThan(MAX_LINE_BYTES);
    const { frames, mutatedAccepted } = checkAccepted(events, corpus, candidates);
    const stats = decoder.stats;
    expect(stats.frames).toBe(frames);
    // Plenty of everything happened: frames, and every discard reason.
    expect(frames).toBeGreaterThan(5000);
    for (const reason of ['bad_crc', 'too_long', 'malformed', 'no_start'] as const) {
      expect(stats.discards[reason], reason).toBeGreaterThan(100);
    }
    // A 16-bit CRC lets through about 1 in 65536 random corruptions; bit flips never.
    expect(mutatedAccepted).toBeLessThan(5);
  });
});
