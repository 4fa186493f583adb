/**
 * The host side of the conformance suite: it scripts the host's frames
 * itself (withholds an ACK to see the device retransmit, sends a frame with
 * a bad CRC, sends the same frame twice, drops the line and reopens it) and
 * records a result per check of checks.ts. The host checks are data
 * (host-checks.ts) and this runner a loop over them. Every wait has the
 * timeout its check states; a line that closes ends the wait at once, and
 * the checks that need the line are then reported as not run. The verdict
 * comes last, with the checks judged from the whole trace (trace.ts).
 */
import { CHECKS, type CheckResult, resultOf } from './checks.ts';
import { HOST_CHECKS } from './host-checks.ts';
import type { ConformanceOptions } from './options.ts';
import { type ConformanceReport, type DeviceSummary, summarize } from './report.ts';
import { ConformanceRun } from './run.ts';
import { judgeTrace } from './trace.ts';

export type { ConformanceOptions } from './options.ts';

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const run = new ConformanceRun(options);
  const { wire } = run;
  await run.open();
  for (const step of HOST_CHECKS) {
    await step.before?.(run);
    // A check already decided (the HELLO of a line that did not open) is not run again.
    if (run.results.has(step.id)) continue;
    await run.check(step.id, (timeoutMs) => step.judge(run, timeoutMs));
  }
  if (wire.transport.isOpen) {
    // Teardown: ACKs left unwritten or a line already closed change no verdict of the run.
    await wire.within(wire.ackPending(), 5_000, 'ACKs not written').catch(() => undefined);
    await wire.close().catch(() => undefined); // a line already closed is closed enough
  }
  const hello = run.hello;
  const device: DeviceSummary = hello
    ? {
        talker: hello.received.frame.talker,
        model: hello.message.model,
        serial: hello.message.serial,
        protocol: hello.message.protocol,
        firmware: hello.message.firmware,
      }
    : {};
  options.onTrace?.(wire.trace);
  const judged = judgeTrace(wire.trace, run.talker, hello?.message.protocol);
  for (const result of judged) {
    if (result.id === 'hold-events' && hello === undefined && result.status === 'pass') {
      run.record(resultOf('hold-events', 'skip', 'not run: no valid HELLO from the device'));
    } else run.record(result);
  }
  const ordered = CHECKS.map((definition) => run.results.get(definition.id)).filter(
    (result): result is CheckResult => result !== undefined,
  );
  return summarize(options.link, device, ordered);
}
