/**
 * The smart shoe's firmware: a StandardFirmata board with a PN532 (the tag
 * in each card, at the mouth), a TCS34725 (the card's down side), an IR
 * beam across the exit, a lid reed switch, a status LED and a buzzer,
 * speaking protocol device frames on the device core the simulators use.
 *
 * A card crossing the beam is named by its tag through the deck registry:
 * CARD with the registry's card and back and the face the sensor saw;
 * FOREIGN for a tag the registry does not hold; NOTAG when no tag was read
 * in time. It never guesses: a colour no calibration matches, a back colour
 * that is not the registry's, a part that does not answer put the shoe in
 * fault (ERROR naming the part and what to do, STATUS fault, blinking LED,
 * buzzer), and cards crossing the beam then are refused, not named.
 *
 * Every event goes through the outbox (fsynced before the wire) so a card
 * survives a pulled host cable (the device core resends) and the firmware's
 * own restart (the outbox hands it back with its seq).
 */
import { EventEmitter } from 'node:events';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { Face } from '../../device-protocol/cards.ts';
import { type Message, peerKnows } from '../../device-protocol/messages.ts';
import { DeviceCore } from '../device/device-core.ts';
import { reasonOf } from '../errors.ts';
import { type Output, PartBoard } from '../firmata/part-board.ts';
import type { I2cBus } from '../i2c/bus.ts';
import type { DeviceKey } from '../keys/device-key.ts';
import { Tcs34725 } from '../parts/tcs34725.ts';
import { isPn532Error, Pn532, type Pn532Options, pn532OverI2c } from '../pn532/index.ts';
import type { DeckRegistry } from '../readers/deck-registry.ts';
import type { LinkOptionsInput } from '../transports/reconnecting-link.ts';
import type { Transport } from '../transports/transport.ts';
import {
  type BeamBrokenLevel,
  beamBlockedAdvice,
  beamIsBroken,
  DEFAULT_BEAM_BROKEN,
  describeLevel,
} from './beam.ts';
import {
  type Calibration,
  classifyColour,
  DEFAULT_CALIBRATION,
  describeReading,
} from './colour.ts';
import type { BoardI2c } from './firmware-key.ts';
import { firmwareHello, SHOE_MODEL } from './identity.ts';
import { Outbox } from './outbox.ts';

/** The wiring page's pins (Arduino Nano/Uno numbering). */
export interface ShoePins {
  /** IR beam receiver (pull-up on): its level while a card breaks the beam is `beamBroken`. */
  beam: number;
  /** Lid reed switch to ground (pull-up): HIGH when the lid is open. */
  lid: number;
  statusLed: number;
  buzzer: number;
}

export const SHOE_PINS: ShoePins = { beam: 2, lid: 3, statusLed: 13, buzzer: 8 };

export type ShoePart = 'board' | 'pn532' | 'tcs34725' | 'colour' | 'registry' | 'beam';

export interface ShoeFault {
  readonly part: ShoePart;
  /** A word: `no_answer`, `colour_unmatched`, `colour_mismatch`, ... */
  readonly code: string;
  /** What went wrong and what to do, for the technician. */
  readonly message: string;
}

export interface ShoeFirmwareOptions {
  /** Transport URL of the Firmata board. */
  boardUrl: string;
  /** The link to the host (any transport). */
  link: Transport;
  registry: DeckRegistry;
  calibration?: Calibration;
  /** The outbox file; without one, cards survive a pulled cable but not a restart. */
  outboxPath?: string;
  serial: string;
  /**
   * The shoe's own key (protocol 1.4, PROTOCOL.md § 5): with one it proves
   * who it is to a table that paired it; without, a table deals it only
   * with `unpaired: allow` (a bench).
   */
  key?: DeviceKey;
  /**
   * The table's host key, given at pairing (protocol 1.7, PROTOCOL.md § 5.2):
   * the shoe takes sessions only from the host that signs with it. Absent:
   * any host's (a bench).
   */
  hostKey?: DevicePublicKey;
  /** A key kept on the board (an ATECC608): its bus, given each board the firmware opens. */
  boardI2c?: BoardI2c;
  pins?: Partial<ShoePins>;
  /**
   * The beam receiver's level while a card breaks the beam: `low` for the
   * wiring page's open-collector receiver (the default), `high` for a module
   * that drives HIGH when blocked (an LM393 slot sensor).
   */
  beamBroken?: BeamBrokenLevel;
  /**
   * The colour reading's share of the card's time budget, from the beam
   * break: auto-range tries another gain or integration time only if its
   * reading completes by then. Default 50 ms, the beam-to-CARD target.
   */
  colourBudgetMs?: number;
  /** How long after the beam breaks a tag may still be read. */
  tagTimeoutMs?: number;
  boardReadyTimeoutMs?: number;
  /** A Firmata I2C read with no reply by then fails (the part does not answer). */
  i2cTimeoutMs?: number;
  /** The PN532 driver's ACK and response timeouts. */
  pn532?: Pn532Options;
  /** Wait between attempts to reopen a lost board or re-check a failed part. */
  retryMs?: number;
  /** Reopen policy of the host link. */
  reconnect?: LinkOptionsInput;
}

