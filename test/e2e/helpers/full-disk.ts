/**
 * A full disk under the daemon's journal, injected at the fs layer
 * (FileHandle.write, which the journal appends through) by a module
 * preloaded into the daemon (`env` of startDaemon). Past a byte budget:
 *
 * - `whole`: every write fails with ENOSPC;
 * - `tear-unit`: the first write that holds an input line followed by an
 *   event line is cut short 10 bytes into that event line, as a real full
 *   disk cuts a write in the middle (the input's line whole, its events
 *   not), and every write after it fails with ENOSPC.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const PRELOAD = `import { open } from 'node:fs/promises';
const budget = Number(process.env.TABLESIDE_TEST_DISK_BYTES);
const mode = process.env.TABLESIDE_TEST_DISK_MODE;
const probe = await open(process.execPath, 'r');
const prototype = Object.getPrototypeOf(probe);
await probe.close();
const write = prototype.write;
let used = 0;
let full = false;
const enospc = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC', errno: -28, syscall: 'write',
  });
/** Where a write holding an input line and then an event line is cut: inside the event line. */
function tearAt(bytes) {
  const text = bytes.toString('latin1');
  const input = text.indexOf('"kind":"input"');
  if (input < 0) return undefined;
  const end = text.indexOf('\\n', input);
  if (end < 0 || !text.slice(end + 1).startsWith('{') || text.indexOf('"kind":"event"', end) < 0) return undefined;
  return end + 1 + 10;
}
prototype.write = async function (buffer, ...rest) {
  if (full) throw enospc();
  if (typeof buffer === 'string' || typeof rest[0] !== 'number') {
    const size = typeof buffer === 'string' ? Buffer.byteLength(buffer) : buffer.byteLength;
    if (used + size > budget) {
      full = true;
      throw enospc();
    }
    used += size;
    return write.call(this, buffer, ...rest);
  }
  const offset = rest[0];
  const length = rest[1] ?? buffer.byteLength - offset;
  if (used + length > budget) {
    if (mode !== 'tear-unit') {
      full = true;
      throw enospc();
    }
    const cut = tearAt(buffer.subarray(offset, offset + length));
    if (cut !== undefined) {
      full = true;
      return write.call(this, buffer, offset, cut, ...rest.slice(2));
    }
  }
  used += length;
  return write.call(this, buffer, ...rest);
};
`;

/** Writes the preload into `dir` and returns the daemon's environment for it. */
export function fullDiskEnv(
  dir: string,
  budget: number,
  mode: 'whole' | 'tear-unit' = 'whole',
): Record<string, string> {
  const preload = join(dir, 'full-disk.mjs');
  writeFileSync(preload, PRELOAD);
  return {
    NODE_OPTIONS: `--import ${preload}`,
    TABLESIDE_TEST_DISK_BYTES: String(budget),
    TABLESIDE_TEST_DISK_MODE: mode,
  };
}
