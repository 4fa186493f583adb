/**
 * Issue 17, item 3: `tableside decode FILE` once died with EBADF. It read a
 * stream on the bare fd of a FileHandle it kept no reference to; the garbage
 * collector closed that handle mid-read. Run here with a collection every
 * millisecond, it must decode every frame of a capture and exit 0.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'tableside-decode-gc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tableside decode FILE', () => {
  it('decodes a 5 MB capture whole while the garbage collector runs every millisecond', () => {
    const frames = 120_000;
    const lines: string[] = [];
    for (let seq = 0; seq < frames; seq++) {
      lines.push(
        encodeFrame({
          talker: 'SH',
          seq: seq % 65536,
          type: 'CARD',
          fields: ['AS', 'red', 'down'],
        }),
      );
    }
    const capture = join(dir, 'capture.bin');
    writeFileSync(capture, lines.join(''));
    const collector = join(dir, 'collect-often.mjs');
    writeFileSync(collector, 'setInterval(() => globalThis.gc(), 1).unref();\n');
    // As the helper's runCliSync, with room for the 14 MB of JSON lines it prints.
    const result = spawnSync(process.execPath, [...cliEntryArgs(), 'decode', capture], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 60_000,
      env: { ...process.env, NODE_OPTIONS: `--expose-gc --import ${collector}` },
    });
    expect(result.stderr).not.toContain('EBADF');
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(frames);
  }, 90_000);
});
