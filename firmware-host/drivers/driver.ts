import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import type { HostSigner } from '../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { BackColour } from '../../device-protocol/cards.ts';
import {
  type HostAuthReport,
  HostEndpoint,
  type HostEndpointAction,
} from '../../device-protocol/endpoint/host-endpoint.ts';
import type { LinkOptions as SessionOptions } from '../../device-protocol/link.ts';
import type {
  BallMessage,
  CountMessage,
  HelloMessage,
  Message,
  RotorMessage,
} from '../../device-protocol/messages.ts';
import { freshHandshakeSecrets, processHostKey } from '../../hardware/keys/device-key.ts';
import type { DeckRegistry } from '../../hardware/readers/deck-registry.ts';
import { EndpointRunner, type HandledAction } from '../../hardware/transports/endpoint-runner.ts';
import {
  type LinkOptionsInput,
  type LinkStateChange,
  ReconnectingLink,
} from '../../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { AlarmKind, DomainEvent } from '../table/events.ts';
import { AuthStatusTracker } from './auth-status.ts';
import { DriverError } from './errors.ts';
import { allowListSchema, type FirmwareAllowList, firmwareVerdict, hostHello } from './identity.ts';
import { ReceiveLedger } from './ledger.ts';
import { LineWatch } from './line-watch.ts';
import type {
  DeliveryPort,
  DeviceNotice,
  DriverProfile,
  HostCommand,
  KindDeliveries,
  RecordBody,
  SpinPart,
} from './profile.ts';
import { profileFor } from './profiles/registry.ts';
import type { DriverRecord, Observation } from './records.ts';
import { StallWatch } from './stall-watch.ts';
import type { Availability, DeviceIdentityReport, DriverStatus } from './status.ts';
import { type DriverTiming, driverTimingSchema } from './timing.ts';

export {
  allowListSchema,
  type FirmwareAllowList,
  firmwareVerdict,
  hostHello,
} from './identity.ts';
export type { DeviceNotice, LidNotice, SpinPart } from './profile.ts';
export type { DeviceKind } from './profiles/registry.ts';
export type { CutRecord, DriverRecord, Observation } from './records.ts';
export type {
  Availability,
  DeviceIdentityReport,
  DriverCounters,
  DriverLineStatus,
  DriverStatus,
} from './status.ts';
export { DEVICE_UNREACHABLE_AFTER_MS, type DriverTiming, driverTimingSchema } from './timing.ts';

export interface DriverOptions {
  /** The device's name in records (`src`), events and topics, e.g. `shoe`. */
  name: string;
  /** A shipped kind, by name (its profile from the registry, an unknown one refused); `profile` wins. */
  kind?: string;
  /** The kind's profile: a vendor's kind not in the registry. */
  profile?: DriverProfile;
  transport: Transport;
  /** Absent: every firmware is accepted (a bench); present: a model or hash not listed is quarantined. */
  allowedFirmware?: FirmwareAllowList;
  /** Reader: tag UID → card. Without it every tag is a foreign card (unless `rawTags`). */
  registry?: DeckRegistry;
  /** Reader: emit `tag` events instead of mapping tags (deck enrolment). */
  rawTags?: boolean;
  /**
   * Shuffler: back colours of a shuffle record when the shuffler does not
   * report them (SHUFFLED of protocol 1.0; SHUFFLED2 carries them and wins);
   * default `['red']`. `expectedBacks`, when given, wins over it.
   */
  backs?: readonly BackColour[];
  /**
   * Shuffler: the back colours the table expects of its next shuffle, asked
   * for each shuffle the shuffler does not name the colours of. It is read
   * from the table's state (its journal), never counted here: a count this
   * process kept would start again at every restart (the deck after one, at
   * a table whose decks alternate, was recorded in the last deck's colour).
   */
  expectedBacks?: () => readonly BackColour[];
  timing?: Partial<z.input<typeof driverTimingSchema>>;
  /** Send the host's HELLO on every connection (devices never wait for it). Default true. */
  sendHello?: boolean;
  /** Host HELLO serial: the table id. */
  hostSerial?: string;
  session?: Omit<Partial<SessionOptions>, 'localTalker' | 'peerTalker' | 'deferAck'>;
  reconnect?: LinkOptionsInput;
  /** Monotonic milliseconds (link timing). */
  now?: () => number;
  /** The device's paired public key (`tableside device pair`): it must prove it (protocol 1.4). */
  pairedKey?: DevicePublicKey;
  /** The table's host key, whose CONFIRM a paired device checks (protocol 1.7); absent: one made per process. */
  hostKey?: HostSigner;
  /**
   * A device without `pairedKey`: `refuse` quarantines it at each HELLO (its
   * cards ACKed and dropped), `allow` deals its cards (a bench); either way a
   * `device_unpaired` alarm at each HELLO names `setting`, the config line
   * that allows it. Absent: dealt without an alarm (simulators, tools).
   */
  unpaired?: { policy: 'allow' | 'refuse'; setting: string };
  /** Wall-clock milliseconds since the epoch (record `ts`). */
  clock?: () => number;
}

