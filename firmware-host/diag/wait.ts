/** How the scripted `diag --simulate` sessions (a shoe's, a wheel's) wait on what they play. */

/** Unref'd: a timeout raced against an answer must not keep the process alive after it. */
export const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });

export async function until(
  predicate: () => boolean,
  timeoutMs: number,
  stepMs = 5,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) return false;
    await sleep(stepMs);
  }
  return true;
}
