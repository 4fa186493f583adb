/**
 * Namespaced structured logs (pino) on stderr, so stdout stays clean for
 * command output (JSON lines, tables). Level from TABLESIDE_LOG_LEVEL.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Logger, pino } from 'pino';

/** Where the lines go now: stderr, or a file while a live terminal view owns the screen. */
let sink: { write(line: string): unknown } = pino.destination({ fd: 2, sync: false });

const root = pino(
  { level: process.env.TABLESIDE_LOG_LEVEL ?? 'info', base: undefined },
  { write: (line: string) => sink.write(line) },
);

/**
 * Sends the logs to `path` (appended) from now on: a JSON line written on
 * the terminal under a live view, or above a table a command prints, is
 * noise to the person reading it. The level stays as it was.
 */
export function logToFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  sink = pino.destination({ dest: path, append: true, sync: true });
}

/**
 * Sends the log lines to `destination` from now on (the test suite keeps a
 * test's lines and shows them only when it fails). The level stays as it was.
 */
export function logToSink(destination: { write(line: string): unknown }): void {
  sink = destination;
}

export type { Logger };

export function logger(namespace: string): Logger {
  return root.child({ ns: namespace });
}
