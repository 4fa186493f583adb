/**
 * A setup file of every lane: the log lines a test provokes (a failure path
 * logs its error on purpose: a refused record, a broken journal) are kept
 * with the test and written on stderr only when it fails, with the test's
 * name. A passing run's stderr is not filled with JSON lines that a new user
 * reads as breakage. The tableside children the helpers start have their
 * stderr captured the same way (test/e2e/helpers/daemon.ts: `describe()`).
 */
import { beforeEach } from 'vitest';
import { logToSink } from '../../firmware-host/log.ts';

/** The last lines a test logged are enough to see why it failed. */
const KEPT_LINES = 400;

let kept: string[] = [];
logToSink({
  write: (line: string) => {
    kept.push(line);
    if (kept.length > KEPT_LINES) kept.shift();
  },
});

beforeEach(({ task, onTestFailed }) => {
  const lines: string[] = [];
  kept = lines;
  onTestFailed(() => {
    if (lines.length === 0) return;
    process.stderr.write(
      `--- log lines of "${task.name}" (${lines.length}, the last ${KEPT_LINES} at most) ---\n${lines.join('')}`,
    );
  });
});
