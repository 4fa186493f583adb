/**
 * An NXP PN532 as its user manual UM0701-02 describes it, byte for byte, on
 * I2C (§ 6.2.4: address 0x24, a status byte 0x01 "ready" / 0x00 "busy"
 * heading every read) and HSU (§ 6.2.5, woken by 0x55 per § 7.2.11).
 * Written from the manual, not from tableside's driver: it shares no code
 * with hardware/pn532.
 *
 * Frames (§ 6.2.1): information frame 00 00 FF LEN LCS TFI PD… DCS 00 and its
 * extended form 00 00 FF FF FF LENM LENL LCS …; ACK 00 00 FF 00 FF 00;
 * NACK 00 00 FF FF 00 00; error frame 00 00 FF 01 FF 7F 81 00.
 * Dialog (§ 6.2.2): a valid host information frame is ACKed, then answered
 * when the command completes. A host ACK aborts the command in progress; a
 * host NACK makes the PN532 send its last response again. A frame with a bad
 * LCS or DCS is ignored (the host sees no ACK).
 *
 * Commands: GetFirmwareVersion 0x02 (IC 0x32, Ver 1, Rev 6, Support 0x07 unless told),
 * SAMConfiguration 0x14, InListPassiveTarget 0x4A at 106 kbps type A (waits
 * for a tag as long as none is in the field, § 7.3.5); anything else gets the
 * error frame.
 *
 * I2C reads: until a frame is ready every read is 00 followed by 00s; when
 * one is ready every read is 01 followed by the frame from its first byte
 * (then 00 padding), and a read long enough to take the whole frame removes
 * it. Timings are the emulator's (practice: ACK ~1 ms, simple commands ~2 ms,
 * a type A activation ~6 ms).
 */
import type { I2cSlave } from './i2c-slave.ts';

export type EmulatedTagType = 'ntag21x' | 'mifare-classic';

export interface EmulatedTag {
  /** NFCID1: 4, 7 or 10 bytes. */
  uid: Uint8Array | readonly number[];
  type: EmulatedTagType;
}

/**
 * Fault switches. `nack` answers NACK instead of ACK; `error-frame` ACKs
 * then answers the error frame; `bad-lcs` / `bad-dcs` send responses with a
 * wrong length / data checksum; `silent` stops answering anything (on I2C
 * the address is NACKed).
 */
export type Pn532Fault = 'nack' | 'error-frame' | 'bad-lcs' | 'bad-dcs' | 'silent';

export interface Pn532EmulatorOptions {
  address?: number;
  /** The emulator's clock for tag changes and HSU output (ms). */
  now?: () => number;
  /** Starts awake; on HSU a real PN532 starts needing the 0x55 wake-up. */
  awake?: boolean;
  /** HSU bit rate, for the time a frame takes on the wire (10 bits a byte). */
  baudRate?: number;
  /** What GetFirmwareVersion reports: IC, Ver, Rev, Support (a PN532 v1.6: 32 01 06 07). */
  version?: readonly [ic: number, ver: number, rev: number, support: number];
}

const ACK = [0x00, 0x00, 0xff, 0x00, 0xff, 0x00];
const NACK = [0x00, 0x00, 0xff, 0xff, 0x00, 0x00];
const ERROR_FRAME = [0x00, 0x00, 0xff, 0x01, 0xff, 0x7f, 0x81, 0x00];

const ACK_DELAY_MS = 1;
const COMMAND_DELAY_MS = 2;
const ACTIVATION_DELAY_MS = 6;

interface Outgoing {
  bytes: number[];
  readyAt: number;
}

export class Pn532Emulator implements I2cSlave {
  readonly address: number;
  private readonly now: () => number;
  private readonly byteMs: number;
  private readonly version: readonly number[];
  private awake: boolean;
  private tag: { uid: number[]; type: EmulatedTagType; since: number } | undefined;
  private fault: { kind: Pn532Fault; left: number } | undefined;
  private waitingForTag: { at: number } | undefined;
  /** InListPassiveTarget answers that named a tag (for a test rig to hold a card until it is read). */
  targetsAnswered = 0;
  private outbox: Outgoing[] = [];
  private lastResponse: number[] | undefined;
  private input: number[] = [];
  private hsuSink: ((bytes: Uint8Array) => void) | undefined;
  private hsuTimer: NodeJS.Timeout | undefined;

  /** Every command code received, in order (for tests). */
  readonly commands: number[] = [];
  /** How many host ACKs aborted a running command, and how many host NACKs came. */
  aborts = 0;
  nacksFromHost = 0;
  /** Host frames dropped for a bad LCS/DCS. */
  droppedFrames = 0;

  constructor(options: Pn532EmulatorOptions = {}) {
    this.address = options.address ?? 0x24;
    this.now = options.now ?? (() => performance.now());
    this.awake = options.awake ?? false;
    this.byteMs = 10_000 / (options.baudRate ?? 115_200);
    this.version = options.version ?? [0x32, 0x01, 0x06, 0x07];
  }

  // ---- the field ----

