/**
 * One conformance run's shared state: the host's wire, what the device has
 * shown so far (its HELLO, its talker, the withheld event), the results, and
 * whether the line is down. `check` runs one host check with its timeout and
 * records its result; the checks themselves are data (host-checks.ts).
 */
import { CodedError } from '../../device-protocol/coded-error.ts';
import type { DeviceTalker, Frame } from '../../device-protocol/frame.ts';
import { encodeFrame } from '../../device-protocol/frame.ts';
import type { HelloMessage } from '../../device-protocol/messages.ts';
import {
  type CheckDefinition,
  type CheckId,
  type CheckResult,
  checkDefinition,
  resultOf,
} from './checks.ts';
import type { ConformanceOptions } from './options.ts';
import { HostWire, LineClosed, type Received, SYSTEM_CLOCK, type WireClock } from './wire.ts';

/** A prerequisite the check needs is missing: it is reported not run. */
export class NotRun extends CodedError<'not_run'> {
  override readonly name = 'NotRun';
  constructor(message: string) {
    super('not_run', message);
  }
}

/** A pass (its detail), a check that does not apply, or a verdict whose weight the run decides. */
export type Outcome =
  | string
  | { skip: string }
  | { pass: string; required?: boolean }
  | { fail: string; required?: boolean };

function requiredOf(outcome: { required?: boolean }): { required?: boolean } {
  return outcome.required === undefined ? {} : { required: outcome.required };
}

export function ackOf(seq: number) {
  return (frame: Frame) => frame.type === 'ACK' && frame.fields[0] === String(seq);
}

export function nakOf(seq: number | undefined, reasons: readonly string[]) {
  return (frame: Frame) =>
    frame.type === 'NAK' &&
    (seq === undefined || frame.fields[0] === String(seq) || frame.fields[0] === '') &&
    reasons.includes(frame.fields[1] ?? '');
}

export function pongOf(token: string) {
  return (frame: Frame) => frame.type === 'PONG' && frame.fields[0] === token;
}

export function sameLine(a: Frame) {
  const line = encodeFrame(a);
  return (frame: Frame) => frame.seq === a.seq && encodeFrame(frame) === line;
}

export function describe(frame: Frame): string {
  return `${frame.type} ${frame.seq}`;
}

export class ConformanceRun {
  readonly clock: WireClock;
  readonly wire: HostWire;
  readonly results = new Map<CheckId, CheckResult>();
  /** Why the rest of the checks cannot run, once the line is gone. */
  lineDown: string | undefined;
  hello: { received: Received; message: HelloMessage } | undefined;
  talker: DeviceTalker | undefined;
  /** The device's first event, whose ACK the host withholds. */
  event: Received | undefined;
  hostHelloSeq: number | undefined;
  /** The PING line sent, for the duplicate check to send again. */
  pingLine = '';
  pingSeq = -1;
  /** The inbox length when the withheld events were ACKed. */
  ackedFrom = 0;

  constructor(readonly options: ConformanceOptions) {
    this.clock = options.clock ?? SYSTEM_CLOCK;
    this.wire = new HostWire(options.transport, this.clock);
    this.talker = options.talker;
  }

  record(result: CheckResult): void {
    this.results.set(result.id, result);
    this.options.onResult?.(result);
  }

  timeoutOf(definition: CheckDefinition): number {
    return this.options.scripted || definition.humanTimeoutMs === undefined
      ? definition.timeoutMs
      : definition.humanTimeoutMs;
  }

  needHello(): { received: Received; message: HelloMessage } {
    if (this.hello === undefined) throw new NotRun('not run: no valid HELLO from the device');
    return this.hello;
  }

  needEvent(): Received {
    if (this.event === undefined) throw new NotRun('not run: the device reported no event');
    return this.event;
  }

  /** Tells the person at the device what to do, unless the device acts by itself. */
  instruct(text: string): void {
    if (!this.options.scripted) this.options.instruct?.(text);
  }

  /** A PING answered (ACK and PONG): the device still works after what was sent before. */
  async stillAnswers(timeoutMs: number, token: string): Promise<void> {
    const from = this.wire.inbox.length;
    const seq = await this.wire.send({ type: 'PING', token });
    await this.wire.waitFor(`ACK of PING ${seq} sent after that`, ackOf(seq), timeoutMs, from);
    await this.wire.waitFor(`PONG ${token} after that`, pongOf(token), timeoutMs, from);
  }

  /** Opens the line; a line that does not open fails the HELLO check and stops the run. */
  async open(): Promise<void> {
    try {
      await this.wire.open(this.options.openTimeoutMs ?? 5_000);
    } catch (error) {
      this.lineDown = `cannot open ${this.options.link}: ${(error as Error).message}`;
      this.record(resultOf('hello', 'fail', this.lineDown));
    }
  }

  /**
   * Runs one check and records its result: a timeout or a closed line fails it (naming what
   * the device did), a missing prerequisite reports it not run, `{ skip }` not applicable.
   */
  async check(id: CheckId, body: (timeoutMs: number) => Promise<Outcome>): Promise<void> {
    const definition = checkDefinition(id);
    if (this.lineDown !== undefined) {
      this.record(resultOf(id, 'skip', `not run: ${this.lineDown}`));
      return;
    }
    const started = this.clock.now();
    const timeoutMs = this.timeoutOf(definition);
    // A check waits at most a few times its timeout in all (its waits one after the other);
    // this bound is a safety net, so that no check can outlast it whatever the line does.
    const budgetMs = 4 * timeoutMs + 5_000;
    try {
      const outcome = await this.wire.within(
        body(timeoutMs),
        budgetMs,
        `did not finish within ${budgetMs} ms`,
      );
      this.recordOutcome(id, outcome, Math.round(this.clock.now() - started));
    } catch (error) {
      const ms = Math.round(this.clock.now() - started);
      if (error instanceof NotRun) {
        this.record(resultOf(id, 'skip', error.message));
        return;
      }
      this.record(resultOf(id, 'fail', (error as Error).message, { ms }));
      if (error instanceof LineClosed) await this.recover(error);
      else if (this.clock.now() - started >= budgetMs) {
        this.lineDown = `${id} ${(error as Error).message}`;
      }
    }
  }

  private recordOutcome(id: CheckId, outcome: Outcome, ms: number): void {
    if (typeof outcome === 'string') this.record(resultOf(id, 'pass', outcome, { ms }));
    else if ('skip' in outcome)
      this.record(resultOf(id, 'skip', outcome.skip, { required: false }));
    else if ('pass' in outcome) {
      this.record(resultOf(id, 'pass', outcome.pass, { ms, ...requiredOf(outcome) }));
    } else this.record(resultOf(id, 'fail', outcome.fail, { ms, ...requiredOf(outcome) }));
  }

  /** The device dropped the line: one reopen, as a host would; else the rest is not run. */
  private async recover(error: LineClosed): Promise<void> {
    try {
      await this.wire.close();
      await this.wire.open(this.options.openTimeoutMs ?? 3_000);
    } catch (reopen) {
      this.lineDown = `the line closed (${error.info.reason}) and did not reopen: ${(reopen as Error).message}`;
    }
  }
}
