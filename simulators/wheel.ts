/**
 * The simulated roulette wheel: a wheel with ball-position detection on a
 * line, speaking protocol 1.5 (talker RW) through the real codecs and link
 * session, device side. Like a real device it sends HELLO whenever its link
 * opens, reports a game only once the host has ACKed that HELLO,
 * retransmits whatever is not ACKed until it is, and answers PING. Games
 * come from the seeded plan (wheel-plan.ts), faults switched on per game;
 * the wire faults of the card devices (`corrupt-bytes`, `duplicate`,
 * `drop-acks`, `lose-acks`, `delay`) apply to its frames too.
 *
 * Pacing: with `paceMs` the wheel plays games on its own at a croupier's
 * pace (`bettingMs` of betting, then the spin's events `paceMs` apart);
 * without it a test calls `playGame()` for each game.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { FrameDecoder } from '../device-protocol/frame-decoder.ts';
import { type LinkAction, LinkSession, type LinkStats } from '../device-protocol/link.ts';
import { type Message, PROTOCOL_VERSION } from '../device-protocol/messages.ts';
import {
  type LinkOptionsInput,
  type LinkStateChange,
  ReconnectingLink,
} from '../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../hardware/transports/transport.ts';
import { BehaviourSet } from './behaviours.ts';
import { DEVICE_SESSION_DEFAULTS, SIMULATOR_FIRMWARE_VERSION } from './device.ts';
import { SimulatorError } from './errors.ts';
import { createRandom, type Random } from './random.ts';
import type { DeviceIdentity } from './steps.ts';
import {
  type Direction,
  isWheelFault,
  parseWheelFault,
  planWheelGame,
  WHEEL_FAULTS,
  type WheelFaultName,
  type WheelGame,
  type WheelStep,
} from './wheel-plan.ts';

export const WHEEL_MODEL = 'TS-WHEEL-SIM';
/** The card devices' wire faults that apply to the wheel's frames too. */
const WIRE_FAULTS = [
  'corrupt-bytes',
  'duplicate',
  'drop-acks',
  'corrupt-acks',
  'lose-acks',
  'delay',
];
export const WHEEL_FIRMWARE_SHA256 = createHash('sha256')
  .update(`tableside simulator firmware wheel ${SIMULATOR_FIRMWARE_VERSION}`)
  .digest('hex');

export interface WheelSimulatorOptions {
  transport: Transport;
  seed?: number;
  /** Wheel faults `NAME=G` (wheel-plan.ts) and wire faults `NAME[=RATE]` (behaviours.ts). */
  faults?: readonly string[];
  /** The ruleset's minimum ball revolutions; legal spins make at least this many. Default 4. */
  minRevolutions?: number;
  /** Milliseconds between the events of a spin; absent or 0: stepped by `playGame()`. */
  paceMs?: number;
  /** Milliseconds of betting before each spin (with `paceMs`). */
  bettingMs?: number;
  /** Games to play with `paceMs`; absent: until stopped. */
  games?: number;
  /** With `paceMs`: asked before each game; false skips it (a closed table), true plays. */
  mayPlay?: () => boolean;
  identity?: Partial<DeviceIdentity>;
  reconnect?: LinkOptionsInput;
  now?: () => number;
}

export interface WheelSimulatorEvents {
  link: [change: LinkStateChange];
  ready: [];
  /** A game was played: every event of it sent (not necessarily ACKed yet). */
  game: [game: WheelGame];
  wrote: [line: string];
  command: [message: Message];
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted || ms <= 0) {
      resolve();
      return;
    }
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

export class SimulatedWheel extends EventEmitter<WheelSimulatorEvents> {
  readonly identity: DeviceIdentity;
  readonly seed: number;
  readonly link: ReconnectingLink;
  /** Games played so far, in order. */
  readonly played: WheelGame[] = [];
  private readonly session: LinkSession;
  private readonly decoder = new FrameDecoder();
  private readonly wire: BehaviourSet;
  private readonly faults = new Map<number, WheelFaultName[]>();
  private readonly plan: Random;
  private readonly wireRandom: Random;
  private readonly noise: Random;
  private readonly now: () => number;
  private readonly abort = new AbortController();
  private readonly options: WheelSimulatorOptions;
  private lastRotor: Direction | undefined;
  private helloAcked = false;
  private running = false;
  private tickTimer: NodeJS.Timeout | undefined;
  private pacing: Promise<void> | undefined;
  private playing: Promise<unknown> = Promise.resolve();
  private readonly readyWaiters: Array<() => void> = [];

