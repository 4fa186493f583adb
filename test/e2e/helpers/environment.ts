/**
 * What the end-to-end tests need from the machine (socat for the ptys,
 * mosquitto for the broker), and why a test is skipped when it is missing.
 */
import { mosquittoPath } from '../../helpers/broker.ts';
import { SOCAT, SOCAT_MISSING_REASON } from '../../integration/hardware/pty-pair.ts';

/** Why the pty-based end-to-end tests cannot run here, or undefined. */
export function socatMissing(): string | undefined {
  return SOCAT ? undefined : SOCAT_MISSING_REASON;
}

/**
 * Prints (once per file) that aedes stands in for mosquitto: the broker
 * helper falls back by itself, but a stop/start outage test needs a broker
 * in another process to be meaningful, so those tests skip instead.
 */
export function mosquittoMissing(): string | undefined {
  return mosquittoPath()
    ? undefined
    : 'mosquitto is not installed (apt-get install mosquitto): this test needs a broker process it can stop and start';
}

/** Logs and returns the first reason a test cannot run. */
export function skipReason(...reasons: Array<string | undefined>): string | undefined {
  const reason = reasons.find((found) => found !== undefined);
  if (reason) console.warn(`skipped: ${reason}`);
  return reason;
}

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
