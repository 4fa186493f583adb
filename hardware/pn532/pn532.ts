/**
 * The PN532 command layer (UM0701-02 § 6.2.2, dialog structure): the host
 * sends an information frame, the PN532 answers an ACK within a few ms, then
 * its response frame when done. A response that fails LCS/DCS is asked for
 * again with a NACK; an ACK from the host aborts a command still running
 * (InListPassiveTarget waiting for a tag); the error frame means the PN532
 * did not understand us.
 *
 * Commands used (§ 7.2.2, 7.2.10, 7.3.5): GetFirmwareVersion 0x02,
 * SAMConfiguration 0x14 (normal mode) and InListPassiveTarget 0x4A (one
 * target, 106 kbps type A).
 */
import type { Pn532Bus } from './bus.ts';
import { Pn532Error } from './errors.ts';
import {
  ACK_FRAME,
  encodeHostFrame,
  hex,
  hexBytes,
  NACK_FRAME,
  type Pn532Frame,
  TFI_HOST_TO_PN532,
  TFI_PN532_TO_HOST,
} from './frame.ts';

export const CMD_GET_FIRMWARE_VERSION = 0x02;
export const CMD_SAM_CONFIGURATION = 0x14;
export const CMD_IN_LIST_PASSIVE_TARGET = 0x4a;

export interface Pn532Options {
  /** How long the PN532 has to ACK a command (ms); it ACKs within about a millisecond, the margin is for a busy host. */
  ackTimeoutMs?: number;
  /** How long a command other than a tag poll has to answer (ms). */
  responseTimeoutMs?: number;
  /** Retransmissions after a missing ACK, a NACK, an error frame or a checksum error. */
  retries?: number;
}

export interface FirmwareVersion {
  /** 0x32 for a PN532. */
  ic: number;
  ver: number;
  rev: number;
  /** Bit 0 ISO/IEC 14443 type A, bit 1 type B, bit 2 ISO 18092. */
  support: number;
}

/** One ISO/IEC 14443 type A target as InListPassiveTarget reports it (§ 7.3.5). */
export interface PassiveTarget {
  tg: number;
  sensRes: number;
  selRes: number;
  /** NFCID1: 4, 7 or 10 bytes. */
  uid: Uint8Array;
}

/**
 * The data (after TFI and the response code) each command's response
 * carries, so the link reads the whole frame at once: GetFirmwareVersion
 * IC Ver Rev Support; SAMConfiguration nothing; InListPassiveTarget one
 * type A target with the wiring page's 7-byte NTAG UID (NbTg Tg SENS_RES(2)
 * SEL_RES NFCIDLength NFCID1(7)). A longer response is read again whole.
 */
const RESPONSE_DATA: Readonly<Record<number, number>> = {
  [CMD_GET_FIRMWARE_VERSION]: 4,
  [CMD_SAM_CONFIGURATION]: 0,
  [CMD_IN_LIST_PASSIVE_TARGET]: 6 + 7,
};

/** 00 00 FF LEN LCS, TFI and the response code, the data, DCS 00. */
function responseFrameLength(code: number): number | undefined {
  const data = RESPONSE_DATA[code];
  return data === undefined ? undefined : 5 + 2 + data + 2;
}

const DEFAULTS: Required<Pn532Options> = { ackTimeoutMs: 250, responseTimeoutMs: 1000, retries: 2 };