  constructor(options: WheelSimulatorOptions) {
    super();
    this.options = options;
    this.seed = options.seed ?? 1;
    const minRevolutions = options.minRevolutions ?? 4;
    if (!Number.isInteger(minRevolutions) || minRevolutions < 1 || minRevolutions > 50) {
      throw new SimulatorError(
        'bad_options',
        `bad minRevolutions ${minRevolutions}: expected 1-50`,
      );
    }
    const wireSpecs: string[] = [];
    for (const spec of options.faults ?? []) {
      const name = spec.split('=')[0] ?? '';
      if (isWheelFault(name)) {
        const { game } = parseWheelFault(spec);
        this.faults.set(game, [...(this.faults.get(game) ?? []), name]);
      } else if (WIRE_FAULTS.includes(name)) {
        wireSpecs.push(spec);
      } else {
        throw new SimulatorError(
          'bad_fault',
          `unknown wheel fault ${JSON.stringify(name)}: expected one of ${[...WHEEL_FAULTS, ...WIRE_FAULTS].join(', ')}`,
        );
      }
    }
    this.wire = new BehaviourSet(wireSpecs);
    const random = createRandom(this.seed);
    this.plan = random.fork('wheel/games');
    this.wireRandom = random.fork('wheel/wire');
    this.noise = random.fork('wheel/noise');
    this.now = options.now ?? (() => performance.now());
    this.identity = {
      model: WHEEL_MODEL,
      serial: `SIM-WHEEL-${this.seed}`,
      protocolVersion: PROTOCOL_VERSION,
      firmwareVersion: SIMULATOR_FIRMWARE_VERSION,
      firmwareSha256: WHEEL_FIRMWARE_SHA256,
      ...options.identity,
    };
    this.session = new LinkSession({
      ...DEVICE_SESSION_DEFAULTS,
      localTalker: 'RW',
      peerTalker: 'HO',
    });
    this.link = new ReconnectingLink(options.transport, {
      initialDelayMs: 50,
      maxDelayMs: 1_000,
      silenceTimeoutMs: 5_000,
      ...options.reconnect,
    });
    this.link.on('state', (change) => this.linkChanged(change));
    this.link.on('data', (chunk) => this.received(chunk));
  }

  get ready(): boolean {
    return this.helloAcked;
  }

  get stats(): LinkStats {
    return this.session.stats;
  }

  /** Frames not yet ACKed by the host. */
  get pending(): { inFlight: number; queued: number } {
    return this.session.pending;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.link.start();
    if ((this.options.paceMs ?? 0) > 0) this.pacing = this.pace();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    if (this.tickTimer) clearTimeout(this.tickTimer);
    for (const resolve of this.readyWaiters.splice(0)) resolve();
    await this.pacing;
    await this.link.close();
  }

