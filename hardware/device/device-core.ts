/**
 * The device side of the protocol, once for the whole project: the device's
 * link endpoint (device-protocol/endpoint/) driven by the endpoint runner
 * over a reconnecting Transport. The simulators and the device firmware (the smart shoe, the
 * card reader) both run on it, so what a simulator proves about the device
 * side holds for the firmware.
 *
 * Like a real device it sends HELLO whenever its line opens, sends events
 * only once the host has ACKed that HELLO, never waits for the host's HELLO,
 * retransmits whatever was not ACKed until it is ACKed however long that
 * takes (after a reconnect every unacknowledged frame goes again at once,
 * with its seq, right after the HELLO), and answers PING with PONG. What the
 * host commands (INDICATE, GATE, SHUFFLE, ...) is handed to its owner.
 *
 * Hooks let a simulator misbehave on the wire (drop, corrupt, delay,
 * silence) without a second copy of this logic.
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import {
  type DeviceAuthReport,
  DeviceEndpoint,
  type DeviceEndpointOptions,
  type RestoredFrames,
} from '../../device-protocol/endpoint/device-endpoint.ts';
import type { WriteAction } from '../../device-protocol/endpoint/link-endpoint.ts';
import type { DeviceTalker } from '../../device-protocol/frame.ts';
import type { LinkAction, LinkStats } from '../../device-protocol/link.ts';
import type { HelloMessage, Message } from '../../device-protocol/messages.ts';
import type { DeviceKey } from '../keys/device-key.ts';
import { freshHandshakeSecrets } from '../keys/device-key.ts';
import { EndpointRunner, type HandledAction } from '../transports/endpoint-runner.ts';
import {
  type LinkOptionsInput,
  type LinkStateChange,
  ReconnectingLink,
} from '../transports/reconnecting-link.ts';
import type { Transport } from '../transports/transport.ts';

export {
  DEVICE_SESSION_DEFAULTS,
  type RestoredFrames,
} from '../../device-protocol/endpoint/device-endpoint.ts';

/** A write the wire hooks may split, delay or corrupt. */
export interface DeviceWrite {
  readonly bytes: Buffer;
  readonly delayMs: number;
}

export interface DeviceWireHooks {
  /** False drops a received frame before the session sees it. */
  incoming?(frame: { type: string; seq: number }): boolean;
  /** What actually goes on the wire for one frame. */
  outgoing?(frame: { type: string; bytes: Buffer }): readonly DeviceWrite[];
  /** True while the device neither hears nor speaks (a frozen firmware). */
  silent?(): boolean;
}

export interface DeviceCoreOptions {
  talker: DeviceTalker;
  /** The device end of the link (a pty, a TCP socket, a memory wire's device end). */
  transport: Transport;
  hello: HelloMessage;
  /** Link-session options over DEVICE_SESSION_DEFAULTS. */
  session?: DeviceEndpointOptions['link'];
  /** Reopen policy of the device's own end. */
  reconnect?: LinkOptionsInput;
  hooks?: DeviceWireHooks;
  restore?: RestoredFrames;
  /** The device's own key (protocol 1.4, PROTOCOL.md § 5); absent: a device without a key. */
  key?: DeviceKey;
  /**
   * The host's public key, learned at pairing (protocol 1.7, PROTOCOL.md § 5.2): only that
   * host's CONFIRM opens a session. Absent: any host's (a bench).
   */
  hostKey?: DevicePublicKey;
  /** Monotonic milliseconds; injectable for tests. */
  now?: () => number;
}

