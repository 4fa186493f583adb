/**
 * A device kind's profile, as the one link driver (`driver.ts`) consults it:
 * the talker it speaks as, the messages it sends and how each is delivered,
 * which of them the table must hold (journal) before the device is ACKed,
 * the commands it takes and its availability rules. Nothing in the driver
 * asks which kind it drives; a kind's own code is its profile
 * (`profiles/<kind>.ts`), and the shipped kinds are registered in
 * `profiles/registry.ts`.
 */

import type { BackColour, CardCode } from '../../device-protocol/cards.ts';
import type { DeviceTalker } from '../../device-protocol/frame.ts';
import type {
  BallMessage,
  CountMessage,
  Message,
  MessageType,
  RotorMessage,
} from '../../device-protocol/messages.ts';
import type { FirmwarePart } from '../../hardware/firmware/check.ts';
import type { ShoeFirmwareOptions } from '../../hardware/firmware/shoe.ts';
import type { DeckRegistry } from '../../hardware/readers/deck-registry.ts';
import type { Step } from '../../simulators/step.ts';
import type { AlarmKind } from '../table/events.ts';
import type { DriverRecord } from './records.ts';

/** What a kind's deliveries may do with the driver they run in. */
export interface DeliveryPort {
  /** The device's name (`src` of its records, alarms). */
  readonly name: string;
  /** Reader: tag UID → card. */
  readonly registry: DeckRegistry | undefined;
  /** Reader: `tag` events instead of mapped cards (deck enrolment). */
  readonly rawTags: boolean;
  /** Counted for the driver's status. */
  readonly counters: { cardsRefused: number; foreignTags: number };
  /** A record for the table; the device is ACKed once the table says it is durable. */
  record(seq: number, record: RecordBody): void;
  /** A quarantined device's message: ACKed and dropped (true), or false when it is not quarantined. */
  refuse(seq: number, message: Message, card?: boolean): boolean;
  /** ACKs a held frame now: it carries nothing to store. */
  settle(seq: number): void;
  /** An acknowledgement of `seq` that ACKs it once, however often it is called. */
  acknowledgement(seq: number): () => void;
  /** A notice for the logs and the console; false when nobody listens. */
  notice(notice: DeviceNotice): boolean;
  alarm(kind: AlarmKind, message: string, detail?: Record<string, unknown>): void;
  /** Wheel: a part of the spin under way; false when nobody stores it. */
  spinPart(part: SpinPart): boolean;
  /** Reader with `rawTags`: a tag with its acknowledgement. */
  tag(uid: string, ack: () => void): void;
  /** Shuffler: the decks the last SHUFFLE command asked for, once. */
  takeCommandedDecks(): number | undefined;
  /** Shuffler: a COUNT answers the deck checks waiting for it. */
  counted(count: CountMessage): void;
  /** Shuffler: the colours of a shuffle the shuffler does not name. */
  unnamedBacks(): BackColour[];
}

/** A record as a kind makes it; the driver adds its time and source. */
export type RecordBody = DriverRecord extends infer R
  ? R extends DriverRecord
    ? Omit<R, 'ts' | 'src'>
    : never
  : never;

/** A ROTOR or BALL of the wheel's spin under way, with its acknowledgement. */
export interface SpinPart {
  readonly device: string;
  readonly message: RotorMessage | BallMessage;
  /** The part is stored: ACK it to the wheel. Idempotent. */
  ack(): void;
}

/**
 * The lid opened or closed. The shoe's frame is ACKed only through `ack()`:
 * call it once whatever the lid started (a new shoe) is durable, or at once
 * when it starts nothing; until then the shoe holds its next frames. With no
 * `notice` listener the driver ACKs it itself. Idempotent.
 */
export interface LidNotice {
  type: 'LID';
  state: 'open' | 'closed';
  ack(): void;
}

export type DeviceNotice =
  | { type: 'JAM'; state: 'jammed' | 'cleared'; location?: string }
  | LidNotice
  | { type: 'DOOR'; state: 'open' | 'closed' }
  | { type: 'STATUS'; state: string; details: Readonly<Record<string, string>> }
  | { type: 'ERROR'; code: string; detail?: string }
  | CountMessage;

/** How each message type a kind sends is delivered, by type. */
export type Deliveries = {
  readonly [T in MessageType]?: (seq: number, message: Extract<Message, { type: T }>) => void;
};

/** A kind's deliveries in one driver, with whatever the kind keeps between messages. */
export interface KindDeliveries {
  readonly deliver: Deliveries;
  /** Wheel: the spin under way as the journal holds it, after a restart. */
  restoreSpin?(parts: readonly (RotorMessage | BallMessage)[]): void;
}

