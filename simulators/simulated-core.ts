/**
 * What every simulator puts around the device core (hardware/device): its
 * firmware identity and HELLO, the core wired to its wire behaviours (the
 * faults it plays on its own frames), the core's events passed on, and an
 * abortable pause for pacing. The card devices (device.ts) and the wheel
 * (wheel.ts) differ only in what they play.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { DevicePublicKey } from '../device-protocol/auth/keys.ts';
import type { DeviceTalker } from '../device-protocol/frame.ts';
import type { LinkAction, LinkOptions, LinkStats } from '../device-protocol/link.ts';
import { type HelloMessage, type Message, PROTOCOL_VERSION } from '../device-protocol/messages.ts';
import { DeviceCore } from '../hardware/device/device-core.ts';
import type { DeviceKey } from '../hardware/keys/device-key.ts';
import type {
  LinkOptionsInput,
  LinkStateChange,
  ReconnectingLink,
} from '../hardware/transports/reconnecting-link.ts';
import type { Transport } from '../hardware/transports/transport.ts';
import type { BehaviourSet } from './behaviours.ts';
import type { Random } from './random.ts';
import type { DeviceIdentity } from './steps.ts';

export const SIMULATOR_FIRMWARE_VERSION = '1.0.0-sim';

/** The firmware hash a simulator of `kind` reports unless told otherwise. */
export function simulatorFirmwareSha256(kind: string): string {
  return createHash('sha256')
    .update(`tableside simulator firmware ${kind} ${SIMULATOR_FIRMWARE_VERSION}`)
    .digest('hex');
}

/** The HELLO a device with this identity sends on every connection. */
export function helloOf(identity: DeviceIdentity): HelloMessage {
  return {
    type: 'HELLO',
    model: identity.model,
    serial: identity.serial,
    protocol: identity.protocolVersion,
    firmware: identity.firmwareVersion,
    firmwareSha256: identity.firmwareSha256,
  };
}

export interface SimulatedCoreOptions {
  talker: DeviceTalker;
  transport: Transport;
  identity: DeviceIdentity;
  /** The wire behaviours played on the core's frames, with their own random stream. */
  wire: BehaviourSet;
  wireRandom: Random;
  /** True while the device neither hears nor speaks. */
  silent: () => boolean;
  now: () => number;
  session?: Omit<Partial<LinkOptions>, 'localTalker'> | undefined;
  reconnect?: LinkOptionsInput | undefined;
  key?: DeviceKey | undefined;
  /** The host's public key, learned at pairing (protocol 1.7): only that host's CONFIRM opens a session. */
  hostKey?: DevicePublicKey | undefined;
}

/** A device core speaking for a simulator: its HELLO, its wire behaviours, its key. */
export function simulatedCore(options: SimulatedCoreOptions): DeviceCore {
  return new DeviceCore({
    talker: options.talker,
    transport: options.transport,
    hello: helloOf(options.identity),
    ...(options.session ? { session: options.session } : {}),
    ...(options.reconnect ? { reconnect: options.reconnect } : {}),
    now: options.now,
    ...(options.key === undefined ? {} : { key: options.key }),
    ...(options.hostKey === undefined ? {} : { hostKey: options.hostKey }),
    hooks: {
      incoming: (frame) => options.wire.incoming(frame, options.wireRandom),
      outgoing: (frame) => options.wire.outgoing(frame, options.wireRandom),
      silent: options.silent,
    },
  });
}

/** The events every simulator emits, whatever it plays. */
export interface SimulatorCoreEvents {
  /** The link opened or closed. */
  link: [change: LinkStateChange];
  /** The host ACKed our HELLO: events flow. */
  ready: [];
  /** A command from the host. */
  command: [message: Message];
  /** Every frame written, after the wire behaviours (for tests and `--verbose`). */
  wrote: [line: string];
  /** A frame the device gave up on: a real device would have lost it. */
  lost: [action: Extract<LinkAction, { kind: 'failed' }>];
  /** A frame from the host refused by authentication (protocol 1.4), or the signer failed. */
  refused: [detail: string];
  /** No host proved the pairing after our PROOF (protocol 1.7): cards kept, a HELLO again. */
  hostLost: [detail: string];
}

/** The core events a simulator passes on as they are. */
interface PassedOn {
  emit(event: 'link', change: LinkStateChange): boolean;
  emit(event: 'wrote', line: string): boolean;
  emit(event: 'lost', action: Extract<LinkAction, { kind: 'failed' }>): boolean;
  emit(event: 'ready'): boolean;
  emit(event: 'refused', detail: string): boolean;
  emit(event: 'hostLost', detail: string): boolean;
}

/** Passes the core's link, wrote, lost, ready, refused and hostLost events on to `simulator`. */
export function passOnCoreEvents(core: DeviceCore, simulator: PassedOn): void {
  core.on('link', (change) => simulator.emit('link', change));
  core.on('wrote', (line) => simulator.emit('wrote', line));
  core.on('lost', (action) => simulator.emit('lost', action));
  core.on('ready', () => simulator.emit('ready'));
  core.on('refused', (detail) => simulator.emit('refused', detail));
  core.on('hostLost', (detail) => simulator.emit('hostLost', detail));
}

/** Waits `ms`, or less if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
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
}

/** The identity a simulated `kind` reports unless told otherwise: its model, its serial from the seed. */
export function simulatorIdentity(kind: string, model: string, seed: number): DeviceIdentity {
  return {
    model,
    serial: `SIM-${kind.toUpperCase()}-${seed}`,
    protocolVersion: PROTOCOL_VERSION,
    firmwareVersion: SIMULATOR_FIRMWARE_VERSION,
    firmwareSha256: simulatorFirmwareSha256(kind),
  };
}

/**
 * What a simulator shows of its device core (its line, its handshake, its
 * link session) and how it starts and stops around it: the core opened, then
 * its play paced on its own (`pace`) where it is (a rate, a pace), else
 * stepped by its owner; on stop, the pacing aborted and the line closed.
 */
export abstract class SimulatorOnCore<
  Events extends Record<keyof Events, unknown[]>,
> extends EventEmitter<Events> {
  protected abstract readonly core: DeviceCore;
  /** Aborted on stop: every pause and every paced loop ends. */
  protected readonly abort = new AbortController();
  /** Between start and stop. */
  protected running = false;
  private pacing: Promise<void> | undefined;

  /** Whether it plays on its own once started; else its owner steps it. */
  protected abstract selfPaced(): boolean;
  /** Plays on its own, from its HELLO's ACK until it is done or stopped. */
  protected abstract pace(): Promise<void>;

  /** Opens the link (and keeps it open); a self-paced simulator plays once its HELLO is ACKed. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.core.start();
    if (this.selfPaced()) this.pacing = this.pace();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    const closing = this.core.stop();
    await this.pacing;
    await closing;
  }

  /** The device's reconnecting line. */
  get link(): ReconnectingLink {
    return this.core.link;
  }

  /** Whether this connection is authenticated (protocol 1.4): every frame carries a MAC. */
  get authenticated(): boolean {
    return this.core.authenticated;
  }

  /** Whether the host has ACKed our HELLO. */
  get ready(): boolean {
    return this.core.ready;
  }

  get stats(): LinkStats {
    return this.core.stats;
  }

  /** Frames not yet ACKed by the host. */
  get pending(): { inFlight: number; queued: number } {
    return this.core.pending;
  }

  /** Resolves once the host has ACKed our HELLO. */
  whenReady(): Promise<void> {
    return this.core.whenReady();
  }
}
