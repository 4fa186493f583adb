/**
 * The host checks as data, in the order they run: each names its check in
 * checks.ts (its section, its timeout), an optional step the host takes on
 * the line before it (ACK the HELLO and send its own, stop at a failed
 * authentication, ACK the withheld events), and its judge, which scripts the
 * host's frames and says what the device did. The runner (suite.ts) is a
 * loop over this table.
 */
import { keyFingerprint } from '../../device-protocol/auth/keys.ts';
import { encodeFrame, type Frame } from '../../device-protocol/frame.ts';
import {
  decodeMessage,
  PROTOCOL_VERSION,
  protocolAtLeast,
} from '../../device-protocol/messages.ts';
import { VERSION } from '../../device-protocol/version.ts';
import { type CheckId, HUMAN_STEP } from './checks.ts';
import { completion } from './completion.ts';
import {
  confirmBadSignature,
  confirmNone,
  confirmOtherKey,
  goQuiet,
  hostLost,
  keepsCards,
  oldSession,
  replayedHandshake,
} from './hostile-host.ts';
import { helloProof } from './mutual-auth.ts';
import {
  ackOf,
  type ConformanceRun,
  describe,
  NotRun,
  nakOf,
  type Outcome,
  pongOf,
  sameLine,
} from './run.ts';
import { isEventType } from './trace.ts';
import { LineClosed, WaitTimeout } from './wire.ts';

/** The host's HELLO (model `tableside`, § 4) names no firmware image: the suite is not one. */
const HOST_FIRMWARE_SHA256 = '0'.repeat(64);

/** How long the suite watches for something that must NOT come (a second PONG) after the ACK that did. */
const GRACE_MS = 1_000;

const PING_TOKEN = 'cf1';

export interface HostCheck {
  readonly id: CheckId;
  /** What the host does on the line before the check, whatever became of the checks before. */
  readonly before?: (run: ConformanceRun) => Promise<void>;
  /** Scripts the host's side and judges what the device did, within `timeoutMs` per wait. */
  readonly judge: (run: ConformanceRun, timeoutMs: number) => Promise<Outcome>;
}

/** The host's own HELLO (§ 4). */
function sendHostHello(run: ConformanceRun): Promise<number> {
  return run.wire.send({
    type: 'HELLO',
    model: 'tableside',
    serial: 'conformance',
    protocol: PROTOCOL_VERSION,
    firmware: VERSION,
    firmwareSha256: HOST_FIRMWARE_SHA256,
  });
}