/** A command the driver sends on a kind's behalf (driver.shuffle, deckCheck, indicate, gate). */
export type HostCommand = 'SHUFFLE' | 'DECKCHECK' | 'INDICATE' | 'GATE';

/** A firmware the daemon runs for a kind (`transport: firmware`). */
export interface HostedFirmwareProfile {
  /** The parts `diag` checks on its board besides the board itself and its PN532. */
  readonly parts: readonly FirmwarePart[];
  /** Starts the firmware on its board, its host link one end of an in-process wire. */
  start(options: ShoeFirmwareOptions): Promise<HostedDeviceFirmware>;
}

/** What the daemon holds of a firmware it runs. */
export interface HostedDeviceFirmware {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** What a kind's simulation may do with the simulated device that plays it. */
export interface SimulationPort {
  send(message: Message): void;
  /** The simulator's tag of a card of the decks shuffled last (`tags.ts`). */
  tagOf(card: CardCode, back: BackColour): string;
  /** A new shoe of `decks` decks: its cards' tags start again. */
  newTags(decks: number): void;
  /** Reports a shuffle as the host understands it (SHUFFLED with ORDER, or SHUFFLED2). */
  reportShuffle(
    order: readonly CardCode[],
    reportOrder: boolean,
    backs: readonly BackColour[],
  ): void;
  /** A shuffle the host commanded: the next fair shoe of `decks` decks, reported. */
  shuffleCommanded(decks: number): void;
  /** A behaviour (behaviours.ts) is on. */
  isOn(behaviour: string): boolean;
  /** Waits, unless the simulator stops. */
  sleep(ms: number): Promise<void>;
}

/**
 * How the simulated device (simulators/device.ts) plays a kind: what of a
 * planned session (simulators/step.ts) the device sees and sends, and how it
 * answers the host's commands. The simulator itself never asks the kind.
 */
export interface KindSimulation {
  /** The model its HELLO says. */
  readonly model: string;
  /** The dealer cannot take a card while the host holds the gate locked. */
  readonly heldByGate: boolean;
  /** A step that takes the dealing pace: what one `step()` plays up to. */
  paced(step: Step): boolean;
  /** Plays a step of the device's own (a card, a shuffle, a jam); one it does not see is skipped. */
  play(step: DeviceStep, port: SimulationPort): void | Promise<void>;
  /** Answers a host command it takes (SHUFFLE, DECKCHECK); lights and the gate are the simulator's. */
  command?(message: Message, port: SimulationPort): void;
}

/** The steps a kind plays; the simulator plays pauses, silences and behaviours itself. */
export type DeviceStep = Exclude<Step, { kind: 'behaviour' | 'pause' | 'silence' }>;

export interface DriverProfile {
  /** The kind's name (`kind:` in the config, `DriverStatus.kind`). */
  readonly kind: string;
  /** What the device speaks as on the line (PROTOCOL.md § 2). */
  readonly talker: DeviceTalker;
  /**
   * The messages whose ACK waits until the table holds what they caused
   * (the journal): records, and what can start one (a shoe's lid).
   */
  readonly heldUntilStored: readonly MessageType[];
  /** The commands the kind takes; another is refused naming the kind. */
  readonly commands: readonly HostCommand[];
  /**
   * Availability rule: a message with impossible fields (a pocket the
   * wheel has not) is a device fault, alarmed, not only counted.
   */
  readonly invalidIsFault: boolean;
  /**
   * Its shuffle reports start each shoe (a shuffler): a table with one does
   * not take a shoe's closed lid as a new shoe.
   */
  readonly reportsShuffles: boolean;
  /**
   * Which of the daemon's simulators plays a `simulate` device of this kind
   * (the one its game names: `GamePlugin.simulator`).
   */
  readonly simulatedBy: 'dealer' | 'croupier';
  /**
   * Its tags are named by a deck registry file (`registry:` in the config,
   * `tableside deck enroll`): a reader. Another kind's cards name themselves.
   */
  readonly deckRegistry: boolean;
  /**
   * tableside's own firmware for this kind that the daemon runs in its own
   * process (`transport: firmware`), and the parts `diag` checks on its
   * board; absent: the daemon runs no firmware of this kind.
   */
  readonly hostedFirmware?: HostedFirmwareProfile;
  /**
   * How tableside's simulator plays this kind (`transport: simulate`,
   * `tableside sim <kind>`); absent: a simulator of its own plays it (the
   * wheel's croupier) or none does.
   */
  readonly simulation?: KindSimulation;
  /** The kind's deliveries for one driver (a fresh state each). */
  deliveries(port: DeliveryPort): KindDeliveries;
}
