/**
 * The daemon's resident memory grew about 0.3 MB a shoe: mqtt-packet caches
 * one encoded length per distinct packet length, each a slice of Node's
 * shared Buffer pool that keeps its whole pool block alive. Each child below
 * encodes PUBLISH packets of 2,000 new lengths with other pool allocations in
 * between, as the daemon does between two cards, and reports how many bytes
 * of ArrayBuffers survive a full GC. A fresh process per case: the cache is
 * per process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

const NEW_LENGTHS = 2000;

function childScript(fill: boolean): string {
  return `
import { writeToStream } from 'mqtt-packet';
import { fillMqttLengthCache } from ${JSON.stringify(`${process.cwd()}/firmware-host/mqtt/packet-length-cache.ts`)};
${fill ? 'fillMqttLengthCache();' : 'writeToStream.cacheNumbers = false;'}
const sink = { write: () => true };
const payload = Buffer.alloc(16384);
let allocated = 0;
globalThis.gc(); globalThis.gc();
const before = process.memoryUsage().arrayBuffers;
for (let length = 5000; length < 5000 + ${NEW_LENGTHS}; length++) {
  writeToStream({ cmd: 'publish', topic: 't', payload: payload.subarray(0, length), qos: 0, dup: false, retain: false }, sink);
  // The rest of a card's work allocates from the same pool and lets it go.
  allocated += Buffer.allocUnsafe(3000).length;
}
globalThis.gc(); globalThis.gc();
process.stdout.write(String(process.memoryUsage().arrayBuffers - before));
`;
}

async function retainedBytes(fill: boolean): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', childScript(fill)],
    { cwd: process.cwd() },
  );
  return Number(stdout);
}

describe('the MQTT encoder length cache', () => {
  it('left to itself, pins a pool block for each new packet length (the leak this guards against)', async () => {
    const retained = await retainedBytes(false);
    // 2,000 lengths, at least one 8 KiB block for every three of them.
    expect(retained).toBeGreaterThan((NEW_LENGTHS / 3) * 8192);
  });

  it('filled at start-up, pins nothing more for packets of new lengths', async () => {
    const retained = await retainedBytes(true);
    expect(retained).toBeLessThan(64 * 1024);
  });
});
