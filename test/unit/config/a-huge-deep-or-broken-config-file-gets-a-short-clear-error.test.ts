/**
 * Issue 24, item 10: YAML nested 1,000 deep answered with the parser's
 * "Maximum call stack size exceeded"; 100,000 unclosed `[` gave a 788-line
 * error; there was no size cap (a 200 MB comment-only config was read into
 * 875 MB of memory, 600 MB ended in `RangeError: Invalid string length`).
 * Now the size is checked before reading, the nesting is capped, and the
 * error lists at most MAX_LISTED_ISSUES problems and says how many more.
 */
import { closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LISTED_ISSUES } from '../../../firmware-host/config/errors.ts';
import {
  type ConfigError,
  isConfigError,
  loadConfig,
} from '../../../firmware-host/config/index.ts';
import { MAX_CONFIG_BYTES, MAX_CONFIG_DEPTH } from '../../../firmware-host/config/loader.ts';
import { runCliSync } from '../../helpers/cli.ts';
import { tempDir } from '../../helpers/temp.ts';

function tempFile(name: string, text: string): string {
  const path = join(tempDir('tableside-config-cap-'), name);
  writeFileSync(path, text);
  return path;
}

async function failure(file: string): Promise<ConfigError> {
  const error = await loadConfig({ file, env: {} }).catch((caught: unknown) => caught);
  if (!isConfigError(error)) throw new Error(`expected a ConfigError, got ${String(error)}`);
  return error;
}

const TOO_DEEP = `nested more than ${MAX_CONFIG_DEPTH} levels deep; a config nests a few: is it the right file?`;

describe('a huge, deep or broken config file gets a short clear error', () => {
  it('refuses a file over 1 MiB before reading it, naming its size', async () => {
    // Sparse: the size is real, the disk and memory are not spent.
    const path = join(tempDir('tableside-config-cap-'), 'huge.yaml');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, 600 * 1024 * 1024);
    closeSync(fd);
    const error = await failure(path);
    expect(error.code).toBe('unreadable');
    expect(error.issues).toEqual([
      {
        path: '(file)',
        message: `${path} is ${600 * 1024 * 1024} bytes; a config file may be at most ${MAX_CONFIG_BYTES} bytes (1 MiB): is it the right file?`,
      },
    ]);
  });

  it('reads a file of exactly 1 MiB (comments) up to the cap', async () => {
    const line = `# ${'x'.repeat(62)}\n`;
    const text = `table: t1\n${line.repeat((MAX_CONFIG_BYTES - 10) / line.length)}`;
    const padded = text + '#'.repeat(MAX_CONFIG_BYTES - text.length - 1) + '\n';
    expect(padded.length).toBe(MAX_CONFIG_BYTES);
    expect((await loadConfig({ file: tempFile('big.yaml', padded), env: {} })).config.table).toBe(
      't1',
    );
  });

  it('answers YAML nested 1,000 deep, flow or block, with the nesting cap, not a stack overflow', async () => {
    const flow = `table: t1\nx: ${'['.repeat(1000)}${']'.repeat(1000)}\n`;
    const block = `${Array.from({ length: 1000 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`;
    for (const [name, text] of [
      ['flow.yaml', flow],
      ['block.yaml', block],
    ] as const) {
      const error = await failure(tempFile(name, text));
      expect(error.code).toBe('syntax');
      expect(error.issues.length).toBeGreaterThan(0);
      for (const issue of error.issues)
        expect(issue.message).toMatch(
          new RegExp(`${name}:\\d+:\\d+: ${TOO_DEEP.replace(/[?.]/g, '\\$&')}$`),
        );
      expect(error.message).not.toMatch(/call stack/i);
    }
  });

  it('refuses JSON and YAML one level deeper than the cap, and takes the cap itself', async () => {
    const nested = (levels: number) =>
      `{"table":"t1","x":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    for (const ext of ['json', 'yaml']) {
      const error = await failure(tempFile(`deep.${ext}`, nested(MAX_CONFIG_DEPTH + 1)));
      expect(error.issues).toEqual([
        { path: '(file)', message: expect.stringContaining(TOO_DEEP) },
      ]);
      // The cap is not reached by a config `MAX_CONFIG_DEPTH` deep: the schema speaks instead.
      const schema = await failure(tempFile(`ok.${ext}`, nested(MAX_CONFIG_DEPTH)));
      expect(schema.code).toBe('invalid');
    }
  });

  it('lists 20 problems of 100,000 unclosed [ and says how many more', async () => {
    const path = tempFile('unclosed.yaml', '['.repeat(100_000));
    const error = await failure(path);
    expect(error.issues.length).toBeGreaterThan(MAX_LISTED_ISSUES);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(1 + MAX_LISTED_ISSUES + 1);
    expect(lines.at(-1)).toBe(
      `  … and ${error.issues.length - MAX_LISTED_ISSUES} more (fix the first ones: the rest often follow from them)`,
    );
    expect(error.message).not.toMatch(/call stack/i);

    // `tableside config check` prints the same short list and exits 2.
    const run = runCliSync(['config', 'check', path]);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1 + MAX_LISTED_ISSUES + 1);
  });
});
