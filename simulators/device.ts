import { performance } from 'node:perf_hooks';
import type { DevicePublicKey } from '../device-protocol/auth/keys.ts';
import { type BackColour, type CardCode, JOKER } from '../device-protocol/cards.ts';
import type { DeviceTalker } from '../device-protocol/frame.ts';
import type { LinkOptions as SessionOptions } from '../device-protocol/link.ts';
import { type Message, peerKnows } from '../device-protocol/messages.ts';
import { shuffledMessages } from '../device-protocol/shuffle-order.ts';
import type { KindSimulation, SimulationPort } from '../firmware-host/drivers/profile.ts';
import {
  DEVICE_PROFILES,
  type ProfileRegistry,
  profileFor,
} from '../firmware-host/drivers/profiles/registry.ts';
import type { LegalRound } from '../firmware-host/games/cards/simulated/legal-round.ts';
import {
  ShoeDealer,
  type SimShoe,
  shoeOrder,
} from '../firmware-host/games/cards/simulated/legal-shoe.ts';
import type { DeviceCore } from '../hardware/device/device-core.ts';
import type { DeviceKey } from '../hardware/keys/device-key.ts';
import type { LinkOptionsInput } from '../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../hardware/transports/transport.ts';
import { BehaviourSet } from './behaviours.ts';
import { SimulatorError } from './errors.ts';
import { effectiveRecipe, planSession } from './plan.ts';
import { createRandom, type Random } from './random.ts';
import type { Scenario } from './scenario.ts';
import {
  passOnCoreEvents,
  type SimulatorCoreEvents,
  SimulatorOnCore,
  simulatedCore,
  simulatorIdentity,
  sleep,
} from './simulated-core.ts';
import type { DeviceIdentity, Step } from './step.ts';
import { ShoeTagger } from './tags.ts';

/** The firmware hash a simulator of a kind reports unless told otherwise: allow-list it for a bench. */
export { SIMULATOR_FIRMWARE_VERSION, simulatorFirmwareSha256 } from './simulated-core.ts';

/**
 * The simulation of a kind, from its profile; a kind no simulated device
 * plays is refused naming it.
 */
export function simulationOf(
  kind: string,
  profiles: ProfileRegistry = DEVICE_PROFILES,
): KindSimulation {
  const simulation = profileFor(kind, profiles).simulation;
  if (!simulation) {
    throw new SimulatorError(
      'bad_options',
      `no simulated device plays the device kind ${JSON.stringify(kind)}: its profile names no simulation`,
    );
  }
  return simulation;
}

/** The model a simulator of a kind says in HELLO: allow-list it for a bench. */
export function simulatorModel(kind: string, profiles?: ProfileRegistry): string {
  return simulationOf(kind, profiles).model;
}

export function defaultIdentity(
  kind: string,
  seed: number,
  profiles?: ProfileRegistry,
): DeviceIdentity {
  return simulatorIdentity(kind, simulatorModel(kind, profiles), seed);
}

/** The device side's link-session settings (the device core's, shared with the firmware). */
export { DEVICE_SESSION_DEFAULTS } from '../hardware/device/device-core.ts';

