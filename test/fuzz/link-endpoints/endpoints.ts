/**
 * The one file of the endpoint fuzz that touches the link's API: a host
 * endpoint and a device endpoint as the driver (firmware-host/drivers/driver.ts)
 * and the device core (hardware/device/device-core.ts, with its
 * DeviceAuthLink) compose today's pure parts (FrameDecoder, LinkSession,
 * DriverAuth / DeviceAuth), minus their timers and transports: every input
 * carries `now`, and the caller asks `nextDeadline()` when to `tick`. The rest
 * of the harness sees only the two small interfaces below, so re-pointing the
 * fuzz at another endpoint means rewriting this file alone.
 */
import { DeviceAuth } from '../../../device-protocol/auth/device-auth.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import { type DeviceTalker, encodeFrame, type FrameEvent } from '../../../device-protocol/frame.ts';
import { FrameDecoder } from '../../../device-protocol/frame-decoder.ts';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import type { HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { DriverAuth } from '../../../firmware-host/drivers/device-auth.ts';
import { hostHello } from '../../../firmware-host/drivers/driver.ts';
import { DEVICE_SESSION_DEFAULTS } from '../../../hardware/device/device-core.ts';
import { freshHandshakeSecrets } from '../../../hardware/keys/device-key.ts';

/** What a device endpoint tells its owner (the firmware: outbox, signer, wire). */
export interface DeviceEndpointHooks {
  /** A line for the wire (already sealed when the connection is authenticated). */
  write(line: string, type: string): void;
  /** A frame's first transmission: the seq it took (the firmware's outbox records it). */
  transmitted(seq: number, type: string): void;
  /** The host ACKed one of our frames. */
  acked(seq: number, type: string): void;
  /** The signer must sign `digest`; `done` hands the signature back (later, on virtual time). */
  sign(digest: Uint8Array, done: (signature: Uint8Array) => void): void;
}

export interface DeviceEndpointOptions {
  readonly talker: DeviceTalker;
  readonly hello: HelloMessage;
  /** The device's public key (protocol 1.4); absent: a device without a key. */
  readonly publicKey?: DevicePublicKey;
  /** Events kept across a restart (the outbox), with their seqs, and the seq to count on from. */
  readonly restore?: {
    readonly frames: readonly { seq: number; message: Message }[];
    readonly nextSeq: number;
  };
  /** 1: stop and wait (a 1.1 device); the device core's default otherwise. */
  readonly maxInFlight?: number;
  readonly hooks: DeviceEndpointHooks;
}

export interface DeviceEndpoint {
  /** Our end of the line opened: HELLO, then everything not ACKed (device-core `linkChanged`). */
  opened(now: number): void;
  /** Our end closed: no timers run and nothing is written until it opens again. */
  closed(): void;
  receive(bytes: string, now: number): void;
  /** Queues an event; it goes when the HELLO gate, the window and authentication allow. */
  send(message: Message, now: number): void;
  tick(now: number): void;
  nextDeadline(): number | undefined;
  /** Frames sent and not released, plus frames queued. */
  readonly backlog: number;
}

export function deviceEndpoint(options: DeviceEndpointOptions): DeviceEndpoint {
  const { hooks } = options;
  const session = new LinkSession({
    ...DEVICE_SESSION_DEFAULTS,
    ...(options.maxInFlight === undefined ? {} : { maxInFlight: options.maxInFlight }),
    localTalker: options.talker,
    peerTalker: 'HO',
    ...(options.restore === undefined ? {} : { initialSeq: options.restore.nextSeq }),
  });
  if (options.restore !== undefined) session.restore(options.restore.frames);
  const auth = new DeviceAuth({
    talker: options.talker,
    fresh: freshHandshakeSecrets,
    ...(options.publicKey === undefined ? {} : { publicKey: options.publicKey }),
  });
  const decoder = new FrameDecoder();
  let open = false;
  let now = 0;

  // As the device core: authentication sees every line (a HELLO starts a new session), the
  // wire only those written while our end is open.
  const write = (type: string, plain: string) => {
    const line = auth.outgoing(plain, type);
    if (line !== undefined && open) hooks.write(line, type);
  };
  const run = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        if (action.attempt === 1) hooks.transmitted(action.seq, action.type);
        write(action.type, action.line);
      } else if (action.kind === 'acked') {
        hooks.acked(action.seq, action.type);
        if (action.type === 'HELLO') auth.helloAcked(now);
      }
    }
  };
  const release = () => run(session.retransmitNow(now));
  const authActions = (actions: ReturnType<DeviceAuth['incoming']>): FrameEvent[] => {
    const passed: FrameEvent[] = [];
    for (const action of actions) {
      if (action.kind === 'pass') passed.push(action.event);
      else if (action.kind === 'write') write('PROOF', action.line);
      else if (action.kind === 'release') release();
      else if (action.kind === 'sign') {
        hooks.sign(action.digest, (signature) => authActions(auth.signed(action.id, signature)));
      }
    }
    return passed;
  };

  return {
    opened(at) {
      now = at;
      open = true;
      decoder.end();
      run(session.send(options.hello, now));
      run(session.retransmitNow(now));
    },
    closed() {
      open = false;
    },
    receive(bytes, at) {
      now = at;
      for (const event of decoder.push(bytes)) {
        for (const passed of authActions(auth.incoming(event))) run(session.receive(passed, now));
      }
    },
    send(message, at) {
      now = at;
      run(session.send(message, now));
    },
    tick(at) {
      now = at;
      authActions(auth.tick(now));
      if (open) run(session.tick(now));
    },
    nextDeadline() {
      const due = [open ? session.nextDeadline() : undefined, auth.nextDeadline()].filter(
        (at): at is number => at !== undefined,
      );
      return due.length === 0 ? undefined : Math.min(...due);
    },
    get backlog() {
      const pending = session.pending;
      return pending.inFlight + pending.queued;
    },
  };
}

