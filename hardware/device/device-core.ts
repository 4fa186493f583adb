/**
 * The device side of the protocol, once for the whole project: the real
 * framer, codecs and link session (device side) over a reconnecting
 * Transport. The simulators and the device firmware (the smart shoe, the
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
import type { DeviceTalker } from '../../device-protocol/frame.ts';
import { FrameDecoder } from '../../device-protocol/frame-decoder.ts';
import {
  type LinkAction,
  LinkSession,
  type LinkStats,
  type LinkOptions as SessionOptions,
} from '../../device-protocol/link.ts';
import type { HelloMessage, Message } from '../../device-protocol/messages.ts';
import {
  type LinkOptionsInput,
  type LinkStateChange,
  ReconnectingLink,
} from '../transports/reconnecting-link.ts';
import type { Transport } from '../transports/transport.ts';
import { DeviceAuthLink, type DeviceKey } from './device-auth.ts';

/**
 * Link-session settings of a device: a real device never gives a card up
 * (`maxAttempts: 0`, retransmit until ACKed), every 300 ms. It speaks
 * protocol 1.2 or later, so with a 1.2 host it may have 32 events
 * unacknowledged (the in-order window, PROTOCOL.md § 3.8: a reconnect
 * replays its backlog at line speed); with an older host, one.
 */
export const DEVICE_SESSION_DEFAULTS = {
  ackTimeoutMs: 300,
  backoffFactor: 1,
  maxAttempts: 0,
  maxInFlight: 32,
} as const;

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

/** Frames a device kept across its own restart (its outbox), with the seqs they had. */
export interface RestoredFrames {
  readonly frames: readonly { readonly seq: number; readonly message: Message }[];
  /** The seq its counting goes on from (after every seq it ever used). */
  readonly nextSeq: number;
}

export interface DeviceCoreOptions {
  talker: DeviceTalker;
  /** The device end of the link (a pty, a TCP socket, a memory wire's device end). */
  transport: Transport;
  hello: HelloMessage;
  /** Link-session options over DEVICE_SESSION_DEFAULTS. */
  session?: Omit<Partial<SessionOptions>, 'localTalker'>;
  /** Reopen policy of the device's own end. */
  reconnect?: LinkOptionsInput;
  hooks?: DeviceWireHooks;
  restore?: RestoredFrames;
  /** The device's own key (protocol 1.4, PROTOCOL.md § 5); absent: a device without a key. */
  key?: DeviceKey;
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
}

export class DeviceCore extends EventEmitter<DeviceCoreEvents> {
  readonly link: ReconnectingLink;
  readonly talker: DeviceTalker;
  private readonly session: LinkSession;
  private readonly auth: DeviceAuthLink;
  private readonly decoder = new FrameDecoder();
  private readonly hooks: DeviceWireHooks;
  private readonly now: () => number;
  private readonly delayed = new Set<NodeJS.Timeout>();
  private readonly readyWaiters: Array<() => void> = [];
  private tickTimer: NodeJS.Timeout | undefined;
  private running = false;
  private helloAcked = false;

  constructor(private readonly options: DeviceCoreOptions) {
    super();
    this.talker = options.talker;
    this.hooks = options.hooks ?? {};
    this.now = options.now ?? (() => performance.now());
    const session: SessionOptions = {
      ...DEVICE_SESSION_DEFAULTS,
      ...options.session,
      localTalker: options.talker,
      peerTalker: 'HO',
    };
    if (options.restore) session.initialSeq = options.restore.nextSeq;
    this.session = new LinkSession(session);
    if (options.restore) this.session.restore(options.restore.frames);
    this.auth = new DeviceAuthLink({
      talker: options.talker,
      ...(options.key === undefined ? {} : { key: options.key }),
      now: this.now,
      write: (type, line) => this.write(type, line),
      release: () => this.run(this.session.retransmitNow(this.now())),
      refused: (detail) => this.emit('refused', detail),
    });
    this.link = new ReconnectingLink(options.transport, {
      initialDelayMs: 50,
      maxDelayMs: 1_000,
      // The host PINGs every second or so; hearing nothing for this long
      // means our end is dead (a pty whose socat went away reports no close).
      silenceTimeoutMs: 5_000,
      ...options.reconnect,
    });
    this.link.on('state', (change) => this.linkChanged(change));
    this.link.on('data', (chunk) => this.received(chunk));
  }