export interface SimulatorOptions {
  /** The device kind it plays: its profile's simulation says what it sends. */
  kind: string;
  /** The kinds' profiles; absent: the shipped ones (a vendor's kind is one more profile). */
  profiles?: ProfileRegistry;
  /** The device end of the link (a pty path, a TCP socket, a memory wire's device end). */
  transport: Transport;
  ruleset: string;
  seed?: number;
  scenario?: Scenario;
  /** Behaviours switched on: `NAME` or `NAME=ARG` (see behaviours.ts). */
  faults?: readonly string[];
  /** Behaviours switched off (features such as `report-order`). */
  off?: readonly string[];
  /** Cards per second; absent or 0: stepped by `step()`. */
  rate?: number;
  identity?: Partial<DeviceIdentity>;
  /** Link-session options over DEVICE_SESSION_DEFAULTS. */
  session?: Omit<Partial<SessionOptions>, 'localTalker'>;
  /** Reopen policy of the device's own end (a pty that vanished, a TCP server restarted). */
  reconnect?: LinkOptionsInput;
  /** Rounds of the default session of one-deck-per-round games. */
  rounds?: number;
  /** Boxes in play in each legal round (`deal: round`); default a random set per round. */
  boxes?: readonly number[];
  /** Colour of the first deck of an alternating-colour game: the one the table brings in next. */
  firstBack?: BackColour;
  /** Monotonic milliseconds; injectable for tests. */
  now?: () => number;
  /** The device's own key (protocol 1.4, PROTOCOL.md § 5); absent: a device without a key. */
  key?: DeviceKey;
  /** The table's host public key, learned at pairing (protocol 1.7): only that host's CONFIRM opens a session; absent: any host's (a bench). */
  hostKey?: DevicePublicKey;
  /** The first shoe, given whole (plan.ts `shoe`): a shoe the table holds, after a restart. */
  shoe?: SimShoe;
  /** Steps of the plan the table already has (a restart mid-shoe): skipped, never sent. */
  resumeAt?: number;
  /**
   * The protocol the host's HELLO announced on this wire before the simulator
   * took it over: the host sends its HELLO once per connection (PROTOCOL.md
   * § 4.3), so a simulator started on a wire the host opened earlier (the
   * daemon's own bench, a deck after another) never hears it, and would
   * report its shuffles without their colours.
   */
  hostProtocol?: string;
}

export interface SimulatorEvents extends SimulatorCoreEvents {
  /** A step was played (sent, or consumed silently). */
  played: [step: Step, index: number];
  /** Every step was played and every frame ACKed. */
  done: [];
}

export class SimulatedDevice extends SimulatorOnCore<SimulatorEvents> {
  readonly kind: string;
  readonly talker: DeviceTalker;
  readonly behaviours: BehaviourSet;
  /** The planned session, faults applied. */
  readonly steps: readonly Step[];
  /** The legal rounds planned (`deal: round`), in order: their boxes and the dealer's decisions. */
  readonly legalRounds: readonly LegalRound[];
  readonly identity: DeviceIdentity;
  readonly seed: number;
  readonly rate: number;
  /** Dealer lights as the host set them. */
  readonly lights = new Map<string, 'on' | 'off' | 'blink'>();
  gateLocked = false;

  protected readonly core: DeviceCore;
  private readonly wireRandom: Random;
  private readonly tagger = new ShoeTagger(1);
  private readonly commandDealer: ShoeDealer;
  private readonly now: () => number;
  private position = 0;
  private played = 0;
  private silentUntil = 0;
  private stepping: Promise<boolean> = Promise.resolve(true);
  private lastDecks = 1;
  private readonly hostProtocolBefore: string | undefined;
  private readonly simulation: KindSimulation;
  private readonly port: SimulationPort;