export class Pn532 {
  private readonly options: Required<Pn532Options>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly bus: Pn532Bus,
    options: Pn532Options = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const { ackTimeoutMs, responseTimeoutMs, retries } = this.options;
    for (const [key, value] of Object.entries({ ackTimeoutMs, responseTimeoutMs, retries })) {
      if (!Number.isInteger(value) || value < 0 || value > 60_000) {
        throw new Pn532Error(
          'bad_options',
          `PN532 option ${key}=${value} is not a whole number 0..60000`,
        );
      }
    }
  }

  get name(): string {
    return this.bus.name;
  }

  async firmwareVersion(): Promise<FirmwareVersion> {
    const data = await this.command(CMD_GET_FIRMWARE_VERSION, []);
    if (data?.length !== 4) {
      throw this.unexpected('GetFirmwareVersion', data);
    }
    const [ic = 0, ver = 0, rev = 0, support = 0] = data;
    if (ic !== 0x32) {
      throw new Pn532Error(
        'unexpected',
        `${this.name}: GetFirmwareVersion reports IC ${hex(ic)}, not 0x32: this is not a PN532`,
      );
    }
    return { ic, ver, rev, support };
  }

  /** Normal mode (no SAM), virtual-card timeout 1 s, P70_IRQ used. */
  async samConfiguration(): Promise<void> {
    const data = await this.command(CMD_SAM_CONFIGURATION, [0x01, 0x14, 0x01]);
    if (data?.length !== 0) throw this.unexpected('SAMConfiguration', data);
  }

  /** The UID of a type A tag in the field, or undefined if none came within `timeoutMs`. */
  async readPassiveTarget(timeoutMs: number): Promise<Uint8Array | undefined> {
    return (await this.listPassiveTarget(timeoutMs))?.uid;
  }

  /** InListPassiveTarget MaxTg 1, BrTy 0x00; aborted with an ACK if no tag came in time. */
  async listPassiveTarget(timeoutMs: number): Promise<PassiveTarget | undefined> {
    if (!Number.isFinite(timeoutMs) || timeoutMs < 0) {
      throw new Pn532Error(
        'bad_options',
        `PN532 tag poll timeout ${timeoutMs} ms is not a duration`,
      );
    }
    const data = await this.command(CMD_IN_LIST_PASSIVE_TARGET, [0x01, 0x00], timeoutMs);
    if (!data) return undefined;
    const nbTg = data[0];
    if (nbTg === 0) return undefined;
    // NbTg Tg SENS_RES(2) SEL_RES NFCIDLength NFCID1... [ATSLength ATS...]
    const idLength = data[5] ?? 0;
    if (nbTg !== 1 || data.length < 6 + idLength || ![4, 7, 10].includes(idLength)) {
      throw this.unexpected('InListPassiveTarget', data);
    }
    return {
      tg: data[1] ?? 0,
      sensRes: ((data[2] ?? 0) << 8) | (data[3] ?? 0),
      selRes: data[4] ?? 0,
      uid: data.slice(6, 6 + idLength),
    };
  }

  /**
   * Runs one command; resolves with the response data after the response
   * code, or undefined when `pollTimeoutMs` is given and ran out (the
   * command is then aborted with an ACK).
   */
  command(code: number, params: number[], pollTimeoutMs?: number): Promise<Uint8Array | undefined> {
    const run = this.queue.then(
      () => this.exchange(code, params, pollTimeoutMs),
      () => this.exchange(code, params, pollTimeoutMs),
    );
    // The queue only orders commands: each caller gets its own failure from `run`.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async exchange(
    code: number,
    params: number[],
    pollTimeoutMs: number | undefined,
  ): Promise<Uint8Array | undefined> {
    const frame = encodeHostFrame(Uint8Array.from([code, ...params]));
    const what = `command ${hex(code)}`;
    let lastFault: Pn532Error | undefined;
    for (let attempt = 0; attempt <= this.options.retries; attempt++) {
      if (attempt > 0) this.bus.resync();
      await this.bus.send(frame);
      const ack = await this.awaitAck();
      if (ack !== 'ack') {
        lastFault = ack;
        continue;
      }
      const outcome = await this.awaitResponse(
        code,
        pollTimeoutMs ?? this.options.responseTimeoutMs,
      );
      if (outcome instanceof Uint8Array) return outcome;
      if (outcome === 'timeout') {
        if (pollTimeoutMs !== undefined) {
          // Abort the pending command so the PN532 listens again (§ 6.2.1.3).
          await this.bus.send(ACK_FRAME);
          return undefined;
        }
        lastFault = new Pn532Error(
          'no_answer',
          `${this.name} ACKed ${what} but never answered: power-cycle it and check its supply (up to 150 mA with the field on)`,
        );
        continue;
      }
      lastFault = outcome;
    }
    throw lastFault ?? new Pn532Error('no_answer', `${this.name}: ${what} failed`);
  }

  private async awaitAck(): Promise<'ack' | Pn532Error> {
    const frame = await this.bus.receive(this.options.ackTimeoutMs, ACK_FRAME.length);
    if (frame?.kind === 'ack') return 'ack';
    return this.faultFor(frame, 'instead of an ACK');
  }

  private async awaitResponse(
    code: number,
    timeoutMs: number,
  ): Promise<Uint8Array | 'timeout' | Pn532Error> {
    const deadline = Date.now() + timeoutMs;
    let nacks = 0;
    for (;;) {
      const left = deadline - Date.now();
      const frame = left > 0 ? await this.bus.receive(left, responseFrameLength(code)) : undefined;
      if (!frame) return 'timeout';
      if (frame.kind === 'ack') continue; // a duplicate ACK
      if (frame.kind === 'info') {
        if (frame.tfi !== TFI_PN532_TO_HOST || frame.data[0] !== code + 1) {
          return this.unexpected(
            `response to ${hex(code)}`,
            Uint8Array.of(frame.tfi, ...frame.data),
          );
        }
        return frame.data.slice(1);
      }
      if (frame.kind === 'corrupt' && nacks < this.options.retries) {
        // Ask the PN532 to send its last response again (§ 6.2.1.4).
        nacks++;
        await this.bus.send(NACK_FRAME);
        continue;
      }
      return this.faultFor(frame, 'instead of its response');
    }
  }

  private faultFor(frame: Pn532Frame | undefined, where: string): Pn532Error {
    switch (frame?.kind) {
      case undefined:
        return new Pn532Error(
          'no_answer',
          `${this.name} does not answer: check its power and wiring, and that its mode switches select the link in use (HSU or I2C)`,
        );
      case 'nack':
        return new Pn532Error(
          'nack',
          `${this.name} answered NACK ${where}: the line is noisy or the baud rate is wrong; check the wiring and ?baud=`,
        );
      case 'error':
        return new Pn532Error(
          'error_frame',
          `${this.name} answered its error frame (0x7F): it rejected the command; power-cycle it and replace it if this persists`,
        );
      case 'corrupt':
        return new Pn532Error(
          'checksum',
          `${this.name} sent a damaged frame (${frame.why}): check the wiring and the baud rate`,
        );
      case 'info':
        if (frame.tfi === TFI_HOST_TO_PN532) {
          return new Pn532Error(
            'unexpected',
            `${this.name} sends our own frames back: this is not a PN532, or TX and RX are bridged; check the port and the wiring`,
          );
        }
        return new Pn532Error(
          'unexpected',
          `${this.name} answered a response ${where}: out of step; it is resynchronised`,
        );
      default:
        return new Pn532Error(
          'unexpected',
          `${this.name} sent an unexpected ${frame?.kind ?? 'empty'} frame ${where}`,
        );
    }
  }

  private unexpected(what: string, data: Uint8Array | undefined): Pn532Error {
    return new Pn532Error(
      'unexpected',
      `${this.name}: ${what} answered ${data ? hexBytes(data) || '(nothing)' : 'nothing'}, which does not fit the PN532 user manual`,
    );
  }
}