  whenReady(): Promise<void> {
    if (this.helloAcked) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Resolves once every frame sent so far is ACKed. */
  async whenSettled(pollMs = 20): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      const { inFlight, queued } = this.session.pending;
      if (inFlight === 0 && queued === 0) return;
      await sleep(pollMs, signal);
    }
  }

  /** Plays the next game at once (or `paceMs` apart when given); resolves with it. */
  playGame(paceMs = 0): Promise<WheelGame> {
    const next = this.playing.then(() => this.play(paceMs));
    this.playing = next.catch(() => undefined);
    return next;
  }

  private async play(paceMs: number): Promise<WheelGame> {
    // Like a real device: no event before the host has ACKed our HELLO.
    await this.whenReady();
    const number = this.played.length + 1;
    const game = planWheelGame({
      game: number,
      lastRotor: this.lastRotor,
      faults: this.faults.get(number) ?? [],
      minRevolutions: this.options.minRevolutions ?? 4,
      random: this.plan,
    });
    for (const [index, step] of game.steps.entries()) {
      if (index > 0 && paceMs > 0) await sleep(paceMs, this.abort.signal);
      if (this.abort.signal.aborted) break;
      this.playStep(step);
    }
    this.lastRotor = game.rotor ?? this.lastRotor;
    this.played.push(game);
    this.emit('game', game);
    return game;
  }

  private async pace(): Promise<void> {
    const signal = this.abort.signal;
    await this.whenReady();
    const paceMs = this.options.paceMs ?? 0;
    const limit = this.options.games ?? Number.POSITIVE_INFINITY;
    while (this.running && !signal.aborted && this.played.length < limit) {
      await sleep(this.options.bettingMs ?? paceMs * 4, signal);
      if (signal.aborted) break;
      if (this.options.mayPlay && !this.options.mayPlay()) continue;
      await this.playGame(paceMs);
    }
  }

  private playStep(step: WheelStep): void {
    const now = this.now();
    switch (step.kind) {
      case 'rotor':
        this.run(
          this.session.send({ type: 'ROTOR', direction: step.direction, rpm: step.rpm }, now),
        );
        return;
      case 'ball':
        this.run(this.session.send({ type: 'BALL', direction: step.direction }, now));
        return;
      case 'no_more_bets':
        this.run(this.session.send({ type: 'NOMOREBETS' }, now));
        return;
      case 'result':
        this.run(
          this.session.send(
            { type: 'RESULT', number: step.number, revolutions: step.revolutions },
            now,
          ),
        );
        return;
      case 'misread':
        // A reader fault: a number no single-zero wheel has. The codec refuses
        // to build it, so it goes out raw, as broken firmware would send it.
        this.run(this.session.sendRaw('RESULT', ['37', String(step.revolutions)], now));
        return;
      case 'no_spin':
        this.run(this.session.send({ type: 'NOSPIN', reason: step.reason }, now));
        return;
      case 'noise': {
        const bytes = Buffer.alloc(step.bytes);
        for (let i = 0; i < bytes.length; i++) bytes[i] = this.noise.int(256);
        // End the burst on a line break, as noise on a real line does sooner or later.
        bytes[bytes.length - 2] = 0x0d;
        bytes[bytes.length - 1] = 0x0a;
        if (this.link.isOpen) this.link.write(bytes).catch(() => undefined);
        return;
      }
    }
  }

  // ------------------------------------------------------------ link

  private linkChanged(change: LinkStateChange): void {
    this.emit('link', change);
    if (change.state === 'open') {
      this.decoder.end();
      const now = this.now();
      this.run(this.session.send(this.helloMessage(), now));
      this.run(this.session.retransmitNow(now));
    } else if (this.tickTimer) {
      clearTimeout(this.tickTimer);
      this.tickTimer = undefined;
    }
  }

  private helloMessage(): Message {
    const id = this.identity;
    return {
      type: 'HELLO',
      model: id.model,
      serial: id.serial,
      protocol: id.protocolVersion,
      firmware: id.firmwareVersion,
      firmwareSha256: id.firmwareSha256,
    };
  }

  private received(chunk: Buffer): void {
    const now = this.now();
    for (const event of this.decoder.push(chunk)) {
      if (event.kind === 'frame') {
        this.link.markAlive();
        const frame = { type: event.frame.type, seq: event.frame.seq };
        if (!this.wire.incoming(frame, this.wireRandom)) continue;
      }
      this.run(this.session.receive(event, now));
    }
  }

  private run(actions: readonly LinkAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'send':
          this.write(action.type, action.line);
          break;
        case 'deliver':
          this.emit('command', action.message);
          break;
        case 'acked':
          if (action.type === 'HELLO' && !this.helloAcked) {
            this.helloAcked = true;
            this.emit('ready');
            for (const resolve of this.readyWaiters.splice(0)) resolve();
          }
          break;
        default:
          break;
      }
    }
    this.scheduleTick();
  }

  private write(type: string, line: string): void {
    for (const write of this.wire.outgoing(
      { type, bytes: Buffer.from(line, 'latin1') },
      this.wireRandom,
    )) {
      const go = () => {
        if (!this.link.isOpen) return;
        this.emit('wrote', write.bytes.toString('latin1'));
        this.link.write(write.bytes).catch(() => undefined);
      };
      if (write.delayMs <= 0) go();
      else setTimeout(go, write.delayMs).unref();
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