export interface DriverEvents {
  record: [observation: Observation];
  availability: [availability: Availability, reason: string];
  alarm: [event: Extract<DomainEvent, { type: 'alarm' }>];
  hello: [identity: DeviceIdentityReport, quarantined: string | undefined];
  /** Jams, lid, door, status, errors and counts, for logs and the console. */
  notice: [notice: DeviceNotice];
  /** A card from a quarantined device, ACKed and dropped. */
  refused: [message: Message, reason: string];
  /** The device was quarantined (why) or let out (undefined). */
  quarantine: [reason: string | undefined];
  /**
   * Wheel: a ROTOR or BALL, part of the spin under way. ACK it once stored
   * (the daemon journals it); with no listener the driver ACKs it itself.
   */
  spinPart: [part: SpinPart];
  /** Reader with `rawTags`: a tag, with its acknowledgement. */
  tag: [uid: string, ack: () => void];
  link: [change: LinkStateChange];
}

/** A device's frames that ask for nothing to be taken: not a sign of a stall (stall-watch.ts). */
const NOT_PROGRESS = new Set(['ACK', 'NAK', 'PING', 'PONG', 'PROOF']);

/** How the quarantine of an unpaired device refused by its config begins (DriverStatus.quarantined). */
export const UNPAIRED_QUARANTINE = 'unpaired: ';

/** At most one `device_unpaired` alarm a second per device. */
const UNPAIRED_ALARM_EVERY_MS = 1000;

export class DeviceDriver extends EventEmitter<DriverEvents> {
  readonly name: string;
  /** The profile's kind. */
  readonly kind: string;
  readonly profile: DriverProfile;
  readonly timing: DriverTiming;
  readonly link: ReconnectingLink;
  private readonly options: DriverOptions;
  private readonly endpoint: HostEndpoint;
  private readonly runner: EndpointRunner<HostAuthReport>;
  private readonly auth: AuthStatusTracker;
  private readonly ledger = new ReceiveLedger();
  /** The kind's deliveries, with what the kind keeps between messages. */
  private readonly deliveries: KindDeliveries;
  private readonly now: () => number;
  private readonly clock: () => number;
  private availabilityState: Availability = 'offline';
  private identity: DeviceIdentityReport | undefined;
  private quarantine: string | undefined;
  private authQuarantine: string | undefined;
  private lastFrameAt = Number.NEGATIVE_INFINITY;
  /** When the device last sent a frame other than a PONG (the beat PINGs only a quiet device). */
  private lastTalkAt = Number.NEGATIVE_INFINITY;
  private heartbeat: NodeJS.Timeout | undefined;
  /** The `lastTalkAt` of the event that last re-armed the beat. */
  private beatArmedAt = Number.NaN;
  private opens = 0;
  /** Events NAKed `hello` since the device's last HELLO on this connection (PROTOCOL.md § 4). */
  private withoutHello: { since: number; frames: number; first: string } | undefined;
  /** This connection raised its alarm for events without a HELLO (once per connection). */
  private withoutHelloAlarmed = false;
  /** When the last `device_unpaired` alarm was raised (wall clock), and HELLOs since left unsaid. */
  private unpairedAlarmAt = Number.NEGATIVE_INFINITY;
  private unpairedUnsaid = 0;
  private started = false;
  private pingCounter = 0;
  private commandedDecks: number | undefined;
  private commandChain: Promise<unknown> = Promise.resolve();
  private readonly awaitingAck = new Map<
    number,
    { resolve: () => void; reject: (error: Error) => void }
  >();
  private readonly countWaiters: Array<(count: CountMessage) => void> = [];
  /** A device that keeps sending with nothing taken: `link_stalled` (issue 24 item 6). */
  private readonly stall: StallWatch;
  /** Why the line is not open, and `device_unreachable` once an outage lasts (line-watch.ts). */
  private readonly line: LineWatch;
  private readonly counters = {
    reconnects: 0,
    cardsRefused: 0,
    foreignTags: 0,
    commandsFailed: 0,
    unsupported: 0,
    invalid: 0,
  };

