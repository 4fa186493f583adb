/**
 * The one file of the endpoint fuzz that touches the link's API, re-pointed
 * at the link endpoint (device-protocol/endpoint/), as the endpoint runner
 * (hardware/transports/endpoint-runner.ts) drives it, minus its timer.
 */
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import {
  type DeviceEndpointAction,
  DeviceEndpoint as LinkDevice,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import {
  type HostEndpointAction,
  HostEndpoint as LinkHost,
} from '../../../device-protocol/endpoint/host-endpoint.ts';
import { type DeviceTalker, encodeFrame } from '../../../device-protocol/frame.ts';
import type { HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { AuthStatusTracker } from '../../../firmware-host/drivers/auth-status.ts';
import { hostHello } from '../../../firmware-host/drivers/driver.ts';
import { freshHandshakeSecrets, processHostKey } from '../../../hardware/keys/device-key.ts';

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
  /** The table's host key, learned at pairing (protocol 1.7): only its CONFIRM opens a session. */
  readonly hostKey?: DevicePublicKey;
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
  const device = new LinkDevice({
    talker: options.talker,
    hello: options.hello,
    fresh: freshHandshakeSecrets,
    ...(options.publicKey === undefined ? {} : { publicKey: options.publicKey }),
    ...(options.hostKey === undefined ? {} : { hostKey: options.hostKey }),
    ...(options.restore === undefined ? {} : { restore: options.restore }),
    ...(options.maxInFlight === undefined ? {} : { link: { maxInFlight: options.maxInFlight } }),
  });
  let open = false;
  let now = 0;
  const run = (actions: readonly DeviceEndpointAction[]) => {
    for (const action of actions) {
      if (action.kind === 'write') {
        if (action.attempt === 1 && action.seq !== undefined)
          hooks.transmitted(action.seq, action.type);
        if (open) hooks.write(action.line, action.type);
      } else if (action.kind === 'held') {
        if (action.attempt === 1) hooks.transmitted(action.seq, action.type);
      } else if (action.kind === 'acked') {
        hooks.acked(action.seq, action.type);
      } else if (action.kind === 'auth' && action.report.kind === 'sign') {
        const { id, digest } = action.report;
        hooks.sign(digest, (signature) => run(device.signed(id, signature, now)));
      }
    }
  };
  return {
    opened(at) {
      now = at;
      open = true;
      run(device.lineOpened(now));
    },
    closed() {
      open = false;
      device.lineClosed();
    },
    receive(bytes, at) {
      now = at;
      run(device.receive(bytes, now));
    },
    send(message, at) {
      now = at;
      run(device.send(message, now));
    },
    tick(at) {
      now = at;
      // As the runner: a device ticks only while its line is open (the reopen resends it all).
      if (open) run(device.tick(now));
    },
    nextDeadline() {
      return open ? device.nextDeadline() : undefined;
    },
    get backlog() {
      const pending = device.pending;
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
  /** An alarm the driver's authentication status raises (it names the device's line). */
  alarm?(kind: string, message: string): void;
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
  const host = new LinkHost({
    peer: options.talker,
    link: { ...HOST_SESSION, deferAck: DEFERRED },
    hello: hostHello('table-1'),
    fresh: freshHandshakeSecrets,
    hostKey: processHostKey(),
    ...(options.paired === undefined ? {} : { paired: options.paired }),
  });
  const status = new AuthStatusTracker({
    name: 'shoe',
    ...(options.paired === undefined ? {} : { paired: options.paired }),
    clock: () => now,
    // The quarantine is the driver's; its alarms tell the attacker's fuzz the line was named.
    alarm: (kind, message) => hooks.alarm?.(kind, message),
    quarantine: () => undefined,
    authenticated: () => undefined,
  });
  let open = false;
  /** The time of the call being handled, for the status's attack throttle. */
  let now = 0;
  /** The raw line the frame being handled came in (before authentication stripped its MAC). */
  let raw = '';
  const run = (actions: readonly HostEndpointAction[]) => {
    for (const action of actions) {
      if (action.kind === 'heard') raw = encodeFrame(action.frame);
      else if (action.kind === 'write') {
        if (open) hooks.write(action.line, action.type);
      } else if (action.kind === 'deliver') hooks.deliver(action.seq, action.message, raw);
      else if (action.kind === 'auth') status.report(action.report);
    }
  };
  return {
    opened(at) {
      now = at;
      open = true;
      run(host.lineOpened(at));
    },
    closed() {
      open = false;
      host.lineClosed();
      status.lineClosed();
    },
    receive(bytes, at) {
      now = at;
      run(host.receive(bytes, at));
    },
    ack(seq, at) {
      now = at;
      run(host.ack(seq, at));
    },
    ping(token, at) {
      now = at;
      // The driver's beat: an attack on the line is counted each minute, and ends.
      status.tick();
      if (open) run(host.send({ type: 'PING', token }, at));
    },
    tick(at) {
      now = at;
      run(host.tick(at));
    },
    nextDeadline() {
      return host.nextDeadline();
    },
    get naksSent() {
      return host.stats.naksSent;
    },
    get authState() {
      return status.status().state;
    },
  };
}
