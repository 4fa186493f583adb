/**
 * A smart shoe on the bench with no hardware: the shoe firmware, its board
 * an emulated StandardFirmata on a socat pty, hosting the emulated PN532
 * (PN's) and TCS34725 behind it; IR beam and lid driven by the test. The
 * beam is the wiring page's part unless told: an open-collector receiver
 * behind the pull-up, HIGH while clear and LOW while a card breaks it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BeamBrokenLevel } from '../../../hardware/firmware/beam.ts';
import {
  SHOE_PINS,
  ShoeFirmware,
  type ShoeFirmwareOptions,
} from '../../../hardware/firmware/shoe.ts';
import { DeckRegistry, REGISTRY_FORMAT } from '../../../hardware/readers/deck-registry.ts';
import type { Transport } from '../../../hardware/transports/transport.ts';
import { FirmataBoardEmulator } from '../../emulators/firmata-board.ts';
import type { I2cSlave } from '../../emulators/i2c-slave.ts';
import { Pn532Emulator } from '../../emulators/pn532.ts';
import { type Surface, Tcs34725Emulator } from '../../emulators/tcs34725.ts';
import { tempDir } from '../../helpers/temp.ts';
import { until } from '../../helpers/until.ts';
import { PtyPair } from '../devices/pty.ts';

export const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', 'T', 'J', 'Q', 'K'];
export const SUITS = ['S', 'H', 'D', 'C'];

/** A deck's tag UIDs: 7-byte NTAG-style UIDs, `04 deck 00 00 00 00 index`. */
export function tagOf(deck: number, index: number): number[] {
  return [0x04, deck, 0x10, 0x20, 0x30, 0x40, index];
}

export function uidHex(uid: readonly number[]): string {
  return Buffer.from(uid).toString('hex').toUpperCase();
}

/** A registry document of one deck per back given: deck 1 the first, deck 2 the second, ... */
export function registryDocumentOf(backs: readonly string[]) {
  const decks: Record<string, { back: string; tags: Record<string, string> }> = {};
  backs.forEach((back, deck) => {
    const tags: Record<string, string> = {};
    let index = 0;
    for (const suit of SUITS) {
      for (const rank of RANKS) tags[uidHex(tagOf(deck + 1, index++))] = `${rank}${suit}`;
    }
    decks[`${back}-${deck + 1}`] = { back, tags };
  });
  return { format: REGISTRY_FORMAT, version: 1, decks };
}

export function registryOf(backs: readonly string[]): DeckRegistry {
  return DeckRegistry.fromDocument(registryDocumentOf(backs));
}

/** The card a tag stands for in `registryOf`. */
export function cardOf(index: number): string {
  return `${RANKS[index % 13]}${SUITS[Math.floor(index / 13)]}`;
}

export class ShoeRig {
  /** Removed by `stop`, or after the test file when a test never started the rig. */
  readonly directory = tempDir('tableside-shoe-');
  readonly pty = new PtyPair(this.directory);
  readonly pn532 = new Pn532Emulator();
  readonly tcs = new Tcs34725Emulator();
  board!: FirmataBoardEmulator;
  firmware: ShoeFirmware | undefined;
  /** What the in-process firmware has reported (a card, a fault, a refusal): a deal may end on it. */
  private reports = 0;
  /** Other parts on the board's I2C bus (a secure element), added before `startBoard`. */
  readonly otherParts: I2cSlave[] = [];

  constructor(
    private readonly behaviour: 'firmata' | 'silent' | 'garbage' = 'firmata',
    /** The board's serial speed: StandardFirmata's 57600, or 115200 in a sketch built for it. */
    readonly baudRate = 57_600,
    /** The beam receiver's level while broken: `high` is an LM393 slot module. */
    readonly beamBroken: BeamBrokenLevel = 'low',
  ) {}

  /** The beam pin's level, broken or clear, as the fitted receiver drives it. */
  beamLevel(broken: boolean): boolean {
    return broken === (this.beamBroken === 'high');
  }

  get outboxPath(): string {
    return join(this.directory, 'outbox.jsonl');
  }