  constructor(options: SimulatorOptions) {
    super();
    this.kind = options.kind;
    this.simulation = simulationOf(options.kind, options.profiles);
    this.talker = profileFor(options.kind, options.profiles).talker;
    this.seed = options.seed ?? options.scenario?.seed ?? 1;
    this.rate = options.rate ?? options.scenario?.rate ?? 0;
    if (!Number.isFinite(this.rate) || this.rate < 0 || this.rate > 1000) {
      throw new SimulatorError(
        'bad_options',
        `bad rate ${this.rate}: expected 0-1000 cards per second`,
      );
    }
    this.now = options.now ?? (() => performance.now());
    this.behaviours = new BehaviourSet([
      ...(options.scenario?.on ?? []),
      ...(options.faults ?? []),
    ]);
    for (const name of [...(options.scenario?.off ?? []), ...(options.off ?? [])]) {
      this.behaviours.set(name, false);
    }
    const planOptions: Parameters<typeof planSession>[0] = {
      ruleset: options.ruleset,
      seed: this.seed,
      behaviours: this.behaviours,
    };
    if (options.scenario?.steps) planOptions.script = options.scenario.steps;
    if (options.rounds !== undefined) planOptions.rounds = options.rounds;
    if (options.boxes !== undefined) planOptions.boxes = options.boxes;
    if (options.firstBack !== undefined) planOptions.firstBack = options.firstBack;
    if (options.shoe !== undefined) planOptions.shoe = options.shoe;
    const legalRounds: LegalRound[] = [];
    planOptions.onRound = (round) => legalRounds.push(round);
    this.steps = planSession(planOptions);
    this.legalRounds = legalRounds;
    this.position = Math.min(options.resumeAt ?? 0, this.steps.length);
    this.hostProtocolBefore = options.hostProtocol;
    const random = createRandom(this.seed);
    this.wireRandom = random.fork(`wire/${this.kind}`);
    const recipe = effectiveRecipe(options.ruleset, this.behaviours);
    this.commandDealer = new ShoeDealer(
      recipe,
      random.fork('commanded-shuffles'),
      recipe.alternateBacks ? options.firstBack : undefined,
    );
    this.identity = this.behaviours.identity({
      ...simulatorIdentity(this.kind, this.simulation.model, this.seed),
      ...options.scenario?.identity,
      ...options.identity,
    });
    this.core = simulatedCore({
      talker: this.talker,
      transport: options.transport,
      identity: this.identity,
      wire: this.behaviours,
      wireRandom: this.wireRandom,
      silent: () => this.isSilent(),
      now: this.now,
      session: options.session,
      reconnect: options.reconnect,
      key: options.key,
      hostKey: options.hostKey,
    });
    this.port = this.simulationPort();
    passOnCoreEvents(this.core, this);
    this.core.on('command', (message) => this.command(message));
    this.core.on('idle', () => this.checkDone());
  }

  /** Cards (and cut cards, tags, shuffles) played so far. */
  get playedSteps(): number {
    return this.played;
  }

  /** Index of the next step to play. */
  get nextStepIndex(): number {
    return this.position;
  }

  /**
   * The next step that moves cards (a shuffle, a card, the cut card), not yet
   * played; undefined when the plan has none left. A dealer reads it to tell
   * a deck dealt out (a shuffle next) from one with cards left.
   */
  upcoming(): Extract<Step, { kind: 'shuffle' | 'card' | 'cut' }> | undefined {
    for (let index = this.position; index < this.steps.length; index++) {
      const step = this.steps[index]!;
      if (step.kind === 'shuffle' || step.kind === 'card' || step.kind === 'cut') return step;
    }
    return undefined;
  }

  get finished(): boolean {
    return this.position >= this.steps.length;
  }

  /** Resolves when every step is played and every frame ACKed. */
  whenDone(): Promise<void> {
    if (this.isDone()) return Promise.resolve();
    return new Promise((resolve) => this.once('done', () => resolve()));
  }

  /**
   * Plays steps up to and including the next paced one (a card, the cut
   * card, a tag; for the shuffler, a shuffle). Resolves false when there is
   * nothing left. Steps run one after the other even if called concurrently.
   */
  step(): Promise<boolean> {
    this.stepping = this.stepping.then(() => this.advance());
    return this.stepping;
  }

  /** Plays `count` paced steps; resolves with how many there were. */
  async stepMany(count: number): Promise<number> {
    let done = 0;
    while (done < count && (await this.step())) done++;
    return done;
  }

  /** Sends a raw message now (tests: an unknown TYPE, an extra STATUS). */
  sendMessage(message: Message): void {
    this.core.send(message);
  }

  // ------------------------------------------------------------ pacing

  /** With a rate, dealing starts once HELLO is ACKed; without, `step()` deals. */
  protected selfPaced(): boolean {
    return this.rate > 0;
  }

  protected async pace(): Promise<void> {
    const signal = this.abort.signal;
    await this.whenReady();
    const interval = 1000 / this.rate;
    while (this.running && !signal.aborted) {
      const more = await this.step();
      if (!more) break;
      await sleep(interval, signal);
    }
  }