/** § 4: HELLO first, held back while its ACK is withheld (§ 3.4: sent again). */
async function hello(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire, options } = run;
  const isHello = (frame: Frame) => frame.type === 'HELLO';
  const soon = Math.min(2_000, timeoutMs);
  const received = await wire.waitFor('HELLO', isHello, soon, 0).catch(async (error) => {
    if (!(error instanceof WaitTimeout)) throw error;
    run.instruct(
      `switch the device on, reset it or plug its cable in: it sends HELLO then (waiting up to ${Math.round((timeoutMs - soon) / 1000)} s)`,
    );
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
  run.talker = frame.talker;
  run.hello = { received, message };
  const naked = wire.trace.some((entry) => entry.dir === 'out' && entry.frame?.type === 'NAK');
  return `${naked ? 'after NAK hello (it was running before the line opened): ' : ''}${frame.talker} ${message.model} ${message.serial} protocol ${message.protocol} firmware ${message.firmware}`;
}

async function helloRetransmit(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { received, message } = run.needHello();
  const copy = await run.wire.waitFor(
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
  run.hello = { received: copy, message };
  return `HELLO ${copy.frame.seq} again after ${Math.round(copy.at - received.at)} ms`;
}

/**
 * The HELLO's ACK, the host's own HELLO, then (1.4) the CHALLENGE (§ 4, § 5.2). The host's
 * HELLO goes before the CHALLENGE so that the device ACKs it before its PROOF: its ACK is
 * unsealed (it has no keys yet), and one that came after the PROOF the host took would be
 * dropped as a frame without a MAC, the host-hello check waiting for it in vain.
 */
async function answerHello(run: ConformanceRun): Promise<void> {
  const { wire } = run;
  if (run.hello === undefined || run.lineDown !== undefined) return;
  wire.autoAck = true;
  const latest = [...wire.inbox].reverse().find((received) => received.frame.type === 'HELLO')!;
  await wire.ack(latest.frame.seq);
  run.hostHelloSeq = await sendHostHello(run);
  wire.engageAuth(latest.frame, run.talker!, run.options.key, run.options.hostKey);
}

async function hostHello(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  run.needHello();
  const ack = await run.wire.waitFor(
    `ACK of the host's HELLO ${run.hostHelloSeq}`,
    ackOf(run.hostHelloSeq!),
    timeoutMs,
    0,
  );
  return `ACK ${ack.frame.fields[0]} in ${describe(ack.frame)}`;
}

async function auth(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire, options, clock } = run;
  const { message } = run.needHello();
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
}

/** § 5.4: the host drops every frame of a device that failed to authenticate. */
async function stopAtFailedAuth(run: ConformanceRun): Promise<void> {
  if (run.wire.authState === 'failed' && run.lineDown === undefined) {
    run.lineDown = 'the device failed authentication, so a host drops its frames (§ 5.4)';
  }
}

async function ping(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  const from = wire.inbox.length;
  run.pingSeq = await wire.send({ type: 'PING', token: PING_TOKEN });
  run.pingLine = wire.lastLine;
  const ack = await wire.waitFor(`ACK of PING ${run.pingSeq}`, ackOf(run.pingSeq), timeoutMs, from);
  const pong = await wire.waitFor(`PONG ${PING_TOKEN}`, pongOf(PING_TOKEN), timeoutMs, from);
  return `ACK in ${describe(ack.frame)}, ${describe(pong.frame)} with token ${PING_TOKEN}`;
}

async function duplicate(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  if (run.pingLine === '') throw new NotRun('not run: the PING check sent nothing');
  const from = wire.inbox.length;
  const firstPong = wire.inbox.find((received) => pongOf(PING_TOKEN)(received.frame));
  await wire.sendLine(run.pingLine);
  const ack = await wire.waitFor(
    `ACK of the repeated PING ${run.pingSeq}`,
    ackOf(run.pingSeq),
    timeoutMs,
    from,
  );
  await wire.pause(GRACE_MS);
  const second = wire.inbox
    .slice(from)
    .find(
      (received) =>
        pongOf(PING_TOKEN)(received.frame) && received.frame.seq !== firstPong?.frame.seq,
    );
  if (second !== undefined) {
    return { fail: `answered the repeated PING again: a second PONG ${second.frame.seq}` };
  }
  return `ACKed again (${describe(ack.frame)}), no second PONG`;
}

async function unknownType(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  const from = wire.inbox.length;
  const seq = await wire.sendFrame({ talker: 'HO', seq: 0, type: 'ZZCONFORM', fields: ['x'] });
  const ack = await wire.waitFor(`ACK of ZZCONFORM ${seq}`, ackOf(seq), timeoutMs, from);
  return `ZZCONFORM ${seq} ACKed in ${describe(ack.frame)}`;
}

async function nakBadCrc(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
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
}

async function nakMalformed(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
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
}

async function nakTooLong(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  const from = wire.inbox.length;
  const seq = wire.nextSeq;
  await wire.sendLine(`$HO,${seq},PING,${'A'.repeat(300)}*0000\r\n`);
  const nak = await wire
    .waitFor('NAK with reason too_long', nakOf(undefined, ['too_long']), timeoutMs, from)
    .catch((error: unknown) => {
      if (error instanceof LineClosed) throw error;
      return undefined;
    });
  await run.stillAnswers(timeoutMs, 'long1');
  if (nak === undefined) {
    return { fail: 'no NAK too_long for a 310-byte line (§ 3.3), though it still answers' };
  }
  return `${describe(nak.frame)}: NAK,${nak.frame.fields[0]},too_long; still answers a PING`;
}

async function staleAck(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { received } = run.needHello();
  // Far behind anything the device sends in a run, so it is waiting for no such seq.
  const stale = (received.frame.seq + 30_000) % 65536;
  await run.wire.ack(stale);
  await run.stillAnswers(timeoutMs, 'stale1');
  return `ignored ACK ${stale}; still answers a PING`;
}

async function commands(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire, talker } = run;
  run.needHello();
  const sent: { text: string; send: () => Promise<number> }[] = [];
  if (talker === 'SH') {
    sent.push({
      text: 'INDICATE,green,on',
      send: () => wire.send({ type: 'INDICATE', light: 'green', mode: 'on' }),
    });
    sent.push({
      text: 'GATE,unlock',
      send: () => wire.send({ type: 'GATE', action: 'unlock' }),
    });
  } else if (talker === 'SF') {
    sent.push({ text: 'SHUFFLE,1', send: () => wire.send({ type: 'SHUFFLE', decks: 1 }) });
  } else {
    return { skip: `${talker} takes no commands from the host (§ 7.4, § 7.5)` };
  }
  const done: string[] = [];
  for (const command of sent) {
    const from = wire.inbox.length;
    const seq = await command.send();
    await wire.waitFor(`ACK of ${command.text} (seq ${seq})`, ackOf(seq), timeoutMs, from);
    done.push(command.text);
  }
  return `ACKed ${done.join(', ')}`;
}

