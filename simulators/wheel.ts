import { performance } from 'node:perf_hooks';
import type { DevicePublicKey } from '../device-protocol/auth/keys.ts';
import type { DeviceCore } from '../hardware/device/device-core.ts';
import type { DeviceKey } from '../hardware/keys/device-key.ts';
import type { LinkOptionsInput } from '../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../hardware/transports/transport.ts';
import { BehaviourSet } from './behaviours.ts';
import { SimulatorError } from './errors.ts';
import { createRandom, type Random } from './random.ts';
import {
  passOnCoreEvents,
  type SimulatorCoreEvents,
  SimulatorOnCore,
  simulatedCore,
  simulatorFirmwareSha256,
  simulatorIdentity,
  sleep,
} from './simulated-core.ts';
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

/** How often a wheel at a closed table asks whether it may play again. */
const CLOSED_TABLE_POLL_MS = 100;

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
export const WHEEL_FIRMWARE_SHA256 = simulatorFirmwareSha256('wheel');

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
  /** The wheel's own key (protocol 1.4, PROTOCOL.md § 5); absent: a wheel without a key. */
  key?: DeviceKey;
  /** The table's host public key, learned at pairing (protocol 1.7): only that host's CONFIRM opens a session; absent: any host's (a bench). */
  hostKey?: DevicePublicKey;
}

export interface WheelSimulatorEvents extends SimulatorCoreEvents {
  /** A game was played: every event of it sent (not necessarily ACKed yet). */
  game: [game: WheelGame];
  /** Nothing unacknowledged and nothing queued. */
  idle: [];
}

export class SimulatedWheel extends SimulatorOnCore<WheelSimulatorEvents> {
  readonly identity: DeviceIdentity;
  readonly seed: number;
  /** Games played so far, in order. */
  readonly played: WheelGame[] = [];
  protected readonly core: DeviceCore;
  private readonly wire: BehaviourSet;
  private readonly faults = new Map<number, WheelFaultName[]>();
  private readonly plan: Random;
  private readonly wireRandom: Random;
  private readonly noise: Random;
  private readonly options: WheelSimulatorOptions;
  private lastRotor: Direction | undefined;
  private playing: Promise<unknown> = Promise.resolve();

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
    this.identity = { ...simulatorIdentity('wheel', WHEEL_MODEL, this.seed), ...options.identity };
    this.core = simulatedCore({
      talker: 'RW',
      transport: options.transport,
      identity: this.identity,
      wire: this.wire,
      wireRandom: this.wireRandom,
      // A wheel that has been stopped neither hears nor speaks while its line closes.
      silent: () => this.abort.signal.aborted,
      now: options.now ?? (() => performance.now()),
      reconnect: options.reconnect,
      key: options.key,
      hostKey: options.hostKey,
    });
    passOnCoreEvents(this.core, this);
    this.core.on('command', (message) => this.emit('command', message));
    this.core.on('idle', () => this.emit('idle'));
  }

  /** Resolves once every frame sent so far is ACKed. */
  async whenSettled(pollMs = 20): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      if (this.core.idle) return;
      await sleep(pollMs, signal);
    }
  }

  /** Plays the next game at once (or `paceMs` apart when given); resolves with it. */
  playGame(paceMs = 0): Promise<WheelGame> {
    const next = this.playing.then(() => this.play(paceMs));
    // The chain only orders games: each caller gets its own failure from `next`.
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

  /** With `paceMs`, games are played on their own once HELLO is ACKed; without, `playGame()` plays. */
  protected selfPaced(): boolean {
    return (this.options.paceMs ?? 0) > 0;
  }

  protected async pace(): Promise<void> {
    const signal = this.abort.signal;
    await this.whenReady();
    const paceMs = this.options.paceMs ?? 0;
    const limit = this.options.games ?? Number.POSITIVE_INFINITY;
    while (this.running && !signal.aborted && this.played.length < limit) {
      await sleep(this.options.bettingMs ?? paceMs * 4, signal);
      if (signal.aborted) break;
      if (this.options.mayPlay && !this.options.mayPlay()) {
        // A closed table: poll on a timer, never in a loop of settled promises
        // (a betting time of 0 would otherwise starve the event loop).
        await sleep(CLOSED_TABLE_POLL_MS, signal);
        continue;
      }
      await this.playGame(paceMs);
    }
  }

  private playStep(step: WheelStep): void {
    switch (step.kind) {
      case 'rotor':
        this.core.send({ type: 'ROTOR', direction: step.direction, rpm: step.rpm });
        return;
      case 'ball':
        this.core.send({ type: 'BALL', direction: step.direction });
        return;
      case 'no_more_bets':
        this.core.send({ type: 'NOMOREBETS' });
        return;
      case 'result':
        this.core.send({ type: 'RESULT', number: step.number, revolutions: step.revolutions });
        return;
      case 'misread':
        // A reader fault: a number no single-zero wheel has. The codec refuses
        // to build it, so it goes out raw, as broken firmware would send it.
        this.core.sendRaw('RESULT', ['37', String(step.revolutions)]);
        return;
      case 'no_spin':
        this.core.send({ type: 'NOSPIN', reason: step.reason });
        return;
      case 'noise': {
        const bytes = Buffer.alloc(step.bytes);
        for (let i = 0; i < bytes.length; i++) bytes[i] = this.noise.int(256);
        // End the burst on a line break, as noise on a real line does sooner or later.
        bytes[bytes.length - 2] = 0x0d;
        bytes[bytes.length - 1] = 0x0a;
        // Noise is no frame: straight onto the line, past the session and the MACs.
        const link = this.core.link;
        // Noise is best effort: a closed line is reported by the link itself.
        if (link.isOpen) link.write(bytes).catch(() => undefined);
        return;
      }
    }
  }
}