  /** Whether this connection is authenticated (protocol 1.4): every frame carries a MAC. */
  get authenticated(): boolean {
    return this.auth.authenticated;
  }

  get ready(): boolean {
    return this.helloAcked;
  }

  get stats(): LinkStats {
    return this.session.stats;
  }

  get pending(): { inFlight: number; queued: number } {
    return this.session.pending;
  }

  get idle(): boolean {
    const pending = this.session.pending;
    return pending.inFlight === 0 && pending.queued === 0;
  }

  /** The protocol version the host's HELLO announced; undefined until one arrived. */
  get hostProtocol(): string | undefined {
    return this.session.peerHello('HO')?.protocol;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.link.start();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.auth.stop();
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
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
    this.run(this.session.send(message, this.now()));
  }

  /**
   * Queues a frame built from raw fields, past the codecs (a simulator's
   * broken firmware: a field no message may carry); otherwise like `send`.
   */
  sendRaw(type: string, fields: readonly string[]): void {
    this.run(this.session.sendRaw(type, fields, this.now()));
  }

  // ------------------------------------------------------------ link

  private linkChanged(change: LinkStateChange): void {
    this.emit('link', change);
    if (change.state === 'open') {
      // HELLO first on every connection; what was not ACKed before goes
      // again right after it, with its old seq (PROTOCOL.md § 3.7).
      this.decoder.end();
      const now = this.now();
      this.run(this.session.send(this.options.hello, now));
      this.run(this.session.retransmitNow(now));
    } else if (this.tickTimer) {
      // Nothing can be written while the line is down; the reopen resends it all.
      clearTimeout(this.tickTimer);
      this.tickTimer = undefined;
    }
  }

  private isSilent(): boolean {
    return this.hooks.silent?.() ?? false;
  }

  private received(chunk: Buffer): void {
    if (this.isSilent()) return;
    const now = this.now();
    for (const event of this.decoder.push(chunk)) {
      if (event.kind === 'frame') {
        this.link.markAlive();
        const frame = { type: event.frame.type, seq: event.frame.seq };
        if (this.hooks.incoming && !this.hooks.incoming(frame)) continue;
      }
      for (const passed of this.auth.incoming(event)) this.run(this.session.receive(passed, now));
    }
  }

  private run(actions: readonly LinkAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'send':
          if (action.attempt === 1) this.emit('transmitted', action.seq, action.type);
          this.write(action.type, action.line);
          break;
        case 'deliver':
          this.emit('command', action.message);
          break;
        case 'acked':
          this.emit('acked', action.seq, action.type);
          if (action.type === 'HELLO') this.auth.helloAcked();
          if (action.type === 'HELLO' && !this.helloAcked) {
            this.helloAcked = true;
            this.emit('ready');
            for (const resolve of this.readyWaiters.splice(0)) resolve();
          }
          break;
        case 'failed':
          if (action.type !== 'PONG' && action.type !== 'HELLO') this.emit('lost', action);
          break;
        default:
          break;
      }
    }
    this.scheduleTick();
    if (this.idle) this.emit('idle');
  }

  private write(type: string, plain: string): void {
    if (this.isSilent()) return;
    const line = this.auth.outgoing(plain, type);
    if (line === undefined) return;
    const bytes = Buffer.from(line, 'latin1');
    const writes = this.hooks.outgoing?.({ type, bytes }) ?? [{ bytes, delayMs: 0 }];
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

  private scheduleTick(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = undefined;
    if (!this.running || !this.link.isOpen) return;
    const deadline = this.session.nextDeadline();
    if (deadline === undefined) return;
    this.tickTimer = setTimeout(
      () => {
        this.tickTimer = undefined;
        if (this.link.isOpen) this.run(this.session.tick(this.now()));
      },
      Math.max(0, Math.ceil(deadline - this.now())),
    );
  }
}