async function event(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  const already = wire.eventsSince(0).find((received) => !wire.acked.has(received.frame.seq));
  if (already === undefined) {
    run.instruct(`${HUMAN_STEP[run.talker!]} (waiting up to ${Math.round(timeoutMs / 1000)} s)`);
  }
  const received =
    already ??
    (await wire.waitFor(
      'event (a card, a shuffle, a tag, a spin)',
      (frame) => !['HELLO', 'PING', 'PONG', 'ACK', 'NAK'].includes(frame.type),
      timeoutMs,
      0,
    ));
  run.event = received;
  return `${describe(received.frame)}: ${encodeFrame(received.frame).trimEnd()}`;
}

async function retransmit(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const first = run.needEvent();
  const copy = await run.wire.waitFor(
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
}

async function nakResend(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  const first = run.needEvent();
  const from = wire.inbox.length;
  await wire.send({ type: 'NAK', nakedSeq: first.frame.seq, reason: 'bad_crc' });
  const sentAt = run.clock.now();
  const copy = await wire.waitFor(
    `${describe(first.frame)} resent at once on NAK,${first.frame.seq},bad_crc`,
    sameLine(first.frame),
    timeoutMs,
    from,
  );
  return `resent ${Math.round(copy.at - sentAt)} ms after the NAK`;
}

async function nakHello(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  const first = run.needEvent();
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
}

async function reconnect(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  const first = run.needEvent();
  await wire.reopen(run.options.openTimeoutMs ?? 5_000);
  const from = wire.inbox.length;
  await sendHostHello(run);
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
}

/** The withheld events are ACKed now; from here on every event is ACKed as it comes. */
async function ackWithheldEvents(run: ConformanceRun): Promise<void> {
  const { wire } = run;
  run.ackedFrom = wire.inbox.length;
  if (run.lineDown === undefined && wire.isOpen) {
    wire.ackEvents = true;
    // ACKs still unwritten after 5 s show as the device retransmitting, which the next checks judge.
    await wire.within(wire.ackPending(), 5_000, 'ACKs not written').catch(() => undefined);
  }
}

async function messages(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const { wire } = run;
  run.needHello();
  const first = run.needEvent();
  const wanted = completion(run.talker!);
  // The report counts from the withheld event, and must go on past it: an event the
  // device sends once that one is ACKed (stop and wait, § 3.5) and not a copy.
  const before = new Set(
    wire.inbox.slice(0, run.ackedFrom).map((received) => encodeFrame(received.frame)),
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
  run.instruct(`${HUMAN_STEP[run.talker!]} (waiting up to ${Math.round(timeoutMs / 1000)} s)`);
  await wire.waitFor(
    moved ? wanted.what : `${wanted.what}, after the ACK of ${describe(first.frame)}`,
    take,
    timeoutMs,
  );
  return detail!;
}

/** Every check the host scripts on the line, in the order it runs them. */
export const HOST_CHECKS: readonly HostCheck[] = [
  { id: 'hello', judge: hello },
  { id: 'hello-retransmit', judge: helloRetransmit },
  { id: 'host-hello', before: answerHello, judge: hostHello },
  { id: 'auth', judge: auth },
  { id: 'hello-proof', judge: helloProof },
  { id: 'ping', before: stopAtFailedAuth, judge: ping },
  { id: 'duplicate', judge: duplicate },
  { id: 'unknown-type', judge: unknownType },
  { id: 'nak-bad-crc', judge: nakBadCrc },
  { id: 'nak-malformed', judge: nakMalformed },
  { id: 'nak-too-long', judge: nakTooLong },
  { id: 'stale-ack', judge: staleAck },
  { id: 'commands', judge: commands },
  { id: 'event', judge: event },
  { id: 'retransmit', judge: retransmit },
  { id: 'nak-resend', judge: nakResend },
  { id: 'nak-hello', judge: nakHello },
  { id: 'reconnect', judge: reconnect },
  { id: 'messages', before: ackWithheldEvents, judge: messages },
  // The hostile host (--host-key): the genuine host goes quiet and strangers take the line.
  { id: 'old-session', before: goQuiet, judge: oldSession },
  { id: 'confirm-other-key', judge: confirmOtherKey },
  { id: 'confirm-bad-signature', judge: confirmBadSignature },
  { id: 'confirm-none', judge: confirmNone },
  { id: 'host-lost', judge: hostLost },
  { id: 'replayed-handshake', judge: replayedHandshake },
  { id: 'keeps-cards', judge: keepsCards },
];
