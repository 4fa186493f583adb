/**
 * `tableside analyze ruleset … | head -5`: the reader closes the pipe after
 * five lines. The command once died with an unhandled EPIPE and a stack
 * trace on the terminal; a closed pipe ends the output, and the command
 * exits 0 without a word on stderr.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { REPO_ROOT } from '../../helpers/cli.ts';

describe('a tableside command piped into a reader that stops early', () => {
  it('exits 0 with nothing on stderr when the pipe closes mid-output', async () => {
    const child = spawn(
      process.execPath,
      [...cliEntryArgs(), 'analyze', 'ruleset', 'tdc-casino-holdem'],
      { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Like `head -1`: take the first chunk, then close the pipe.
    const first = await new Promise<string>((resolve) => {
      child.stdout.once('data', (chunk: Buffer) => {
        child.stdout.destroy();
        resolve(chunk.toString());
      });
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(first).toContain('tdc-casino-holdem');
    expect(stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(code).toBe(0);
  }, 60_000);
});