export interface DeviceCoreEvents {
  link: [change: LinkStateChange];
  /** The host ACKed our first HELLO: events flow. */
  ready: [];
  /** A message from the host (INDICATE, GATE, SHUFFLE, DECKCHECK, PING, HELLO, ...). */
  command: [message: Message];
  /** Every line written, after the hooks. */
  wrote: [line: string];
  /** A frame's first transmission (the seq it took); for an outbox that records it. */
  transmitted: [seq: number, type: string];
  /** The host ACKed one of our frames. */
  acked: [seq: number, type: string];
  /** A frame given up (only with `maxAttempts` set: a real device never gives up). */
  lost: [action: Extract<LinkAction, { kind: 'failed' }>];
  /** Nothing unacknowledged and nothing queued. */
  idle: [];
  /** A frame from the host refused by authentication (protocol 1.4), or the signer failed. */
  refused: [detail: string];
  /** No host confirmed our PROOF (protocol 1.7): events stay held; the fault light goes on. */
  hostLost: [detail: string];
  /** After `hostLost`: a host proved the pairing (its CONFIRM verified); the fault light goes off. */
  hostConfirmed: [];
}

export class DeviceCore extends EventEmitter<DeviceCoreEvents> {
  readonly link: ReconnectingLink;
  readonly talker: DeviceTalker;
  private readonly endpoint: DeviceEndpoint;
  private readonly runner: EndpointRunner<DeviceAuthReport>;
  private readonly hooks: DeviceWireHooks;
  private readonly now: () => number;
  private readonly delayed = new Set<NodeJS.Timeout>();
  private readonly readyWaiters: Array<() => void> = [];
  private running = false;
  private helloAcked = false;
  /** Between `hostLost` and the next session keys taken from a host that proved the pairing. */
  private hostMissing = false;

  constructor(private readonly options: DeviceCoreOptions) {
    super();
    this.talker = options.talker;
    this.hooks = options.hooks ?? {};
    this.now = options.now ?? (() => performance.now());
    const incoming = this.hooks.incoming;
    this.endpoint = new DeviceEndpoint({
      talker: options.talker,
      hello: options.hello,
      ...(options.session === undefined ? {} : { link: options.session }),
      ...(options.key === undefined ? {} : { publicKey: options.key.publicKey }),
      ...(options.hostKey === undefined ? {} : { hostKey: options.hostKey }),
      fresh: freshHandshakeSecrets,
      ...(options.restore === undefined ? {} : { restore: options.restore }),
      ...(incoming === undefined
        ? {}
        : { admit: (frame) => incoming({ type: frame.type, seq: frame.seq }) }),
    });
    this.link = new ReconnectingLink(options.transport, {
      initialDelayMs: 50,
      maxDelayMs: 1_000,
      // The host PINGs every second or so; hearing nothing for this long
      // means our end is dead (a pty whose socat went away reports no close).
      silenceTimeoutMs: 5_000,
      ...options.reconnect,
    });
    this.runner = new EndpointRunner({
      endpoint: this.endpoint,
      link: this.link,
      now: this.now,
      handle: (action) => this.handle(action),
      write: (action) => this.write(action),
      tickOnlyWhileOpen: true,
    });
    this.link.on('state', (change) => this.linkChanged(change));
    this.link.on('data', (chunk) => {
      if (!this.isSilent()) this.run(() => this.runner.receive(chunk));
    });
  }

  /** Whether this connection is authenticated (protocol 1.4): every frame carries a MAC. */
  get authenticated(): boolean {
    return this.endpoint.authenticated;
  }

  get ready(): boolean {
    return this.helloAcked;
  }

  get stats(): LinkStats {
    return this.endpoint.stats;
  }

  get pending(): { inFlight: number; queued: number } {
    return this.endpoint.pending;
  }

  get idle(): boolean {
    const pending = this.endpoint.pending;
    return pending.inFlight === 0 && pending.queued === 0;
  }

  /** The protocol version the host's HELLO announced; undefined until one arrived. */
  get hostProtocol(): string | undefined {
    return this.endpoint.peerHello()?.protocol;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.runner.start();
    this.link.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.runner.stop();
    for (const timer of this.delayed) clearTimeout(timer);
    this.delayed.clear();
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    await this.link.close();
  }