export interface ShoeFirmwareEvents {
  /** The shoe stopped dealing: a part failed or a reading could not be trusted. */
  fault: [fault: ShoeFault];
  /** Every part answers again: the shoe deals. */
  recovered: [];
  /** A card (or FOREIGN, NOTAG) was queued for the host, with the beam-break time. */
  event: [message: Message, beamAtMs: number];
  /** A card crossed the beam while the shoe was in fault: reported as ERROR refused. */
  refused: [beamAtMs: number];
  /** The board and every part answered: the shoe deals. */
  parts: [info: { board: string; pn532: string; tcs34725: number }];
  /** No host proved the pairing (protocol 1.7): the cards stay kept, the status LED blinks. */
  hostLost: [detail: string];
  /** A host proved the pairing again: the status LED is steady (unless a part's fault blinks it). */
  hostFound: [];
}

interface Parts {
  readonly board: PartBoard;
  readonly pn532: Pn532;
  readonly tcs: Tcs34725;
  readonly led: Output;
  readonly buzzer: Output;
}

export class ShoeFirmware extends EventEmitter<ShoeFirmwareEvents> {
  readonly core: DeviceCore;
  private readonly pins: ShoePins;
  private readonly calibration: Calibration;
  private readonly outbox: Outbox | undefined;
  private readonly tagTimeoutMs: number;
  private readonly retryMs: number;
  private parts: Parts | undefined;
  private fault: ShoeFault | undefined;
  /** No host proved the pairing since our last PROOF (`hostLost`): the LED blinks. */
  private hostMissing = false;
  private lidOpen: boolean | undefined;
  /** Undefined until the board first reports the beam: that report is its state at rest. */
  private beamBroken: boolean | undefined;
  /** The PN532 and the sensor are configured (SAMConfiguration, gain): only then may a beam poll for a tag. */
  private configured = false;
  private readonly beamBrokenLevel: BeamBrokenLevel;
  private readonly colourBudgetMs: number;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private blinkTimer: NodeJS.Timeout | undefined;
  /** Cards are identified one after the other, in beam order. */
  private work: Promise<void> = Promise.resolve();
  private opening: Promise<void> | undefined;

  constructor(private readonly options: ShoeFirmwareOptions) {
    super();
    this.pins = { ...SHOE_PINS, ...options.pins };
    this.calibration = options.calibration ?? DEFAULT_CALIBRATION;
    this.tagTimeoutMs = options.tagTimeoutMs ?? 45;
    this.retryMs = options.retryMs ?? 1_000;
    this.beamBrokenLevel = options.beamBroken ?? DEFAULT_BEAM_BROKEN;
    this.colourBudgetMs = options.colourBudgetMs ?? 50;
    this.outbox = options.outboxPath ? new Outbox(options.outboxPath) : undefined;
    const restored = this.outbox?.restored;
    this.core = new DeviceCore({
      talker: 'SH',
      transport: options.link,
      hello: firmwareHello(SHOE_MODEL, options.serial),
      ...(options.key ? { key: options.key } : {}),
      ...(options.hostKey ? { hostKey: options.hostKey } : {}),
      ...(options.reconnect ? { reconnect: options.reconnect } : {}),
      ...(restored?.nextSeq !== undefined
        ? { restore: { frames: restored.sent, nextSeq: restored.nextSeq } }
        : {}),
    });
    this.core.on('transmitted', (seq, type) => this.outbox?.transmitted(seq, type));
    this.core.on('acked', (seq) => this.outbox?.acked(seq));
    this.core.on('command', (message) => this.command(message));
    this.core.on('hostLost', (detail) => this.hostLost(detail));
    this.core.on('hostConfirmed', () => this.hostFound());
    for (const message of restored?.unsent ?? []) this.sendEvent(message);
  }