  /** What the kind's simulation may do with this device. */
  private simulationPort(): SimulationPort {
    return {
      send: (message) => this.send(message),
      tagOf: (card, back) => this.tagger.uidFor(card, back),
      newTags: (decks) => this.tagger.reset(decks),
      reportShuffle: (order, reportOrder, backs) => this.reportShuffle(order, reportOrder, backs),
      shuffleCommanded: (decks) => {
        const shoe = this.commandDealer.next('fair');
        const order = shoeOrder(shoe).filter((card) => card !== JOKER);
        this.lastDecks = decks;
        this.reportShuffle(order, this.behaviours.isOn('report-order'), shoe.backs);
      },
      isOn: (behaviour) => this.behaviours.isOn(behaviour),
      sleep: (ms) => sleep(ms, this.abort.signal),
    };
  }

  private async advance(): Promise<boolean> {
    const signal = this.abort.signal;
    while (this.position < this.steps.length && !signal.aborted) {
      // The dealer cannot take a card from a locked shoe.
      while (this.gateLocked && this.simulation.heldByGate && !signal.aborted) {
        await sleep(20, signal);
      }
      const index = this.position++;
      const step = this.steps[index]!;
      await this.play(step);
      this.emit('played', step, index);
      if (this.simulation.paced(step)) {
        this.played++;
        this.checkDone();
        return true;
      }
    }
    this.checkDone();
    return false;
  }

  private async play(step: Step): Promise<void> {
    const signal = this.abort.signal;
    switch (step.kind) {
      case 'behaviour':
        this.behaviours.set(step.name, step.on, step.arg);
        return;
      case 'pause':
        await sleep(step.ms, signal);
        return;
      case 'silence':
        this.silentUntil = this.now() + step.ms;
        await sleep(step.ms, signal);
        return;
      case 'shuffle':
        this.lastDecks = step.decks;
        await this.simulation.play(step, this.port);
        return;
      default:
        // The kind's own steps: what its device sees of the session, as its profile says.
        await this.simulation.play(step, this.port);
        return;
    }
  }

  // ------------------------------------------------------------ link

  private send(message: Message): void {
    this.core.send(message);
  }

  private sendAll(messages: readonly Message[]): void {
    for (const message of messages) this.send(message);
  }

  /** The protocol version the host's HELLO announced (or the `hostProtocol` option); undefined until one arrived. */
  get hostProtocol(): string | undefined {
    return this.core.hostProtocol ?? this.hostProtocolBefore;
  }

  /**
   * SHUFFLED (and ORDER chunks when it reads cards); SHUFFLED2 with the back
   * colours instead when it reads backs and the host knows protocol 1.1,
   * since an older host would ACK SHUFFLED2 as unsupported and lose the shuffle.
   */
  private reportShuffle(
    order: readonly CardCode[],
    reportOrder: boolean,
    backs: readonly BackColour[],
  ): void {
    const named =
      this.behaviours.isOn('report-backs') && peerKnows('SHUFFLED2', this.hostProtocol)
        ? { backs }
        : {};
    this.sendAll(
      shuffledMessages(reportOrder ? { order, ...named } : { count: order.length, ...named }),
    );
  }

  private isSilent(): boolean {
    return this.now() < this.silentUntil;
  }

  private command(message: Message): void {
    switch (message.type) {
      case 'INDICATE':
        this.lights.set(message.light, message.mode);
        break;
      case 'GATE':
        this.gateLocked = message.action === 'lock';
        break;
      default:
        this.simulation.command?.(message, this.port);
        break;
    }
    this.emit('command', message);
  }

  private isDone(): boolean {
    return this.finished && this.core.idle;
  }

  private checkDone(): void {
    if (this.isDone()) this.emit('done');
  }

  /** The decks of the last shuffle (for a COUNT without a SHUFFLE command). */
  get decks(): number {
    return this.lastDecks;
  }
}
