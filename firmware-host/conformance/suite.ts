/**
 * The host side of the conformance suite: it scripts the host's frames
 * itself (withholds an ACK to see the device retransmit, sends a frame with
 * a bad CRC, sends the same frame twice, drops the line and reopens it) and
 * records a result per check of checks.ts. Every wait has the timeout its
 * check states; a line that closes ends the wait at once, and the checks
 * that need the line are then reported as not run. The verdict comes last,
 * with the checks judged from the whole trace (trace.ts).
 */
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import { keyFingerprint } from '../../device-protocol/auth/keys.ts';
import { type DeviceTalker, encodeFrame, type Frame } from '../../device-protocol/frame.ts';
import {
  decodeMessage,
  type HelloMessage,
  PROTOCOL_VERSION,
  protocolAtLeast,
} from '../../device-protocol/messages.ts';
import { VERSION } from '../../device-protocol/version.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import {
  CHECKS,
  type CheckDefinition,
  type CheckId,
  type CheckResult,
  checkDefinition,
  HUMAN_STEP,
  resultOf,
} from './checks.ts';
import { type ConformanceReport, type DeviceSummary, summarize } from './report.ts';
import { isEventType, judgeTrace, type TraceEntry } from './trace.ts';
import {
  HostWire,
  LineClosed,
  type Received,
  SYSTEM_CLOCK,
  WaitTimeout,
  type WireClock,
} from './wire.ts';

export interface ConformanceOptions {
  /** The URL the transport was opened from, for the report. */
  readonly link: string;
  /** The host's end of the line, not yet open. */
  readonly transport: Transport;
  /** The talker the device must be; absent: whatever its HELLO says. */
  readonly talker?: DeviceTalker;
  /** The device's paired key (§ 5.1): the auth check becomes required. */
  readonly key?: DevicePublicKey;
  /** The device acts by itself (a simulator's scenario): no instructions, the shorter waits. */
  readonly scripted?: boolean;
  /** Shows a person what to do (deal a card, spin the wheel). */
  readonly instruct?: (text: string) => void;
  /** Each result as it is known (a progress line). */
  readonly onResult?: (result: CheckResult) => void;
  /** Everything that crossed the line, at the end (for a capture file). */
  readonly onTrace?: (trace: readonly TraceEntry[]) => void;
  readonly clock?: WireClock;
  readonly openTimeoutMs?: number;
}

/** The host's HELLO (model `tableside`, § 4) names no firmware image: the suite is not one. */
const HOST_FIRMWARE_SHA256 = '0'.repeat(64);

/** How long the suite watches for something that must NOT come (a second PONG) after the ACK that did. */
const GRACE_MS = 1_000;

class NotRun extends Error {}

/** A pass (its detail), a check that does not apply, or a verdict whose weight the run decides. */
type Outcome =
  | string
  | { skip: string }
  | { pass: string; required?: boolean }
  | { fail: string; required?: boolean };

function requiredOf(outcome: { required?: boolean }): { required?: boolean } {
  return outcome.required === undefined ? {} : { required: outcome.required };
}

function ackOf(seq: number) {
  return (frame: Frame) => frame.type === 'ACK' && frame.fields[0] === String(seq);
}

function nakOf(seq: number | undefined, reasons: readonly string[]) {
  return (frame: Frame) =>
    frame.type === 'NAK' &&
    (seq === undefined || frame.fields[0] === String(seq) || frame.fields[0] === '') &&
    reasons.includes(frame.fields[1] ?? '');
}

function pongOf(token: string) {
  return (frame: Frame) => frame.type === 'PONG' && frame.fields[0] === token;
}

function sameLine(a: Frame) {
  const line = encodeFrame(a);
  return (frame: Frame) => frame.seq === a.seq && encodeFrame(frame) === line;
}