  async startBoard(): Promise<void> {
    await this.pty.start();
    this.board = new FirmataBoardEmulator({
      path: this.pty.b,
      slaves: [this.pn532, this.tcs, ...this.otherParts],
      behaviour: this.behaviour,
      baudRate: this.baudRate,
    });
    await this.board.start();
    this.board.setInput(SHOE_PINS.lid, false);
    this.board.setInput(SHOE_PINS.beam, this.beamLevel(false));
  }

  /** Pulls the board's USB cable: the pty vanishes. */
  async pullBoard(): Promise<void> {
    await this.board.stop();
    await this.pty.kill();
  }

  async startFirmware(
    link: Transport,
    options: Partial<ShoeFirmwareOptions> & Pick<ShoeFirmwareOptions, 'registry'>,
  ): Promise<ShoeFirmware> {
    const firmware = new ShoeFirmware({
      boardUrl: `serial:${this.pty.a}?baud=${this.baudRate}`,
      link,
      serial: 'SHOE-TEST-1',
      outboxPath: this.outboxPath,
      boardReadyTimeoutMs: 3_000,
      retryMs: 200,
      reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
      ...options,
    });
    this.firmware = firmware;
    const reported = () => {
      this.reports++;
    };
    firmware.on('event', reported);
    firmware.on('fault', reported);
    firmware.on('refused', reported);
    await firmware.start();
    return firmware;
  }

  /**
   * A card leaves the shoe: its tag enters the PN532's field, then its down side
   * lies over the sensor, it breaks the beam for `beamMs`, and is gone.
   * Resolves with the beam-break time on the emulators' clock.
   *
   * The tag leaves the field only once the PN532 has answered a poll with it,
   * or the in-process firmware has reported the card without it (a refusal, a
   * fault): a loaded machine may carry the firmware's poll past the beam's
   * 50 ms, and a tag gone by then would make the rig, not the firmware, lose it.
   */
  async deal(
    card: { uid?: readonly number[]; surface: Surface },
    beamMs = 50,
    onBeam: (atMs: number) => void = () => undefined,
  ): Promise<number> {
    // The antenna sits just inside the mouth: the tag enters its field a little before the beam breaks.
    const answered = this.pn532.targetsAnswered;
    const reports = this.reports;
    if (card.uid) this.pn532.placeTag({ uid: [...card.uid], type: 'ntag21x' }, this.board.now());
    // fixed wait: emulated timing: the tag enters the antenna's field a little before the card breaks the beam
    await sleep(10);
    const now = this.board.now();
    this.tcs.place(card.surface, now);
    onBeam(now);
    this.board.setInput(SHOE_PINS.beam, this.beamLevel(true));
    // fixed wait: emulated timing: the card breaks the beam for the dealer's beamMs
    await sleep(beamMs);
    this.board.setInput(SHOE_PINS.beam, this.beamLevel(false));
    // The card is gone; the sensor now sees the next card in the shoe, whose
    // surface the next deal places, so what it sees does not change here.
    if (card.uid) {
      await until(
        () => this.pn532.targetsAnswered > answered || this.reports > reports,
        'the PN532 to answer a poll with the tag, or the firmware to report the card',
      );
    }
    this.pn532.removeTag();
    return now;
  }

  /**
   * Deals a card and waits until the firmware has reported it (or faulted).
   * `beamMs` longer than a dealer's 50 ms keeps the tag in the field for a
   * test whose point is not the timing, on a loaded machine.
   */
  async dealOne(
    card: { uid?: readonly number[]; surface: Surface },
    onBeam?: (atMs: number) => void,
    beamMs = 50,
  ): Promise<void> {
    const firmware = this.firmware!;
    const reported = new Promise<void>((resolve) => {
      const done = () => {
        firmware.off('event', done);
        firmware.off('fault', done);
        firmware.off('refused', done);
        resolve();
      };
      firmware.on('event', done);
      firmware.on('fault', done);
      firmware.on('refused', done);
    });
    await this.deal(card, beamMs, onBeam);
    await reported;
  }

  async stop(): Promise<void> {
    await this.firmware?.stop();
    await this.board?.stop();
    await this.pty.kill();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
