/**
 * Temporary folders for tests that remove themselves: each is removed after
 * the test file that made it (an afterAll registered when this module is
 * imported, so it runs after the file's own hooks have stopped whatever used
 * the folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];

/** Removes every folder made so far (test/helpers/temp-cleanup.ts calls it after each file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

try {
  // Where each file imports its own copy of this module (isolated files), this hook is that file's.
  afterAll(removeTempDirs);
} catch {
  // Imported outside a vitest suite (`npm run bench` lanes reuse the tests'
  // pty and emulator helpers): no hook to register, so the folders are
  // removed when the process exits instead.
  process.once('exit', removeTempDirs);
}

/** A new empty folder under the temp dir, removed after this test file. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