function describe(frame: Frame): string {
  return `${frame.type} ${frame.seq}`;
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const clock = options.clock ?? SYSTEM_CLOCK;
  const wire = new HostWire(options.transport, clock);
  const results = new Map<CheckId, CheckResult>();
  let lineDown: string | undefined;
  let hello: { received: Received; message: HelloMessage } | undefined;
  let talker = options.talker;
  let event: Received | undefined;

  const record = (result: CheckResult) => {
    results.set(result.id, result);
    options.onResult?.(result);
  };
  const timeoutOf = (definition: CheckDefinition) =>
    options.scripted || definition.humanTimeoutMs === undefined
      ? definition.timeoutMs
      : definition.humanTimeoutMs;
  const needHello = () => {
    if (hello === undefined) throw new NotRun('not run: no valid HELLO from the device');
    return hello;
  };
  const needEvent = () => {
    if (event === undefined) throw new NotRun('not run: the device reported no event');
    return event;
  };

  /**
   * Runs one check and records its result: a timeout or a closed line fails it (naming what
   * the device did), a missing prerequisite reports it not run, `{ skip }` not applicable.
   */
  const check = async (id: CheckId, body: (timeoutMs: number) => Promise<Outcome>) => {
    const definition = checkDefinition(id);
    if (lineDown !== undefined) {
      record(resultOf(id, 'skip', `not run: ${lineDown}`));
      return;
    }
    const started = clock.now();
    const timeoutMs = timeoutOf(definition);
    // A check waits at most a few times its timeout in all (its waits one after the other);
    // this bound is a safety net, so that no check can outlast it whatever the line does.
    const budgetMs = 4 * timeoutMs + 5_000;
    try {
      const outcome = await wire.within(
        body(timeoutMs),
        budgetMs,
        `did not finish within ${budgetMs} ms`,
      );
      const ms = Math.round(clock.now() - started);
      if (typeof outcome === 'string') record(resultOf(id, 'pass', outcome, { ms }));
      else if ('skip' in outcome) record(resultOf(id, 'skip', outcome.skip, { required: false }));
      else if ('pass' in outcome) {
        record(resultOf(id, 'pass', outcome.pass, { ms, ...requiredOf(outcome) }));
      } else record(resultOf(id, 'fail', outcome.fail, { ms, ...requiredOf(outcome) }));
    } catch (error) {
      const ms = Math.round(clock.now() - started);
      if (error instanceof NotRun) {
        record(resultOf(id, 'skip', error.message));
        return;
      }
      record(resultOf(id, 'fail', (error as Error).message, { ms }));
      if (error instanceof LineClosed) await recover(error);
      else if (clock.now() - started >= budgetMs) lineDown = `${id} ${(error as Error).message}`;
    }
  };

  /** The device dropped the line: one reopen, as a host would; else the rest is not run. */
  const recover = async (error: LineClosed) => {
    try {
      await wire.close();
      await wire.open(options.openTimeoutMs ?? 3_000);
    } catch (reopen) {
      lineDown = `the line closed (${error.info.reason}) and did not reopen: ${(reopen as Error).message}`;
    }
  };

  try {
    await wire.open(options.openTimeoutMs ?? 5_000);
  } catch (error) {
    lineDown = `cannot open ${options.link}: ${(error as Error).message}`;
    record(resultOf('hello', 'fail', lineDown));
  }

  // § 4: HELLO first, held back while its ACK is withheld (§ 3.4: sent again).
  if (!results.has('hello')) {
    await check('hello', async (timeoutMs) => {
      const isHello = (frame: Frame) => frame.type === 'HELLO';
      const soon = Math.min(2_000, timeoutMs);
      const received = await wire.waitFor('HELLO', isHello, soon, 0).catch(async (error) => {
        if (!(error instanceof WaitTimeout)) throw error;
        if (!options.scripted) {
          options.instruct?.(
            `switch the device on, reset it or plug its cable in: it sends HELLO then (waiting up to ${Math.round((timeoutMs - soon) / 1000)} s)`,
          );
        }
        return wire.waitFor('HELLO', isHello, timeoutMs - soon, 0).catch((late) => {
          // Name the whole wait and all the device sent in it, not the second half's.
          if (!(late instanceof WaitTimeout)) throw late;
          throw new WaitTimeout('HELLO', timeoutMs, wire.sawSince(0));
        });
      });
      const frame = received.frame;
      const decoded = decodeMessage(frame);
      if (decoded.kind !== 'message' || decoded.message.type !== 'HELLO') {
        return {
          fail: `HELLO ${frame.seq} is invalid: ${decoded.kind === 'invalid' ? decoded.error : decoded.kind}`,
        };
      }
      const message = decoded.message;
      if (frame.talker === 'HO') return { fail: 'the HELLO came from talker HO, the host' };
      if (options.talker !== undefined && frame.talker !== options.talker) {
        return { fail: `HELLO from talker ${frame.talker}, expected ${options.talker}` };
      }
      if (!message.protocol.startsWith('1.')) {
        return { fail: `protocol ${message.protocol}: the host speaks major version 1 (§ 4)` };
      }
      talker = frame.talker;
      hello = { received, message };
      const naked = wire.trace.some((entry) => entry.dir === 'out' && entry.frame?.type === 'NAK');
      return `${naked ? 'after NAK hello (it was running before the line opened): ' : ''}${frame.talker} ${message.model} ${message.serial} protocol ${message.protocol} firmware ${message.firmware}`;
    });
  }

  await check('hello-retransmit', async (timeoutMs) => {
    const { received } = needHello();
    const copy = await wire.waitFor(
      `second copy of HELLO ${received.frame.seq}`,
      (frame) => frame.type === 'HELLO',
      timeoutMs,
      received.index + 1,
    );
    if (!sameLine(received.frame)(copy.frame)) {
      // § 3.8: a new HELLO may replace an unACKed one; the seq must stay.
      if (copy.frame.seq !== received.frame.seq) {
        return {
          fail: `sent a new HELLO ${copy.frame.seq} instead of HELLO ${received.frame.seq} again`,
        };
      }
    }
    hello = { received: copy, message: hello!.message };
    return `HELLO ${copy.frame.seq} again after ${Math.round(copy.at - received.at)} ms`;
  });

  // The HELLO's ACK, then (1.4) the CHALLENGE, then the host's own HELLO (§ 4, § 5.2).
  let hostHelloSeq: number | undefined;
  if (hello !== undefined && lineDown === undefined) {
    wire.autoAck = true;
    const latest = [...wire.inbox].reverse().find((received) => received.frame.type === 'HELLO')!;
    await wire.ack(latest.frame.seq);
    wire.engageAuth(latest.frame, talker!, options.key);
    hostHelloSeq = await wire.send({
      type: 'HELLO',
      model: 'tableside',
      serial: 'conformance',
      protocol: PROTOCOL_VERSION,
      firmware: VERSION,
      firmwareSha256: HOST_FIRMWARE_SHA256,
    });
  }

  await check('host-hello', async (timeoutMs) => {
    needHello();
    const ack = await wire.waitFor(
      `ACK of the host's HELLO ${hostHelloSeq}`,
      ackOf(hostHelloSeq!),
      timeoutMs,
      0,
    );
    return `ACK ${ack.frame.fields[0]} in ${describe(ack.frame)}`;
  });

  await check('auth', async (timeoutMs) => {
    const { message } = needHello();
    if (!protocolAtLeast(message.protocol, '1.4')) {
      return {
        skip: `the device announced ${message.protocol}: authentication starts at 1.4${options.key ? ' (a --key was given)' : ''}`,
      };
    }
    const started = clock.now();
    while (wire.authState === 'challenging' && clock.now() - started < timeoutMs) {
      await wire.pause(50);
      if (wire.closedBy) throw new LineClosed('a PROOF', wire.closedBy);
    }
    const outcome = wire.authLog.find(
      (action) =>
        action.kind === 'authenticated' ||
        action.kind === 'unauthenticated' ||
        action.kind === 'failed',
    );
    const required = options.key !== undefined;
    if (outcome === undefined) {
      return { fail: `no PROOF within ${timeoutMs} ms of the CHALLENGE (§ 5.2)`, required };
    }
    if (outcome.kind === 'authenticated') {
      return {
        pass: `proved key ${keyFingerprint(outcome.key)}${outcome.paired ? ', the paired one' : ' (not compared: no --key)'}`,
        required,
      };
    }
    const proofs = wire.trace.filter(
      (entry) =>
        entry.dir === 'in' && entry.event.kind === 'frame' && entry.event.frame.type === 'PROOF',
    ).length;
    if (proofs === 0) {
      // § 5.2: a 1.4 device answers every CHALLENGE, with PROOF,none if it has no key.
      return {
        fail: `announced ${message.protocol} but sent no PROOF: ${outcome.detail}`,
        required,
      };
    }
    if (outcome.kind === 'unauthenticated') {
      const detail = `runs unauthenticated: ${outcome.detail}`;
      return required ? { fail: detail, required } : { pass: `${detail} (no --key: a bench)` };
    }
    return { fail: `${outcome.reason}: ${outcome.detail}`, required };
  });

  if (wire.authState === 'failed' && lineDown === undefined) {
    // § 5.4: the host drops every frame of a device that failed to authenticate.
    lineDown = 'the device failed authentication, so a host drops its frames (§ 5.4)';
  }

  const pingToken = 'cf1';
  let pingLine = '';
  let pingSeq = -1;
  await check('ping', async (timeoutMs) => {
    needHello();
    const from = wire.inbox.length;
    pingSeq = await wire.send({ type: 'PING', token: pingToken });
    pingLine = wire.lastLine;
    const ack = await wire.waitFor(`ACK of PING ${pingSeq}`, ackOf(pingSeq), timeoutMs, from);
    const pong = await wire.waitFor(`PONG ${pingToken}`, pongOf(pingToken), timeoutMs, from);
    return `ACK in ${describe(ack.frame)}, ${describe(pong.frame)} with token ${pingToken}`;
  });

  await check('duplicate', async (timeoutMs) => {
    needHello();
    if (pingLine === '') throw new NotRun('not run: the PING check sent nothing');
    const from = wire.inbox.length;
    const firstPong = wire.inbox.find((received) => pongOf(pingToken)(received.frame));
    await wire.sendLine(pingLine);
    const ack = await wire.waitFor(
      `ACK of the repeated PING ${pingSeq}`,
      ackOf(pingSeq),
      timeoutMs,
      from,
    );
    await wire.pause(GRACE_MS);
    const second = wire.inbox
      .slice(from)
      .find(
        (received) =>
          pongOf(pingToken)(received.frame) && received.frame.seq !== firstPong?.frame.seq,
      );
    if (second !== undefined) {
      return { fail: `answered the repeated PING again: a second PONG ${second.frame.seq}` };
    }
    return `ACKed again (${describe(ack.frame)}), no second PONG`;
  });

  await check('unknown-type', async (timeoutMs) => {
    needHello();
    const from = wire.inbox.length;
    const seq = await wire.sendFrame({ talker: 'HO', seq: 0, type: 'ZZCONFORM', fields: ['x'] });
    const ack = await wire.waitFor(`ACK of ZZCONFORM ${seq}`, ackOf(seq), timeoutMs, from);
    return `ZZCONFORM ${seq} ACKed in ${describe(ack.frame)}`;
  });

  /** A PING answered (ACK and PONG): the device still works after what was sent before. */
  const stillAnswers = async (timeoutMs: number, token: string) => {
    const from = wire.inbox.length;
    const seq = await wire.send({ type: 'PING', token });
    await wire.waitFor(`ACK of PING ${seq} sent after that`, ackOf(seq), timeoutMs, from);
    await wire.waitFor(`PONG ${token} after that`, pongOf(token), timeoutMs, from);
  };

  await check('nak-bad-crc', async (timeoutMs) => {
    needHello();
    const from = wire.inbox.length;
    const seq = wire.nextSeq;
    // The damaged copy does not take a seq: the device never received it.
    await wire.sendLine(wire.badCrcLine({ talker: 'HO', seq, type: 'PING', fields: ['crc1'] }));
    const nak = await wire.waitFor(
      `NAK,${seq},bad_crc`,
      (frame) => nakOf(seq, ['bad_crc'])(frame) || pongOf('crc1')(frame),
      timeoutMs,
      from,
    );
    if (nak.frame.type === 'PONG') return { fail: 'answered a PING whose CRC was wrong' };
    if (nak.frame.fields[0] !== String(seq)) {
      return {
        fail: `NAK without the seq (${describe(nak.frame)}): its head $HO,${seq}, was readable`,
      };
    }
    return `${describe(nak.frame)}: NAK,${seq},bad_crc`;
  });

  await check('nak-malformed', async (timeoutMs) => {
    needHello();
    const from = wire.inbox.length;
    const seq = wire.nextSeq;
    await wire.sendLine(`$HO,${seq},PING,bad1*XYZW\r\n`);
    const nak = await wire.waitFor(
      'NAK with reason malformed',
      nakOf(undefined, ['malformed']),
      timeoutMs,
      from,
    );
    return `${describe(nak.frame)}: NAK,${nak.frame.fields[0]},malformed`;
  });

  await check('nak-too-long', async (timeoutMs) => {
    needHello();
    const from = wire.inbox.length;
    const seq = wire.nextSeq;
    await wire.sendLine(`$HO,${seq},PING,${'A'.repeat(300)}*0000\r\n`);
    const nak = await wire
      .waitFor('NAK with reason too_long', nakOf(undefined, ['too_long']), timeoutMs, from)
      .catch((error: unknown) => {
        if (error instanceof LineClosed) throw error;
        return undefined;
      });
    await stillAnswers(timeoutMs, 'long1');
    if (nak === undefined) {
      return { fail: 'no NAK too_long for a 310-byte line (§ 3.3), though it still answers' };
    }
    return `${describe(nak.frame)}: NAK,${nak.frame.fields[0]},too_long; still answers a PING`;
  });

  await check('stale-ack', async (timeoutMs) => {
    const { received } = needHello();
    // Far behind anything the device sends in a run, so it is waiting for no such seq.
    const stale = (received.frame.seq + 30_000) % 65536;
    await wire.ack(stale);
    await stillAnswers(timeoutMs, 'stale1');
    return `ignored ACK ${stale}; still answers a PING`;
  });

  await check('commands', async (timeoutMs) => {
    needHello();
    const commands: { text: string; send: () => Promise<number> }[] = [];
    if (talker === 'SH') {
      commands.push({
        text: 'INDICATE,green,on',
        send: () => wire.send({ type: 'INDICATE', light: 'green', mode: 'on' }),
      });
      commands.push({
        text: 'GATE,unlock',
        send: () => wire.send({ type: 'GATE', action: 'unlock' }),
      });
    } else if (talker === 'SF') {
      commands.push({ text: 'SHUFFLE,1', send: () => wire.send({ type: 'SHUFFLE', decks: 1 }) });
    } else {
      return { skip: `${talker} takes no commands from the host (§ 7.4, § 7.5)` };
    }
    const done: string[] = [];
    for (const command of commands) {
      const from = wire.inbox.length;
      const seq = await command.send();
      await wire.waitFor(`ACK of ${command.text} (seq ${seq})`, ackOf(seq), timeoutMs, from);
      done.push(command.text);
    }
    return `ACKed ${done.join(', ')}`;
  });

  await check('event', async (timeoutMs) => {
    needHello();
    const already = wire.eventsSince(0).find((received) => !wire.acked.has(received.frame.seq));
    if (already === undefined && !options.scripted) {
      options.instruct?.(
        `${HUMAN_STEP[talker!]} (waiting up to ${Math.round(timeoutMs / 1000)} s)`,
      );
    }
    event =
      already ??
      (await wire.waitFor(
        'event (a card, a shuffle, a tag, a spin)',
        (frame) => !['HELLO', 'PING', 'PONG', 'ACK', 'NAK'].includes(frame.type),
        timeoutMs,
        0,
      ));
    return `${describe(event.frame)}: ${encodeFrame(event.frame).trimEnd()}`;
  });

  await check('retransmit', async (timeoutMs) => {
    const first = needEvent();
    const copy = await wire.waitFor(
      `${describe(first.frame)} again (its ACK withheld)`,
      (frame) => frame.seq === first.frame.seq && !['ACK', 'NAK'].includes(frame.type),
      timeoutMs,
      first.index + 1,
    );
    if (!sameLine(first.frame)(copy.frame)) {
      return {
        fail: `sent seq ${first.frame.seq} again as a different frame: ${encodeFrame(copy.frame).trimEnd()}`,
      };
    }
    return `the same line again after ${Math.round(copy.at - first.at)} ms`;
  });

  await check('nak-resend', async (timeoutMs) => {
    const first = needEvent();
    const from = wire.inbox.length;
    await wire.send({ type: 'NAK', nakedSeq: first.frame.seq, reason: 'bad_crc' });
    const sentAt = clock.now();
    const copy = await wire.waitFor(
      `${describe(first.frame)} resent at once on NAK,${first.frame.seq},bad_crc`,
      sameLine(first.frame),
      timeoutMs,
      from,
    );
    return `resent ${Math.round(copy.at - sentAt)} ms after the NAK`;
  });

  await check('nak-hello', async (timeoutMs) => {
    const first = needEvent();
    const from = wire.inbox.length;
    // What a host that restarted says to an event from a device it has no HELLO of (§ 4).
    await wire.send({ type: 'NAK', nakedSeq: first.frame.seq, reason: 'hello' });
    const hello = await wire.waitFor(
      `HELLO after NAK,${first.frame.seq},hello`,
      (frame) => frame.type === 'HELLO',
      timeoutMs,
      from,
    );
    const copy = await wire.waitFor(
      `${describe(first.frame)} again once HELLO ${hello.frame.seq} was ACKed`,
      (frame) => frame.seq === first.frame.seq && !['ACK', 'NAK', 'HELLO'].includes(frame.type),
      timeoutMs,
      hello.index + 1,
    );
    if (!sameLine(first.frame)(copy.frame)) {
      return {
        fail: `after its new HELLO, seq ${first.frame.seq} is a different frame: ${encodeFrame(copy.frame).trimEnd()}`,
      };
    }
    if (hello.frame.seq === 0 && first.frame.seq !== 0) {
      return {
        fail: 'its new HELLO took seq 0: it kept running, so it keeps counting (§ 3.7)',
      };
    }
    return `HELLO ${hello.frame.seq}, then ${describe(first.frame)} again`;
  });

  await check('reconnect', async (timeoutMs) => {
    const first = needEvent();
    await wire.reopen(options.openTimeoutMs ?? 5_000);
    const from = wire.inbox.length;
    await wire.send({
      type: 'HELLO',
      model: 'tableside',
      serial: 'conformance',
      protocol: PROTOCOL_VERSION,
      firmware: VERSION,
      firmwareSha256: HOST_FIRMWARE_SHA256,
    });
    const copy = await wire.waitFor(
      `${describe(first.frame)} again after the line reopened`,
      (frame) => frame.seq === first.frame.seq && !['ACK', 'NAK', 'HELLO'].includes(frame.type),
      timeoutMs,
      from,
    );
    if (!sameLine(first.frame)(copy.frame)) {
      return {
        fail: `after the reopen, seq ${first.frame.seq} is a different frame: ${encodeFrame(copy.frame).trimEnd()}`,
      };
    }
    const newHello = wire.inbox
      .slice(from, copy.index)
      .find((received) => received.frame.type === 'HELLO');
    if (newHello !== undefined && newHello.frame.seq === 0 && first.frame.seq !== 0) {
      return {
        fail: 'its new HELLO took seq 0: a reconnect keeps counting (§ 3.7)',
      };
    }
    return `${describe(first.frame)} again${newHello ? ` after HELLO ${newHello.frame.seq}` : " after the host's HELLO"}`;
  });

  // The withheld events are ACKed now; from here on every event is ACKed as it comes.
  const ackedFrom = wire.inbox.length;
  if (lineDown === undefined && wire.isOpen) {
    wire.ackEvents = true;
    // ACKs still unwritten after 5 s show as the device retransmitting, which the next checks judge.
    await wire.within(wire.ackPending(), 5_000, 'ACKs not written').catch(() => undefined);
  }

  await check('messages', async (timeoutMs) => {
    needHello();
    const first = needEvent();
    const wanted = completion(talker!);
    // The report counts from the withheld event, and must go on past it: an event the
    // device sends once that one is ACKed (stop and wait, § 3.5) and not a copy.
    const before = new Set(
      wire.inbox.slice(0, ackedFrom).map((received) => encodeFrame(received.frame)),
    );
    const frames: Frame[] = [];
    let moved = false;
    let detail: string | undefined;
    const take = (frame: Frame) => {
      frames.push(frame);
      if (isEventType(frame.type) && !before.has(encodeFrame(frame))) moved = true;
      detail = wanted.done(frames);
      return moved && detail !== undefined;
    };
    if (wire.inbox.slice(first.index).some((received) => take(received.frame))) return detail!;
    if (!options.scripted) {
      options.instruct?.(
        `${HUMAN_STEP[talker!]} (waiting up to ${Math.round(timeoutMs / 1000)} s)`,
      );
    }
    await wire.waitFor(
      moved ? wanted.what : `${wanted.what}, after the ACK of ${describe(first.frame)}`,
      take,
      timeoutMs,
    );
    return detail!;
  });

  if (wire.transport.isOpen) {
    // Teardown: ACKs left unwritten or a line already closed change no verdict of the run.
    await wire.within(wire.ackPending(), 5_000, 'ACKs not written').catch(() => undefined);
    await wire.close().catch(() => undefined); // a line already closed is closed enough
  }

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
  const judged = judgeTrace(wire.trace, talker, hello?.message.protocol);
  for (const result of judged) {
    if (result.id === 'hold-events' && hello === undefined && result.status === 'pass') {
      record(resultOf('hold-events', 'skip', 'not run: no valid HELLO from the device'));
    } else record(result);
  }
  const ordered = CHECKS.map((definition) => results.get(definition.id)).filter(
    (result): result is CheckResult => result !== undefined,
  );
  return summarize(options.link, device, ordered);
}