  constructor(options: DriverOptions) {
    super();
    const timing = driverTimingSchema.safeParse(options.timing ?? {});
    if (!timing.success) {
      throw new DriverError(
        'bad_options',
        `driver ${options.name}: ${timing.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
      );
    }
    if (options.allowedFirmware !== undefined) {
      const allow = allowListSchema.safeParse(options.allowedFirmware);
      if (!allow.success) {
        const issue = allow.error.issues[0]!;
        throw new DriverError(
          'bad_options',
          `driver ${options.name}: allowed firmware ${issue.path.join('.')}: ${issue.message}`,
        );
      }
    }
    const profile = options.profile ?? (options.kind ? profileFor(options.kind) : undefined);
    if (profile === undefined) {
      throw new DriverError('bad_options', `driver ${options.name}: no kind and no profile given`);
    }
    this.options = options;
    this.name = options.name;
    this.profile = profile;
    this.kind = profile.kind;
    this.timing = timing.data;
    this.stall = new StallWatch(this.timing.stalledAfterMs);
    this.now = options.now ?? (() => performance.now());
    this.clock = options.clock ?? (() => Date.now());
    this.endpoint = new HostEndpoint({
      peer: profile.talker,
      link: {
        // The link's defaults are PROTOCOL.md § 3.11's host timers (500 ms, x1.5, 5 transmissions).
        ...options.session,
        deferAck: [...profile.heldUntilStored],
        // Commands one at a time (see command()); PINGs bypass the limit anyway.
        maxInFlight: 1,
      },
      ...(options.sendHello === false ? {} : { hello: hostHello(options.hostSerial ?? 'table') }),
      ...(options.pairedKey === undefined ? {} : { paired: options.pairedKey }),
      fresh: freshHandshakeSecrets,
      hostKey: options.hostKey ?? processHostKey(),
    });
    this.auth = new AuthStatusTracker({
      name: options.name,
      ...(options.pairedKey === undefined ? {} : { paired: options.pairedKey }),
      clock: this.clock,
      alarm: (kind, message, detail) => this.alarm(kind, message, detail),
      quarantine: (reason) => this.quarantineFor(reason),
      authenticated: () => this.clearAuthQuarantine(),
    });
    this.link = new ReconnectingLink(options.transport, {
      silenceTimeoutMs: this.timing.silenceTimeoutMs,
      ...options.reconnect,
    });
    this.runner = new EndpointRunner({
      endpoint: this.endpoint,
      link: this.link,
      now: this.now,
      handle: (action) => this.handle(action),
      coalesceAcks: true,
    });
    this.line = new LineWatch({
      name: options.name,
      link: this.link,
      unreachableAfterMs: this.timing.unreachableAfterMs,
      now: this.now,
      alarm: (kind, message, detail) => this.alarm(kind, message, detail),
    });
    this.link.on('state', (change) => this.linkChanged(change));
    this.link.on('data', (chunk) => this.received(chunk));
    this.deliveries = profile.deliveries(this.deliveryPort());
  }

  get availability(): Availability {
    return this.availabilityState;
  }

  /** The public key the device proved on this connection (protocol 1.4), for `device pair`. */
  get provenKey(): DevicePublicKey | undefined {
    return this.endpoint.provenKey;
  }

  get isQuarantined(): boolean {
    return this.quarantine !== undefined;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.line.started();
    this.runner.start();
    this.link.start();
    this.heartbeat = setInterval(() => this.beat(), this.timing.heartbeatMs);
  }

  async stop(): Promise<void> {
    this.started = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    this.runner.stop();
    for (const waiter of this.awaitingAck.values()) {
      waiter.reject(new DriverError('not_ready', `${this.name}: driver stopped`));
    }
    this.awaitingAck.clear();
    await this.link.close();
    this.setAvailability('offline', 'driver stopped');
  }

  status(): DriverStatus {
    const stats = this.endpoint.stats;
    const status: DriverStatus = {
      name: this.name,
      kind: this.kind,
      url: this.link.url,
      link: this.link.state,
      availability: this.availabilityState,
      counters: {
        framesReceived: stats.received,
        crcErrors: stats.discarded.bad_crc,
        badLines: stats.discarded.malformed + stats.discarded.too_long + stats.discarded.no_start,
        naksSent: stats.naksSent,
        naksReceived: stats.naksReceived,
        retransmits: stats.retransmitted,
        duplicatesDropped: stats.duplicates + this.ledger.duplicates,
        heldForOrder: stats.discarded.held,
        orderGaps: stats.discarded.order_gap,
        ...this.counters,
      },
      auth: this.auth.status(),
    };
    if (this.identity) status.identity = { ...this.identity };
    if (this.quarantine !== undefined) status.quarantined = this.quarantine;
    const line = this.started ? this.line.status() : undefined;
    if (line !== undefined) status.line = line;
    return status;
  }

  /**
   * Wheel: the parts of the spin under way as the journal holds them, after
   * a restart (ROTOR and BALL ACKed before it, their RESULT not yet come).
   */
  restoreSpin(parts: readonly (RotorMessage | BallMessage)[]): void {
    this.deliveries.restoreSpin?.(parts);
  }

  /** Resolves when the device is next `online` (now, if it is). */
  whenOnline(): Promise<void> {
    if (this.availabilityState === 'online') return Promise.resolve();
    return new Promise((resolve) => {
      const listener = (availability: Availability) => {
        if (availability !== 'online') return;
        this.off('availability', listener);
        resolve();
      };
      this.on('availability', listener);
    });
  }

  // ------------------------------------------------------------ commands

  /** Shuffler: shuffle `decks` decks. Resolves on the device's ACK; the shuffle record follows. */
  shuffle(decks: number): Promise<void> {
    this.requireCommand('SHUFFLE');
    // Set before sending: a windowed shuffler's report can arrive with the ACK, in one read.
    this.commandedDecks = decks;
    return this.command({ type: 'SHUFFLE', decks }).catch((error: unknown) => {
      if (this.commandedDecks === decks) this.commandedDecks = undefined;
      throw error;
    });
  }

  /** Shuffler: count the cards of `decks` decks. Resolves with the COUNT. */
  async deckCheck(decks: number): Promise<CountMessage> {
    this.requireCommand('DECKCHECK');
    const counted = new Promise<CountMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        const at = this.countWaiters.indexOf(waiter);
        if (at >= 0) this.countWaiters.splice(at, 1);
        reject(
          new DriverError(
            'command_failed',
            `${this.name}: no COUNT within ${this.timing.countTimeoutMs} ms of the deck check`,
          ),
        );
      }, this.timing.countTimeoutMs);
      const waiter = (count: CountMessage) => {
        clearTimeout(timer);
        resolve(count);
      };
      this.countWaiters.push(waiter);
    });
    // Marked handled until returned below: a timeout while DECKCHECK is sent is no unhandled rejection; the caller still gets it.
    counted.catch(() => undefined);
    await this.command({ type: 'DECKCHECK', decks });
    return counted;
  }

  /** Shoe: a dealer light on, off or blinking. */
  indicate(light: string, mode: 'on' | 'off' | 'blink'): Promise<void> {
    return this.command({ type: 'INDICATE', light, mode });
  }

  /** Shoe: lock or unlock the card exit. */
  gate(action: 'lock' | 'unlock'): Promise<void> {
    return this.command({ type: 'GATE', action });
  }

  /** A command the kind's profile does not take is refused before it is sent. */
  private requireCommand(command: HostCommand): void {
    if (!this.profile.commands.includes(command)) {
      throw new DriverError(
        'command_failed',
        `${this.name}: a ${this.kind} takes no ${command} (it takes ${this.profile.commands.join(', ') || 'no command'})`,
      );
    }
  }

  /** One command at a time, so each is sent at once and its seq is known. */
  private command(message: Message): Promise<void> {
    const run = () => this.sendCommand(message);
    const result = this.commandChain.then(run, run);
    // The chain only orders commands: each caller gets its own command's failure from `result`.
    this.commandChain = result.catch(() => undefined);
    return result;
  }

  private sendCommand(message: Message): Promise<void> {
    if (!this.link.isOpen) {
      this.counters.commandsFailed++;
      return Promise.reject(
        new DriverError(
          'not_ready',
          `${this.name}: ${message.type} while the link is ${this.link.state}`,
        ),
      );
    }
    const actions = this.endpoint.send(message, this.now());
    const written = actions.find(
      (action): action is Extract<HostEndpointAction, { kind: 'write' }> =>
        action.kind === 'write' && action.type === message.type,
    );
    const sent = written?.seq === undefined ? undefined : { seq: written.seq };
    const acked = new Promise<void>((resolve, reject) => {
      if (!sent) {
        reject(
          new DriverError('command_failed', `${this.name}: ${message.type} could not be sent`),
        );
        return;
      }
      const timer = setTimeout(() => {
        this.awaitingAck.delete(sent.seq);
        reject(
          new DriverError(
            'command_failed',
            `${this.name}: ${message.type} not ACKed within ${this.timing.commandTimeoutMs} ms`,
          ),
        );
      }, this.timing.commandTimeoutMs);
      this.awaitingAck.set(sent.seq, {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
    });
    this.run(actions);
    return acked.catch((error: unknown) => {
      this.counters.commandsFailed++;
      throw error;
    });
  }

  // ------------------------------------------------------------ link

  private linkChanged(change: LinkStateChange): void {
    this.line.changed(change);
    if (change.state === 'open') {
      this.opens++;
      this.withoutHello = undefined;
      this.withoutHelloAlarmed = false;
      if (this.opens > 1) this.counters.reconnects++;
      // The endpoint says our HELLO and asks for the device's afresh (a reopen).
      this.runner.opened();
      this.beat();
    } else {
      this.runner.closed();
      this.auth.lineClosed();
      this.setAvailability('offline', `link ${change.state}: ${change.reason}`);
    }
    // After the availability: a view shows the line's reason and next try, not the bare drop.
    this.emit('link', change);
  }

  private beat(): void {
    this.checkStall();
    // An attack on the line is counted each minute and ends while the line is closed too.
    this.auth.tick();
    if (!this.link.isOpen) {
      if (this.started) this.line.check();
      return;
    }
    this.checkWithoutHello();
    const silentFor = this.now() - this.lastFrameAt;
    if (silentFor > this.timing.offlineAfterMs) {
      this.setAvailability('offline', `no frame for ${Math.round(silentFor)} ms`);
    }
    // A frame the device sent of its own within the beat (not the PONG to our last PING)
    // proved it alive, and our ACK of it proved us alive to it: a PING would cost both
    // ends a wake-up for nothing.
    // A beat re-armed by the last event is a beat after it by the event loop's
    // clock, which was read before the event was handled: `now()` may say a
    // little less. It PINGs all the same, not a whole beat later.
    const rearmedByLastTalk = this.beatArmedAt === this.lastTalkAt;
    if (this.now() - this.lastTalkAt < this.timing.heartbeatMs && !rearmedByLastTalk) return;
    this.pingCounter = (this.pingCounter + 1) % 1_000_000;
    this.run(this.endpoint.send({ type: 'PING', token: `P${this.pingCounter}` }, this.now()));
  }

  private received(chunk: Buffer): void {
    const now = this.now();
    const before = this.endpoint.framesReceived;
    this.runner.receive(chunk);
    if (this.endpoint.framesReceived > before) {
      // A valid frame: the device is alive (feeds the link's silence watchdog).
      this.lastFrameAt = now;
      this.link.markAlive();
      if (this.identity !== undefined) this.setAvailability('online', 'frames flowing');
    }
  }

  private run(actions: readonly HostEndpointAction[]): void {
    this.runner.run(actions);
  }

  private handle(action: HandledAction<HostAuthReport>): void {
    switch (action.kind) {
      case 'heard':
        if (!NOT_PROGRESS.has(action.frame.type)) this.stall.sent(action.frame.type, this.now());
        break;
      case 'auth':
        this.auth.report(action.report);
        break;
      case 'deliver':
        this.deliver(action.seq, action.message);
        break;
      case 'acked':
        this.awaitingAck.get(action.seq)?.resolve();
        this.awaitingAck.delete(action.seq);
        break;
      case 'failed': {
        const waiter = this.awaitingAck.get(action.seq);
        this.awaitingAck.delete(action.seq);
        waiter?.reject(
          new DriverError(
            'command_failed',
            `${this.name}: ${action.type} ${action.reason === 'no_ack' ? `not ACKed after ${action.attempts} attempts` : 'not sent: queue full'}`,
          ),
        );
        break;
      }
      case 'discarded':
        if (action.reason === 'hello_required') {
          this.withoutHello ??= { since: this.now(), frames: 0, first: action.detail };
          this.withoutHello.frames++;
        }
        break;
      case 'unsupported':
        this.counters.unsupported++;
        break;
      case 'invalid':
        this.counters.invalid++;
        if (this.profile.invalidIsFault) {
          // A wheel result that cannot be true (no such pocket, no such
          // direction) is refused, never stored; the inspector is told.
          this.alarm(
            'device_fault',
            `${this.name}: refused ${action.frame.type} (seq ${action.seq}): ${action.error}`,
            { fault: 'invalid_message', frame: action.frame.type, deviceSeq: action.seq },
          );
        }
        break;
      default:
        break;
    }
  }

  /**
   * Events NAKed `hello` are normal for a moment after the host restarts
   * (the device says HELLO at the NAK); a line still sending them with no
   * HELLO after `offlineAfterMs` carries a device that does not say who it
   * is: one alarm per connection, however many frames.
   */
  private checkWithoutHello(): void {
    const pending = this.withoutHello;
    if (pending === undefined || this.withoutHelloAlarmed) return;
    if (this.now() - pending.since < this.timing.offlineAfterMs) return;
    this.withoutHelloAlarmed = true;
    this.alarm(
      'device_unauthenticated',
      `${this.name}: ${pending.frames} frame(s) with no HELLO (first: ${pending.first}): NAKed, never dealt; the device on this line does not say who it is`,
      { reason: 'no_hello', frames: pending.frames },
    );
  }

  private setAvailability(availability: Availability, reason: string): void {
    if (this.availabilityState === availability) return;
    this.availabilityState = availability;
    this.emit('availability', availability, reason);
  }

  // ------------------------------------------------------------ messages

  private alarm(kind: AlarmKind, message: string, detail: Record<string, unknown> = {}): void {
    this.emit('alarm', { type: 'alarm', kind, message, device: this.name, ...detail });
  }

  /** ACKs a deferred frame now (it carries nothing to store). */
  private settle(seq: number): void {
    this.ledger.markDurable(seq);
    this.run(this.endpoint.ack(seq, this.now()));
  }

  private deliver(seq: number, message: Message): void {
    if (message.type !== 'PONG') this.lastTalkAt = this.now();
    switch (message.type) {
      case 'HELLO':
        this.hello(seq, message);
        return;
      case 'PING':
      case 'PONG':
      case 'ACK':
      case 'NAK':
        return;
      default:
        break;
    }
    const verdict = this.ledger.classify(seq, message);
    if (verdict === 'duplicate_durable') {
      this.run(this.endpoint.ack(seq, this.now()));
      return;
    }
    if (verdict === 'duplicate_pending') return;
    this.progressed();
    // A new event: the device is alive and not stalled, so the next beat is
    // due a beat from now. Cards every few hundred milliseconds then never
    // wake the driver in between; a quiet or stalled device is still beaten.
    this.heartbeat?.refresh();
    this.beatArmedAt = this.lastTalkAt;
    const held = this.profile.heldUntilStored.includes(message.type);
    if (!held) this.ledger.markDurable(seq);
    const delivery = this.deliveries.deliver[message.type] as
      | ((seq: number, message: Message) => void)
      | undefined;
    delivery?.(seq, message);
  }

  private hello(seq: number, message: HelloMessage): void {
    this.ledger.hello(seq);
    this.withoutHello = undefined;
    const identity: DeviceIdentityReport = {
      model: message.model,
      serial: message.serial,
      protocol: message.protocol,
      firmware: message.firmware,
      firmwareSha256: message.firmwareSha256,
    };
    const firmware = firmwareVerdict(message, this.options.allowedFirmware);
    const unpaired = this.options.pairedKey === undefined ? this.options.unpaired : undefined;
    const verdict =
      firmware ??
      (unpaired?.policy === 'refuse'
        ? `${UNPAIRED_QUARANTINE}the table holds no key for it (pair it: tableside device pair ${this.name}; on a bench only: ${unpaired.setting})`
        : undefined);
    const wasQuarantined = this.quarantine;
    this.authQuarantine = undefined;
    this.identity = identity;
    this.setQuarantine(verdict);
    this.emit('hello', identity, verdict);
    if (unpaired !== undefined) this.unpairedAlarm(unpaired, identity);
    if (firmware !== undefined && firmware !== wasQuarantined) {
      this.alarm(
        'device_quarantined',
        `${this.name} quarantined: ${verdict}; its cards are refused`,
        {
          model: message.model,
          serial: message.serial,
          firmware: message.firmware,
          firmwareSha256: message.firmwareSha256,
        },
      );
    }
    this.setAvailability('online', 'HELLO');
  }

  /** `link_stalled` once per stall: the device keeps sending and nothing it sends is taken. */
  private checkStall(): void {
    // A quarantined device's frames are refused by design, and its quarantine is alarmed
    // (an attack on its line counted each minute): it is not a stall to alarm again.
    if (this.isQuarantined) return;
    const stall = this.stall.check(this.now());
    if (stall === undefined) return;
    const frames = Object.entries(stall.frames)
      .map(([type, count]) => `${type} ×${count}`)
      .join(', ');
    const auth = this.auth.status().state;
    this.alarm(
      'link_stalled',
      `${this.name}: no progress for ${Math.round(stall.forMs / 1000)} s: it keeps sending (${frames}) and nothing new is taken (link ${this.link.state}, authentication ${auth}); check the cable, then restart the device`,
      { stalledForMs: Math.round(stall.forMs), frames: stall.frames, auth },
    );
  }

  /** A new event from the device: a stall raised before has ended. */
  private progressed(): void {
    const resumed = this.stall.progress(this.now());
    if (resumed === undefined) return;
    this.alarm(
      'link_resumed',
      `${this.name}: events flow again after ${Math.round(resumed.stalledForMs / 1000)} s stalled`,
      { stalledForMs: Math.round(resumed.stalledForMs) },
    );
  }

  /**
   * An unpaired device said HELLO (a new connection): dealt on a bench, or
   * refused; said at every connect, so it cannot go unnoticed.
   */
  private unpairedAlarm(
    unpaired: NonNullable<DriverOptions['unpaired']>,
    identity: DeviceIdentityReport,
  ): void {
    // At most one a second, as device_unauthenticated: a line repeating HELLO is counted, not echoed.
    const now = this.clock();
    if (now - this.unpairedAlarmAt < UNPAIRED_ALARM_EVERY_MS) {
      this.unpairedUnsaid++;
      return;
    }
    this.unpairedAlarmAt = now;
    const repeated = this.unpairedUnsaid;
    this.unpairedUnsaid = 0;
    const who = `${identity.model} serial ${identity.serial}, protocol ${identity.protocol}`;
    const dealt = unpaired.policy === 'allow';
    this.alarm(
      'device_unpaired',
      dealt
        ? `${this.name}: unpaired device (${who}) dealing unauthenticated cards, allowed by ${unpaired.setting} (a bench only): pair it (tableside device pair ${this.name}) before live play`
        : `${this.name}: unpaired device (${who}) refused, none of its cards is dealt: pair it (tableside device pair ${this.name}), or on a bench set ${unpaired.setting}`,
      {
        dealt,
        setting: unpaired.setting,
        model: identity.model,
        serial: identity.serial,
        protocol: identity.protocol,
        firmwareSha256: identity.firmwareSha256,
        ...(repeated > 0 ? { hellosSinceLastAlarm: repeated } : {}),
      },
    );
  }

  private setQuarantine(reason: string | undefined): void {
    if (reason === this.quarantine) return;
    this.quarantine = reason;
    this.emit('quarantine', reason);
  }

  /** The device failed to authenticate (protocol 1.4): quarantined until its next good handshake. */
  private quarantineFor(reason: string): void {
    this.authQuarantine = reason;
    this.setQuarantine(reason);
  }

  private clearAuthQuarantine(): void {
    if (this.authQuarantine !== undefined && this.quarantine === this.authQuarantine) {
      this.setQuarantine(undefined);
    }
    this.authQuarantine = undefined;
  }

  /** A quarantined device's card (`card`: counted as one) or other event: ACKed (so it does not flood the line) and dropped. */
  private refuse(seq: number, message: Message, card = true): boolean {
    if (this.quarantine === undefined) return false;
    if (card) this.counters.cardsRefused++;
    this.emit('refused', message, this.quarantine);
    this.settle(seq);
    return true;
  }

  /** The colours of a shuffle the shuffler did not name: what the table expects, else the fixed ones. */
  private unnamedBacks(): BackColour[] {
    const expected = this.options.expectedBacks?.();
    if (expected?.length) return [...expected];
    return this.options.backs?.length ? [...this.options.backs] : ['red'];
  }

  private emitRecord(seq: number, record: RecordBody): void {
    const full = { ...record, ts: this.clock(), src: this.name } as DriverRecord;
    const observation: Observation = {
      device: this.name,
      seq,
      record: full,
      ack: this.acknowledgement(seq),
    };
    this.emit('record', observation);
  }

  /** ACKs `seq` once, however often it is called. */
  private acknowledgement(seq: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.settle(seq);
    };
  }

  /** What the kind's deliveries may do here (profile.ts). */
  private deliveryPort(): DeliveryPort {
    const options = this.options;
    return {
      name: this.name,
      registry: options.registry,
      rawTags: options.rawTags === true,
      counters: this.counters,
      record: (seq, record) => this.emitRecord(seq, record),
      refuse: (seq, message, card) => this.refuse(seq, message, card),
      settle: (seq) => this.settle(seq),
      acknowledgement: (seq) => this.acknowledgement(seq),
      notice: (notice: DeviceNotice) => this.emit('notice', notice),
      alarm: (kind, message, detail) => this.alarm(kind, message, detail),
      spinPart: (part: SpinPart) => this.emit('spinPart', part),
      tag: (uid, ack) => {
        this.emit('tag', uid, ack);
      },
      takeCommandedDecks: () => {
        const decks = this.commandedDecks;
        this.commandedDecks = undefined;
        return decks;
      },
      counted: (count) => {
        for (const waiter of this.countWaiters.splice(0)) waiter(count);
      },
      unnamedBacks: () => this.unnamedBacks(),
    };
  }
}