  placeTag(tag: EmulatedTag, atMs = this.now()): void {
    const uid = Array.from(tag.uid);
    if (![4, 7, 10].includes(uid.length))
      throw new Error(`a type A UID has 4, 7 or 10 bytes, not ${uid.length}`);
    this.tag = { uid, type: tag.type, since: atMs };
    if (this.waitingForTag) {
      this.waitingForTag = undefined;
      this.answer(this.targetResponse(), atMs + ACTIVATION_DELAY_MS);
    }
  }

  /** An InListPassiveTarget is waiting: the field is polled and holds no tag. */
  get awaitingTag(): boolean {
    return this.waitingForTag !== undefined;
  }

  /** How many frames for the host (ACKs, responses) are ready by `atMs`. */
  framesReady(atMs = this.now()): number {
    return this.outbox.filter((frame) => frame.readyAt <= atMs).length;
  }

  removeTag(): void {
    this.tag = undefined;
  }

  /** Turns a fault on for the next `times` frames it affects (default: until cleared). */
  setFault(kind: Pn532Fault | undefined, times = Number.POSITIVE_INFINITY): void {
    this.fault = kind ? { kind, left: times } : undefined;
  }

  // ---- I2C (I2cSlave) ----

  write(bytes: Uint8Array, atMs: number): boolean {
    if (this.faulty('silent', false)) return false;
    this.awake = true; // on I2C the address match itself wakes the part
    for (const byte of bytes) this.input.push(byte);
    this.parseInput(atMs);
    return true;
  }

  read(length: number, atMs: number): Uint8Array | undefined {
    if (this.faulty('silent', false)) return undefined;
    const out = new Uint8Array(length);
    const head = this.outbox[0];
    if (!head || head.readyAt > atMs) return out; // status 0x00: not ready
    out[0] = 0x01;
    out.set(head.bytes.slice(0, length - 1), 1);
    if (length - 1 >= head.bytes.length) this.outbox.shift();
    return out;
  }

  // ---- HSU ----

  /**
   * Connects the HSU line: `sink` gets the bytes the PN532 transmits; the
   * returned function takes the bytes the host transmits.
   */
  connectHsu(sink: (bytes: Uint8Array) => void): (bytes: Uint8Array) => void {
    this.hsuSink = sink;
    return (bytes) => this.hsuReceive(bytes);
  }

  disconnectHsu(): void {
    this.hsuSink = undefined;
    if (this.hsuTimer) clearTimeout(this.hsuTimer);
    this.hsuTimer = undefined;
  }

  private hsuReceive(bytes: Uint8Array): void {
    if (this.faulty('silent', false)) return;
    for (const byte of bytes) {
      if (!this.awake) {
        // Asleep, the UART only watches for the wake-up pattern.
        if (byte === 0x55) this.awake = true;
        continue;
      }
      this.input.push(byte);
    }
    this.parseInput(this.now());
  }

  private scheduleHsu(): void {
    if (!this.hsuSink || this.hsuTimer || this.outbox.length === 0) return;
    const head = this.outbox[0] as Outgoing;
    const wait = Math.max(0, head.readyAt + head.bytes.length * this.byteMs - this.now());
    this.hsuTimer = setTimeout(() => {
      this.hsuTimer = undefined;
      const sent = this.outbox.shift();
      // A silent part transmits nothing, not even what it had ready.
      if (sent && this.hsuSink && !this.faulty('silent', false))
        this.hsuSink(Uint8Array.from(sent.bytes));
      this.scheduleHsu();
    }, wait);
  }

  // ---- frames from the host ----

  private parseInput(atMs: number): void {
    for (;;) {
      const b = this.input;
      let start = -1;
      for (let i = 0; i + 1 < b.length; i++) {
        if (b[i] === 0x00 && b[i + 1] === 0xff) {
          start = i;
          break;
        }
      }
      if (start < 0) {
        // 55 and 00 bytes of a wake-up, padding, noise: drop all but a possible first start byte.
        this.input = b.length && b[b.length - 1] === 0x00 ? [0x00] : [];
        return;
      }
      if (b.length < start + 4) return;
      const len = b[start + 2] as number;
      const lcs = b[start + 3] as number;
      if (len === 0x00 && lcs === 0xff) {
        this.input = b.slice(start + 4);
        this.hostAck();
        continue;
      }
      if (len === 0xff && lcs === 0x00) {
        this.input = b.slice(start + 4);
        this.hostNack(atMs);
        continue;
      }
      let bodyAt: number;
      let bodyLen: number;
      if (len === 0xff && lcs === 0xff) {
        if (b.length < start + 8) return;
        const m = b[start + 4] as number;
        const l = b[start + 5] as number;
        if (((m + l + (b[start + 6] as number)) & 0xff) !== 0) {
          this.droppedFrames++;
          this.input = b.slice(start + 2);
          continue;
        }
        bodyAt = start + 7;
        bodyLen = (m << 8) | l;
      } else {
        if (((len + lcs) & 0xff) !== 0) {
          this.droppedFrames++;
          this.input = b.slice(start + 2);
          continue;
        }
        bodyAt = start + 4;
        bodyLen = len;
      }
      if (b.length < bodyAt + bodyLen + 1) return;
      const body = b.slice(bodyAt, bodyAt + bodyLen);
      const dcs = b[bodyAt + bodyLen] as number;
      this.input = b.slice(bodyAt + bodyLen + 1);
      const total = body.reduce((s, x) => s + x, dcs) & 0xff;
      if (total !== 0 || body.length === 0) {
        this.droppedFrames++;
        continue;
      }
      this.hostCommand(body, atMs);
    }
  }