/** What a host endpoint tells its owner (the driver and the journal behind it). */
export interface HostEndpointHooks {
  write(line: string, type: string): void;
  /**
   * A message from the device. `raw` is the line it came in (before
   * authentication stripped its MAC), for the fuzz to tell a forged frame.
   */
  deliver(seq: number, message: Message, raw: string): void;
}

export interface HostEndpointOptions {
  readonly talker: DeviceTalker;
  /** The device's paired key; absent: an unpaired line (a bench). */
  readonly paired?: DevicePublicKey;
  readonly hooks: HostEndpointHooks;
}

export interface HostEndpoint {
  /** Our end of the line opened (the first time, or again: driver `linkChanged`). */
  opened(now: number): void;
  closed(): void;
  receive(bytes: string, now: number): void;
  /** ACKs a deferred event once the journal holds it. */
  ack(seq: number, now: number): void;
  /** The driver's heartbeat. */
  ping(token: string, now: number): void;
  tick(now: number): void;
  nextDeadline(): number | undefined;
  /** NAKs answering a line error (not the `before_proof` asks) so far. */
  readonly naksSent: number;
  /** The authentication state, for a failing seed's trace. */
  readonly authState: string;
}

/** The driver's link-session settings (firmware-host/drivers/driver.ts). */
const HOST_SESSION = { ackTimeoutMs: 400, maxAttempts: 6, maxInFlight: 1 } as const;
const DEFERRED = ['CARD', 'CUT', 'TAG'];

export function hostEndpoint(options: HostEndpointOptions): HostEndpoint {
  const { hooks } = options;
  const session = new LinkSession({
    ...HOST_SESSION,
    localTalker: 'HO',
    peerTalker: options.talker,
    deferAck: DEFERRED,
  });
  const decoder = new FrameDecoder(session.options.framer);
  let open = false;
  let opens = 0;
  let now = 0;
  /** The raw line the frame being handled came in. */
  let raw = '';
  /** The raw line of each seq authentication passed (a held frame is delivered later). */
  const passedRaw = new Map<number, string>();
  const run = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        if (open) hooks.write(auth.outgoing(action.line, action.type), action.type);
      } else if (action.kind === 'deliver') {
        hooks.deliver(action.seq, action.message, passedRaw.get(action.seq) ?? raw);
      }
    }
  };
  const auth: DriverAuth = new DriverAuth({
    name: 'shoe',
    talker: options.talker,
    ...(options.paired === undefined ? {} : { paired: options.paired }),
    now: () => now,
    clock: () => now,
    write: (line) => {
      if (open) hooks.write(line, 'CHALLENGE');
    },
    pass: (event) => {
      if (event.kind === 'frame') passedRaw.set(event.frame.seq, raw);
      run(session.receive(event, now));
    },
    unread: (event) => run(session.discardUnanswered(event)),
    // Alarms and the quarantine are the driver's reporting; the fuzz judges deliveries.
    alarm: () => undefined,
    quarantine: () => undefined,
    authenticated: () => undefined,
    askAgain: (seqs) => {
      for (const seq of seqs) run(session.askAgain(seq));
    },
    schedule: () => undefined,
  });

  return {
    opened(at) {
      now = at;
      open = true;
      opens++;
      if (opens > 1) session.lineReopened();
      run(session.send(hostHello('table-1'), now));
      run(session.tick(now));
    },
    closed() {
      open = false;
      decoder.end();
    },
    receive(bytes, at) {
      now = at;
      for (const event of decoder.push(bytes)) {
        raw = event.kind === 'frame' ? encodeFrame(event.frame) : '';
        auth.incoming(event, now);
      }
    },
    ack(seq, at) {
      now = at;
      run(session.ack(seq));
    },
    ping(token, at) {
      now = at;
      if (open) run(session.send({ type: 'PING', token }, now));
    },
    tick(at) {
      now = at;
      auth.tick(now);
      run(session.tick(now));
    },
    nextDeadline() {
      const due = [session.nextDeadline(), auth.nextDeadline()].filter(
        (at): at is number => at !== undefined,
      );
      return due.length === 0 ? undefined : Math.min(...due);
    },
    get naksSent() {
      return session.stats.naksSent;
    },
    get authState() {
      return auth.status().state;
    },
  };
}
