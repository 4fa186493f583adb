/**
 * Reconnect delays: exponential with "equal jitter" (half fixed, half
 * random), so a room full of tables that lost the same broker do not all
 * knock at the same instant, yet none waits less than half its step.
 *
 * The ceiling is short (2 s): a broker that comes back is connected to again
 * within it, however long it was away (a 30 s ceiling left tables up to 21 s
 * behind a broker already back); against a broker still down it is one
 * refused connect every 1-2 s, not a loop.
 */
export interface BackoffOptions {
  /** First delay. Default 500 ms. */
  initialMs: number;
  /** Ceiling. Default 2 s. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 500, maxMs: 2_000 };

/** The delay before reconnect attempt `attempt` (0 for the first), with `random()` in [0, 1). */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number,
): number {
  const step = Math.min(options.maxMs, options.initialMs * 2 ** Math.min(attempt, 30));
  return Math.round(step / 2 + random() * (step / 2));
}
