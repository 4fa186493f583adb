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

export function logger(namespace: string): Logger {
  return root.child({ ns: namespace });
}