/** When a talker's report is whole (§ 7.2-7.4, § 7.5): the detail to print, or undefined. */
function completion(talker: DeviceTalker): {
  what: string;
  done: (frames: readonly Frame[]) => string | undefined;
} {
  const first = (frames: readonly Frame[], types: readonly string[]) =>
    frames.find((frame) => types.includes(frame.type) && decodeMessage(frame).kind === 'message');
  // The latest card or tag: the one the device went on to after the withheld one.
  const latest = (frames: readonly Frame[], types: readonly string[]) =>
    frames.findLast(
      (frame) => types.includes(frame.type) && decodeMessage(frame).kind === 'message',
    );
  switch (talker) {
    case 'SH':
      return {
        what: 'CARD (or FOREIGN, NOTAG) from the shoe',
        done: (frames) => {
          const card = latest(frames, ['CARD', 'FOREIGN', 'NOTAG']);
          return card ? `${encodeFrame(card).trimEnd()}` : undefined;
        },
      };
    case 'RD':
      return {
        what: 'CARD or TAG from the reader',
        done: (frames) => {
          const read = latest(frames, ['CARD', 'TAG']);
          return read ? `${encodeFrame(read).trimEnd()}` : undefined;
        },
      };
    case 'RW':
      return {
        what: 'RESULT (or NOSPIN) from the wheel',
        done: (frames) => {
          const end = first(frames, ['RESULT', 'NOSPIN']);
          if (end === undefined) return undefined;
          const before = frames.slice(0, frames.indexOf(end)).map((frame) => frame.type);
          const spin = ['ROTOR', 'BALL'].filter((type) => before.includes(type));
          return `${[...spin, end.type].join(', ')}: ${encodeFrame(end).trimEnd()}`;
        },
      };
    case 'SF':
      return {
        what: 'SHUFFLED (or SHUFFLED2) with its ORDER chunks from the shuffler',
        done: (frames) => shuffleDone(frames),
      };
  }
}

/** A SHUFFLED whose ORDER chunks (if it said `order`) cover positions 0 to count-1 once (§ 7.3). */
function shuffleDone(frames: readonly Frame[]): string | undefined {
  const seen = new Set<number>();
  const unique = frames.filter((frame) => {
    if (seen.has(frame.seq)) return false;
    seen.add(frame.seq);
    return true;
  });
  for (const [index, frame] of unique.entries()) {
    if (frame.type !== 'SHUFFLED' && frame.type !== 'SHUFFLED2') continue;
    if (decodeMessage(frame).kind !== 'message') continue;
    const count = Number(frame.fields[0]);
    const withOrder = frame.fields[1] === 'order';
    if (!withOrder) return `${frame.type} of ${count} cards, no order`;
    let covered = 0;
    for (const chunk of unique.slice(index + 1)) {
      if (chunk.type !== 'ORDER') continue;
      if (Number(chunk.fields[0]) !== covered) break;
      covered += chunk.fields.length - 1;
      if (covered >= count) {
        return `${frame.type} of ${count} cards with ORDER chunks covering 0-${count - 1}`;
      }
    }
  }
  return undefined;
}
