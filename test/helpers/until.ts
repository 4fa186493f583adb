/**
 * The suite's one wait: resolves once `predicate` holds, polling every
 * `pollMs` (10 ms; 1 ms where a test acts the moment something changes);
 * rejects after `timeoutMs` naming `what` (and `detail()`). Tests wait on the
 * condition they need, never for a fixed time: a loaded machine only makes
 * them slower, not wrong. A fixed wait that must stay says why
 * (`// fixed wait: <kind>: <why>`, test/architecture/fixed-waits.ts).
 */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  detail: () => string = () => '',
  pollMs = 10,
): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (await predicate()) return;
    if (Date.now() - started > timeoutMs) {
      const more = detail();
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}${more ? `\n${more}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