  /** The fault the shoe is in, if any. */
  get currentFault(): ShoeFault | undefined {
    return this.fault;
  }

  /** Events written to the outbox and not yet ACKed by the host. */
  get outstanding(): number {
    return this.outbox?.outstanding ?? 0;
  }

  /** Opens the host link and the board; resolves once the board was tried once. */
  async start(): Promise<void> {
    this.core.start();
    await this.openParts();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.blinkTimer) clearInterval(this.blinkTimer);
    // Stopping: an open that failed was reported as a fault already; only its end matters here.
    await this.opening?.catch(() => undefined);
    await this.work.catch(() => undefined); // each card's failure was reported as it happened
    const parts = this.parts;
    this.parts = undefined;
    parts?.led.set(false);
    parts?.buzzer.set(false);
    this.options.boardI2c?.attach(undefined);
    await parts?.board.close();
    await this.core.stop();
    this.outbox?.close();
  }

  // ------------------------------------------------------------ parts

  private openParts(): Promise<void> {
    this.opening ??= this.tryParts().finally(() => {
      this.opening = undefined;
    });
    return this.opening;
  }

  private async tryParts(): Promise<void> {
    let board = this.parts?.board;
    try {
      if (!board) {
        board = await PartBoard.open({
          url: this.options.boardUrl,
          ...(this.options.boardReadyTimeoutMs !== undefined
            ? { readyTimeoutMs: this.options.boardReadyTimeoutMs }
            : {}),
          ...(this.options.i2cTimeoutMs !== undefined
            ? { i2cTimeoutMs: this.options.i2cTimeoutMs }
            : {}),
        });
        this.options.boardI2c?.attach(board.i2c);
        board.on('lost', (reason) => this.boardLost(reason));
        board.on('input', (pin, high) => this.input(pin, high));
        // Watched before the parts are checked: a card crossing a faulted shoe is still reported.
        board.watch(this.pins.beam);
        board.watch(this.pins.lid);
      }
    } catch (error) {
      this.setFault({ part: 'board', code: 'board_failed', message: reasonOf(error) });
      this.scheduleRetry();
      return;
    }
    if (this.stopped) {
      await board.close();
      return;
    }
    const parts: Parts = this.parts ?? {
      board,
      pn532: new Pn532(pn532OverI2c(board.i2c), this.options.pn532),
      tcs: new Tcs34725(board.i2c as I2cBus),
      led: board.output(this.pins.statusLed),
      buzzer: board.output(this.pins.buzzer),
    };
    this.parts = parts;
    this.configured = false;
    try {
      const version = await this.part('pn532', () => parts.pn532.firmwareVersion());
      await this.part('pn532', () => parts.pn532.samConfiguration());
      const id = await this.part('tcs34725', () => parts.tcs.begin());
      this.emit('parts', {
        board: board.firmware,
        pn532: `PN5${version.ic.toString(16)} v${version.ver}.${version.rev}`,
        tcs34725: id,
      });
      this.configured = true;
      this.clearFault(['board', 'pn532', 'tcs34725']);
      // A beam found broken at rest while another fault showed is reported now.
      if (this.beamBroken && !this.fault) this.beamBlocked();
    } catch (error) {
      this.partFailed(error);
      this.scheduleRetry();
    }
  }

  private async part<T>(part: ShoePart, operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      throw Object.assign(new Error(reasonOf(error)), { part, cause: error });
    }
  }

  private partFailed(error: unknown): void {
    const part = ((error as { part?: ShoePart }).part ?? 'board') as ShoePart;
    const cause = (error as { cause?: unknown }).cause ?? error;
    const advice =
      part === 'pn532'
        ? 'check the PN532 module: I2C mode (switches 1 on, 2 off), SDA/SCL to A4/A5, 3.3-5 V'
        : part === 'tcs34725'
          ? 'check the TCS34725 module: SDA/SCL to A4/A5, VIN, its LED pin high'
          : 'check the board';
    this.setFault({
      part,
      code: isPn532Error(cause) ? cause.code : 'no_answer',
      message: `${part}: ${reasonOf(cause)}; ${advice}`,
    });
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.stopped) void this.openParts();
    }, this.retryMs);
  }

  private boardLost(reason: string): void {
    this.options.boardI2c?.attach(undefined);
    this.parts = undefined;
    this.configured = false;
    this.beamBroken = undefined;
    this.lidOpen = undefined;
    this.setFault({ part: 'board', code: 'board_lost', message: reason });
    this.scheduleRetry();
  }

  // ------------------------------------------------------------ inputs

  private input(pin: number, high: boolean): void {
    if (pin === this.pins.beam) {
      const broken = beamIsBroken(high, this.beamBrokenLevel);
      const before = this.beamBroken;
      this.beamBroken = broken;
      if (before === undefined) {
        // The first report is the beam at rest, not a card: broken then is a wiring question.
        if (broken) this.beamBlocked();
        return;
      }
      if (broken && !before) {
        const at = performance.now();
        // cardCrossed reports a part's failure itself (ERROR over the link); this only keeps the chain going.
        this.work = this.work.then(() => this.cardCrossed(at)).catch(() => undefined);
      }
    } else if (pin === this.pins.lid) {
      const open = high;
      const before = this.lidOpen;
      this.lidOpen = open;
      if (before === undefined || before === open) return; // the first report is the state, not an event
      this.sendEvent({ type: 'LID', state: open ? 'open' : 'closed' });
      // Closing the lid after an inspection acknowledges a reading fault, and a
      // blocked beam once it reads clear.
      if (!open)
        this.clearFault(this.beamBroken ? ['colour', 'registry'] : ['colour', 'registry', 'beam']);
    }
  }

  private async cardCrossed(beamAt: number): Promise<void> {
    const parts = this.parts;
    if (this.fault || !parts || !this.configured) {
      this.beep(400);
      const why = this.fault
        ? `${this.fault.part} fault (${this.fault.code})`
        : 'its parts are not yet configured';
      this.sendEvent({
        type: 'ERROR',
        code: 'refused',
        detail: `a card left the shoe while it is in ${why}: it was not identified`,
      });
      this.emit('refused', beamAt);
      return;
    }
    let uid: Uint8Array | undefined;
    let reading: Awaited<ReturnType<Tcs34725['readFresh']>>;
    try {
      [uid, reading] = await Promise.all([
        this.part('pn532', () => parts.pn532.readPassiveTarget(this.tagTimeoutMs)),
        this.part('tcs34725', () => parts.tcs.readFresh(beamAt, { budgetMs: this.colourBudgetMs })),
      ]);
    } catch (error) {
      this.partFailed(error);
      this.sendEvent({
        type: 'ERROR',
        code: 'refused',
        detail: 'a card left the shoe while a part failed: it was not identified',
      });
      this.emit('refused', beamAt);
      this.scheduleRetry();
      return;
    }
    const verdict = classifyColour(reading, this.calibration, reading.range);
    if (verdict.kind === 'unmatched') {
      this.setFault({
        part: 'colour',
        code: 'colour_unmatched',
        message: `tcs34725 read ${verdict.reason}; recalibrate (tableside firmware calibrate) or check the card, then open and close the lid`,
      });
      return;
    }
    if (verdict.kind === 'cut') {
      // The cut card is plastic with no tag; a tag read with it belongs to something else.
      this.cardEvent({ type: 'CUT' }, beamAt);
      return;
    }
    const face: Face = verdict.kind === 'face' ? 'up' : 'down';
    const seenBack = verdict.kind === 'back' ? verdict.back : undefined;
    const hostProtocol = this.core.hostProtocol;
    if (uid === undefined) {
      const back = seenBack ?? 'unknown';
      this.cardEvent(
        peerKnows('NOTAG', hostProtocol)
          ? { type: 'NOTAG', back, face }
          : {
              type: 'ERROR',
              code: 'no_tag',
              detail: `a ${back} card left face ${face} with no tag read`,
            },
        beamAt,
      );
      return;
    }
    const hex = Buffer.from(uid).toString('hex').toUpperCase();
    const known = this.options.registry.lookup(hex);
    if (!known) {
      const back = seenBack ?? 'unknown';
      this.cardEvent(
        peerKnows('FOREIGN', hostProtocol)
          ? { type: 'FOREIGN', uid: hex, back, face }
          : {
              type: 'ERROR',
              code: 'foreign_tag',
              detail: `tag ${hex} is not in the deck registry`,
            },
        beamAt,
      );
      return;
    }
    if (seenBack !== undefined && seenBack !== known.back) {
      this.setFault({
        part: 'registry',
        code: 'colour_mismatch',
        message: `tag ${hex} is ${known.card} with a ${known.back} back in the registry, but the sensor read ${seenBack} (${describeReading(reading)}): re-enrol the deck or recalibrate, then open and close the lid`,
      });
      return;
    }
    this.cardEvent({ type: 'CARD', card: known.card, back: known.back, face }, beamAt);
  }

  private cardEvent(message: Message, beamAt: number): void {
    this.emit('event', message, beamAt);
    this.sendEvent(message);
  }

  /** The beam reads broken with no card moving: something lies in it, or the receiver is the other kind. */
  private beamBlocked(): void {
    const high = this.beamBrokenLevel === 'high';
    this.setFault({
      part: 'beam',
      code: 'beam_blocked',
      message: `IR beam reads broken at rest (${describeLevel(this.pins.beam, high)}): ${beamBlockedAdvice(this.beamBrokenLevel, shoeBeamSetting)}; then open and close the lid`,
    });
  }

  // ------------------------------------------------------------ faults, lights

  private setFault(fault: ShoeFault): void {
    const changed = this.fault?.code !== fault.code || this.fault?.part !== fault.part;
    this.fault = fault;
    if (!changed) return;
    this.sendEvent({ type: 'ERROR', code: fault.code, detail: clip(fault.message) });
    this.sendEvent({
      type: 'STATUS',
      state: 'fault',
      details: { part: fault.part, fault: fault.code },
    });
    this.emit('fault', fault);
    this.beep(800);
    this.blink(true);
  }

  /**
   * No host proved the pairing within the wait after our PROOF (a man in the
   * middle, or a table with another host key): the cards stay in the outbox,
   * the status LED blinks until a host proves itself.
   */
  private hostLost(detail: string): void {
    if (this.hostMissing) return;
    this.hostMissing = true;
    this.emit('hostLost', detail);
    this.blink(true);
  }

  private hostFound(): void {
    if (!this.hostMissing) return;
    this.hostMissing = false;
    this.emit('hostFound');
    // A part's fault keeps its own blinking.
    if (this.fault !== undefined) return;
    this.blink(false);
    this.parts?.led.set(true);
  }

  private clearFault(parts: readonly ShoePart[]): void {
    if (this.fault === undefined) {
      if (!this.hostMissing) this.parts?.led.set(true);
      return;
    }
    if (!parts.includes(this.fault.part) || !this.parts) return;
    this.fault = undefined;
    // A host that has not proved itself keeps the light blinking.
    if (!this.hostMissing) {
      this.blink(false);
      this.parts.led.set(true);
    }
    this.sendEvent({ type: 'STATUS', state: 'ready', details: {} });
    this.emit('recovered');
  }

  private blink(on: boolean): void {
    if (this.blinkTimer) clearInterval(this.blinkTimer);
    this.blinkTimer = undefined;
    if (!on) return;
    let lit = false;
    this.blinkTimer = setInterval(() => {
      lit = !lit;
      this.parts?.led.set(lit);
    }, 250);
    this.blinkTimer.unref();
  }

  private beep(ms: number): void {
    const buzzer = this.parts?.buzzer;
    if (!buzzer) return;
    buzzer.set(true);
    setTimeout(() => buzzer.set(false), ms).unref();
  }

  // ------------------------------------------------------------ host

  private sendEvent(message: Message): void {
    this.outbox?.queued(message);
    this.core.send(message);
  }

  private command(message: Message): void {
    // The shoe has one light (its status LED) and no gate: INDICATE and GATE
    // are ACKed by the link and otherwise ignored, as the status LED shows the shoe's own state.
    void message;
  }
}

/** The beam setting as the shoe's config and command line spell it. */
export function shoeBeamSetting(level: BeamBrokenLevel): string {
  return `beamBroken: ${level} (--beam-broken ${level})`;
}

/** ERROR details are 1-120 characters of field text. */
function clip(text: string): string {
  const clean = text.replace(/[$,*\r\n]/g, ';');
  return clean.length <= 120 ? clean : `${clean.slice(0, 117)}...`;
}