  /** Resolves once the host has ACKed our HELLO. */
  whenReady(): Promise<void> {
    if (this.helloAcked) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Queues a message; it goes when the HELLO gate and the window allow, and until ACKed. */
  send(message: Message): void {
    this.run(() => this.runner.run(this.endpoint.send(message, this.now())));
  }

  /**
   * Queues a frame built from raw fields, past the codecs (a simulator's
   * broken firmware: a field no message may carry); otherwise like `send`.
   */
  sendRaw(type: string, fields: readonly string[]): void {
    this.run(() => this.runner.run(this.endpoint.sendRaw(type, fields, this.now())));
  }

  // ------------------------------------------------------------ link

  private linkChanged(change: LinkStateChange): void {
    this.emit('link', change);
    // HELLO first on every connection; what was not ACKed before goes
    // again right after it, with its old seq (PROTOCOL.md § 3.7).
    if (change.state === 'open') this.run(() => this.runner.opened());
    // Nothing can be written while the line is down; the reopen resends it all.
    else this.runner.closed();
  }

  private isSilent(): boolean {
    return this.hooks.silent?.() ?? false;
  }

  /** Runs the endpoint's actions, then says whether the core is idle. */
  private run(work: () => void): void {
    work();
    if (this.hostMissing && this.endpoint.authenticated) {
      this.hostMissing = false;
      this.emit('hostConfirmed');
    }
    if (this.idle) this.emit('idle');
  }

  private handle(action: HandledAction<DeviceAuthReport>): void {
    switch (action.kind) {
      case 'heard':
        this.link.markAlive();
        break;
      case 'held':
        if (action.attempt === 1) this.emit('transmitted', action.seq, action.type);
        break;
      case 'deliver':
        this.emit('command', action.message);
        break;
      case 'acked':
        this.emit('acked', action.seq, action.type);
        if (action.type === 'HELLO' && !this.helloAcked) {
          this.helloAcked = true;
          this.emit('ready');
          for (const resolve of this.readyWaiters.splice(0)) resolve();
        }
        break;
      case 'failed':
        if (action.type !== 'PONG' && action.type !== 'HELLO') this.emit('lost', action);
        break;
      case 'auth':
        if (action.report.kind === 'refused') this.emit('refused', action.report.detail);
        else if (action.report.kind === 'host_lost') {
          this.hostMissing = true;
          this.emit('hostLost', action.report.detail);
        } else this.sign(action.report.id, action.report.digest);
        break;
      default:
        break;
    }
  }

  /** Signs a CHALLENGE's statement with the device key (a key file, or a secure element). */
  private sign(id: number, digest: Uint8Array): void {
    const signer = this.options.key?.signer;
    if (signer === undefined) return;
    signer.sign(digest).then(
      (signature) => {
        if (!this.running) return;
        this.run(() => this.runner.run(this.endpoint.signed(id, signature, this.now())));
      },
      (error: unknown) => {
        this.run(() => this.runner.run(this.endpoint.signFailed(id)));
        this.emit('refused', `signing failed: ${(error as Error).message}`);
      },
    );
  }

  private write(action: WriteAction): void {
    if (action.attempt === 1 && action.seq !== undefined) {
      this.emit('transmitted', action.seq, action.type);
    }
    if (this.isSilent()) return;
    const bytes = Buffer.from(action.line, 'latin1');
    const writes = this.hooks.outgoing?.({ type: action.type, bytes }) ?? [{ bytes, delayMs: 0 }];
    for (const write of writes) {
      const go = () => {
        if (!this.link.isOpen || this.isSilent()) return;
        this.emit('wrote', write.bytes.toString('latin1'));
        // A failed write closes the link, and the link reports that (and reconnects).
        this.link.write(write.bytes).catch(() => undefined);
      };
      if (write.delayMs <= 0) {
        go();
      } else {
        const timer = setTimeout(() => {
          this.delayed.delete(timer);
          go();
        }, write.delayMs);
        this.delayed.add(timer);
      }
    }
  }
}