  private hostAck(): void {
    if (this.waitingForTag) this.aborts++;
    this.waitingForTag = undefined;
    // An abort also drops a response not yet collected.
    this.clearOutbox();
  }

  private hostNack(atMs: number): void {
    this.nacksFromHost++;
    if (this.lastResponse) this.sendResponse(this.lastResponse, atMs + ACK_DELAY_MS);
  }

  private hostCommand(body: number[], atMs: number): void {
    // A new command supersedes one still running.
    this.waitingForTag = undefined;
    this.clearOutbox();
    if (this.faulty('nack', true)) {
      this.send(NACK, atMs + ACK_DELAY_MS);
      return;
    }
    this.send(ACK, atMs + ACK_DELAY_MS);
    const [tfi, code, ...params] = body;
    if (code !== undefined) this.commands.push(code);
    const doneAt = atMs + COMMAND_DELAY_MS;
    if (tfi !== 0xd4 || code === undefined) {
      this.send(ERROR_FRAME, doneAt);
      return;
    }
    switch (code) {
      case 0x02:
        if (params.length !== 0) this.send(ERROR_FRAME, doneAt);
        else this.answer([0x03, ...this.version], doneAt);
        return;
      case 0x14: {
        const mode = params[0];
        if (mode === undefined || mode < 1 || mode > 4) this.send(ERROR_FRAME, doneAt);
        else this.answer([0x15], doneAt);
        return;
      }
      case 0x4a: {
        const [maxTg, brTy] = params;
        if (maxTg === undefined || maxTg < 1 || maxTg > 2 || brTy !== 0x00) {
          this.send(ERROR_FRAME, doneAt);
        } else if (this.tag) this.answer(this.targetResponse(), atMs + ACTIVATION_DELAY_MS);
        else this.waitingForTag = { at: atMs };
        return;
      }
      default:
        this.send(ERROR_FRAME, doneAt);
    }
  }

  /** D5 4B NbTg Tg SENS_RES SEL_RES NFCIDLength NFCID1 (§ 7.3.5, 106 kbps type A). */
  private targetResponse(): number[] {
    this.targetsAnswered++;
    const tag = this.tag as { uid: number[]; type: EmulatedTagType };
    // SENS_RES (ATQA) bits 7-8 give the UID size: single 00, double 01, triple 10 (ISO/IEC 14443-3).
    const sizeBits = tag.uid.length === 4 ? 0x00 : tag.uid.length === 7 ? 0x40 : 0x80;
    // Bit 3 (0x04) is the anticollision bit frame both NTAG21x (00 44) and MIFARE Classic (00 04) use.
    const sensRes = [0x00, sizeBits | 0x04];
    const selRes = tag.type === 'ntag21x' ? 0x00 : 0x08;
    return [0x4b, 0x01, 0x01, ...sensRes, selRes, tag.uid.length, ...tag.uid];
  }

  /** A response information frame: D5, then `data` (response code first). */
  private answer(data: number[], readyAt: number): void {
    if (this.faulty('error-frame', true)) {
      this.send(ERROR_FRAME, readyAt);
      return;
    }
    this.lastResponse = [0xd5, ...data];
    this.sendResponse(this.lastResponse, readyAt);
  }

  private sendResponse(body: number[], readyAt: number): void {
    const len = body.length;
    let lcs = (0x100 - len) & 0xff;
    let dcs = (0x100 - (body.reduce((s, x) => s + x, 0) & 0xff)) & 0xff;
    if (this.faulty('bad-lcs', true)) lcs = (lcs + 1) & 0xff;
    else if (this.faulty('bad-dcs', true)) dcs = (dcs + 1) & 0xff;
    this.send([0x00, 0x00, 0xff, len, lcs, ...body, dcs, 0x00], readyAt);
  }

  private clearOutbox(): void {
    this.outbox = [];
    if (this.hsuTimer) clearTimeout(this.hsuTimer);
    this.hsuTimer = undefined;
  }

  private send(bytes: number[], readyAt: number): void {
    this.outbox.push({ bytes, readyAt });
    this.scheduleHsu();
  }

  /** True when `kind` is the active fault; `consume` counts one use of it. */
  private faulty(kind: Pn532Fault, consume: boolean): boolean {
    const fault = this.fault;
    if (fault?.kind !== kind || fault.left <= 0) return false;
    if (consume) fault.left--;
    return true;
  }
}
