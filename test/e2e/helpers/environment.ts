/**
 * What the end-to-end tests need from the machine (socat for the ptys,
 * mosquitto for the broker): the probes are test/helpers/tools.ts's, which
 * skip (or fail under TABLESIDE_REQUIRE_TOOLS=1) with the reason.
 */
export { mosquittoMissing, skipReason, socatMissing } from '../../helpers/tools.ts';

/** Resolves once `predicate` holds; rejects with `what` (and `detail()`) after `timeoutMs`. */
export async function until(
  predicate: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
  detail: () => string = () => '',
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
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
