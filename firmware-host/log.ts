/**
 * Namespaced structured logs (pino) on stderr, so stdout stays clean for
 * command output (JSON lines, tables). Level from TABLESIDE_LOG_LEVEL.
 */
import { type Logger, pino } from 'pino';

const root = pino(
  { level: process.env.TABLESIDE_LOG_LEVEL ?? 'info', base: undefined },
  pino.destination({ fd: 2, sync: false }),
);

export type { Logger };

/** Quiets the logs while a live terminal view owns the screen (TABLESIDE_LOG_LEVEL still wins). */
export function setDefaultLogLevel(level: pino.Level): void {
  if (process.env.TABLESIDE_LOG_LEVEL === undefined) root.level = level;
}

export function logger(namespace: string): Logger {
  return root.child({ ns: namespace });
}
