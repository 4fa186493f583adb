/**
 * An Arduino running StandardFirmata 2.5, emulated from the Firmata protocol
 * specification (firmata/protocol: protocol.md, i2c.md, capability-query.md,
 * analog-mapping-query.md), not from firmata-io or tableside's code. It sits
 * on the device end of a serial line (a socat pty) and hosts emulated I2C
 * parts (`I2cSlave`s) and digital inputs a test drives (an IR beam, a reed
 * switch).
 *
 * What it speaks:
 * - on start, like StandardFirmata's setup(): REPORT_VERSION `F9 02 05`, then
 *   REPORT_FIRMWARE `F0 79 02 05 <name, 7-bit LSB/MSB pairs> F7`;
 * - REPORT_VERSION query `F9` and REPORT_FIRMWARE query `F0 79 F7`;
 * - CAPABILITY_QUERY `F0 6B F7` → `F0 6C {mode resolution}* 7F ... F7`, an
 *   ATmega328 (Uno/Nano): 20 pins, D0-D1 serial, A0-A5 = D14-D19 analog,
 *   A4/A5 = D18/D19 I2C;
 * - ANALOG_MAPPING_QUERY `F0 69 F7` → `F0 6A {channel or 7F}* F7`;
 * - SET_PIN_MODE `F4 pin mode`, REPORT_DIGITAL `D0|port 0/1` (reports the
 *   port at once, then on every change of an input pin), DIGITAL_MESSAGE
 *   `90|port lsb msb` and SET_DIGITAL_PIN_VALUE `F5 pin value` (outputs);
 * - I2C_CONFIG `F0 78 delay F7`; I2C_REQUEST `F0 76 addr mode {data pairs} F7`
 *   (write, read once with or without a register) → I2C_REPLY
 *   `F0 77 addr(2) register(2) {data pairs} F7`; a part that NACKs a read
 *   gets StandardFirmata's `STRING_DATA "I2C: Too few bytes received"` and a
 *   reply with no data bytes; the register is 0 when none was given; a
 *   write to the general-call address 0x00 puts its address byte on the
 *   bus, SDA low for 9 bit times (90 µs at 100 kHz): the wake pulse of a
 *   part that has one (ATECC608: SDA low for tWLO ≥ 60 µs), NACKed;
 * - SAMPLING_INTERVAL, REPORT_ANALOG, SYSTEM_RESET are accepted.
 *
 * Timing: bytes take their time on the line at the baud rate (10 bits a
 * byte, both ways), and an I2C transaction 9 bits a byte at 100 kHz.
 *
 * `behaviour: 'silent'` is a board that never answers (not Firmata, or a
 * sketch that does not run); `'garbage'` one that prints text instead (a
 * different sketch at the same baud rate).
 */
import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Transport } from '../../hardware/transports/transport.ts';
import { openTransport, parseTransportUrl } from '../../hardware/transports/url.ts';
import type { I2cSlave } from './i2c-slave.ts';

const REPORT_VERSION = 0xf9;
const START_SYSEX = 0xf0;
const END_SYSEX = 0xf7;
const REPORT_FIRMWARE = 0x79;
const CAPABILITY_QUERY = 0x6b;
const CAPABILITY_RESPONSE = 0x6c;
const ANALOG_MAPPING_QUERY = 0x69;
const ANALOG_MAPPING_RESPONSE = 0x6a;
const I2C_REQUEST = 0x76;
const I2C_REPLY = 0x77;
const I2C_CONFIG = 0x78;
const STRING_DATA = 0x71;
const SET_PIN_MODE = 0xf4;
const SET_DIGITAL_PIN_VALUE = 0xf5;
const DIGITAL_MESSAGE = 0x90;
const REPORT_ANALOG = 0xc0;
const REPORT_DIGITAL = 0xd0;
const SYSTEM_RESET = 0xff;

const MODE = {
  INPUT: 0x00,
  OUTPUT: 0x01,
  ANALOG: 0x02,
  PWM: 0x03,
  SERVO: 0x04,
  I2C: 0x06,
  PULLUP: 0x0b,
};
const PIN_COUNT = 20;
const PWM_PINS = new Set([3, 5, 6, 9, 10, 11]);

export type BoardBehaviour = 'firmata' | 'silent' | 'garbage';

export interface FirmataBoardOptions {
  /** The board's end of the line: a pty path (socat) or any transport URL. */
  path: string;
  slaves?: readonly I2cSlave[];
  baudRate?: number;
  firmwareName?: string;
  behaviour?: BoardBehaviour;
}

export interface FirmataBoardEvents {
  /** A digital output changed (status LED, buzzer). */
  output: [pin: number, high: boolean];
}

export class FirmataBoardEmulator extends EventEmitter<FirmataBoardEvents> {
  readonly slaves = new Map<number, I2cSlave>();
  private readonly baudRate: number;
  private readonly firmwareName: string;
  private readonly behaviour: BoardBehaviour;
  private transport: Transport | undefined;
  private readonly modes = new Array<number>(PIN_COUNT).fill(MODE.OUTPUT);
  private readonly levels = new Array<boolean>(PIN_COUNT).fill(false);
  private readonly reportedPorts = new Set<number>();
  private readonly input: number[] = [];
  /** When the line (each direction) is free again, on the emulator's clock. */
  private txFreeAt = 0;
  private rxFreeAt = 0;
  private readonly timers = new Set<NodeJS.Timeout>();
  private i2cConfigured = false;
  /** I2C transactions and Firmata commands seen, for tests. */
  readonly seen = { i2cWrites: 0, i2cReads: 0, versionQueries: 0, capabilityQueries: 0 };

  constructor(private readonly options: FirmataBoardOptions) {
    super();
    for (const slave of options.slaves ?? []) this.slaves.set(slave.address, slave);
    this.baudRate = options.baudRate ?? 57_600;
    this.firmwareName = options.firmwareName ?? 'StandardFirmata.ino';
    this.behaviour = options.behaviour ?? 'firmata';
  }

  now(): number {
    return performance.now();
  }

  /** Opens the line and, like StandardFirmata's setup(), announces itself. */
  async start(): Promise<void> {
    const spec = parseTransportUrl(this.options.path);
    if (spec.kind === 'serial') spec.baudRate = this.baudRate;
    this.transport = openTransport(spec);
    this.transport.on('data', (chunk: Buffer) => this.received(chunk));
    await this.transport.open();
    if (this.behaviour === 'garbage') {
      this.send(Buffer.from('Hello from my sketch! temperature=21.5\r\n', 'latin1'));
      return;
    }
    if (this.behaviour === 'silent') return;
    this.sendVersion();
    this.sendFirmware();
  }

  async stop(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    const transport = this.transport;
    this.transport = undefined;
    await transport?.close().catch(() => undefined);
  }

  /** Drives a digital input (the beam receiver, the reed switch): reported if its port is. */
  setInput(pin: number, high: boolean): void {
    if (this.levels[pin] === high) return;
    this.levels[pin] = high;
    const port = pin >> 3;
    if (this.isInput(pin) && this.reportedPorts.has(port)) this.reportPort(port);
  }

  /** A digital output's level as the host last wrote it. */
  output(pin: number): boolean {
    return this.levels[pin] ?? false;
  }

  mode(pin: number): number {
    return this.modes[pin] ?? MODE.OUTPUT;
  }

  // ------------------------------------------------------------ line

  private send(bytes: Buffer | number[]): void {
    const data = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
    const now = this.now();
    const start = Math.max(now, this.txFreeAt);
    this.txFreeAt = start + this.byteMs(data.length);
    this.at(this.txFreeAt, () => this.transport?.write(data).catch(() => undefined));
  }

  private byteMs(count: number): number {
    return (count * 10 * 1000) / this.baudRate;
  }

  private at(atMs: number, run: () => void): void {
    const delay = atMs - this.now();
    if (delay <= 0) {
      run();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      run();
    }, delay);
    this.timers.add(timer);
  }

  private received(chunk: Buffer): void {
    if (this.behaviour !== 'firmata') return;
    // The bytes arrive at the baud rate: handle them when the last one has.
    const now = this.now();
    this.rxFreeAt = Math.max(now, this.rxFreeAt) + this.byteMs(chunk.length);
    const bytes = [...chunk];
    this.at(this.rxFreeAt, () => {
      this.input.push(...bytes);
      this.parse();
    });
  }

  /** Takes whole commands off the input; leaves a partial one for later. */
  private parse(): void {
    while (this.input.length > 0) {
      const first = this.input[0]!;
      if (first === START_SYSEX) {
        const end = this.input.indexOf(END_SYSEX);
        if (end < 0) return;
        const body = this.input.splice(0, end + 1).slice(1, -1);
        this.sysex(body);
        continue;
      }
      const command = first < 0xf0 ? first & 0xf0 : first;
      const length = this.commandLength(command);
      if (length === undefined) {
        this.input.shift(); // a data byte out of place: skip, as the sketch's parser does
        continue;
      }
      if (this.input.length < length) return;
      const message = this.input.splice(0, length);
      this.midi(command, message);
    }
  }

  private commandLength(command: number): number | undefined {
    switch (command) {
      case REPORT_VERSION:
      case SYSTEM_RESET:
        return 1;
      case DIGITAL_MESSAGE:
      case SET_PIN_MODE:
      case SET_DIGITAL_PIN_VALUE:
      case 0xe0: // ANALOG_MESSAGE (PWM out)
        return 3;
      case REPORT_ANALOG:
      case REPORT_DIGITAL:
        return 2;
      default:
        return undefined;
    }
  }

  private midi(command: number, message: number[]): void {
    switch (command) {
      case REPORT_VERSION:
        this.seen.versionQueries++;
        this.sendVersion();
        return;
      case SYSTEM_RESET:
        this.reportedPorts.clear();
        return;
      case SET_PIN_MODE: {
        const [, pin, mode] = message as [number, number, number];
        if (pin < PIN_COUNT) this.modes[pin] = mode;
        return;
      }
      case REPORT_DIGITAL: {
        const port = message[0]! & 0x0f;
        if (message[1]) {
          this.reportedPorts.add(port);
          this.reportPort(port); // StandardFirmata reports the port's state at once
        } else {
          this.reportedPorts.delete(port);
        }
        return;
      }
      case DIGITAL_MESSAGE: {
        const port = message[0]! & 0x0f;
        const value = message[1]! | (message[2]! << 7);
        for (let bit = 0; bit < 8; bit++) {
          const pin = port * 8 + bit;
          if (pin < PIN_COUNT && this.modes[pin] === MODE.OUTPUT) {
            this.setOutput(pin, (value & (1 << bit)) !== 0);
          }
        }
        return;
      }
      case SET_DIGITAL_PIN_VALUE: {
        const [, pin, value] = message as [number, number, number];
        if (pin < PIN_COUNT && this.modes[pin] === MODE.OUTPUT) this.setOutput(pin, value !== 0);
        return;
      }
      default:
        return;
    }
  }

  private setOutput(pin: number, high: boolean): void {
    if (this.levels[pin] === high) return;
    this.levels[pin] = high;
    this.emit('output', pin, high);
  }

  private sysex(body: number[]): void {
    const [command, ...data] = body;
    switch (command) {
      case REPORT_FIRMWARE:
        this.sendFirmware();
        return;
      case CAPABILITY_QUERY:
        this.seen.capabilityQueries++;
        this.sendCapabilities();
        return;
      case ANALOG_MAPPING_QUERY: {
        const channels = Array.from({ length: PIN_COUNT }, (_, pin) =>
          pin >= 14 ? pin - 14 : 0x7f,
        );
        this.send([START_SYSEX, ANALOG_MAPPING_RESPONSE, ...channels, END_SYSEX]);
        return;
      }
      case I2C_CONFIG:
        this.i2cConfigured = true;
        return;
      case I2C_REQUEST:
        this.i2cRequest(data);
        return;
      default:
        return; // SAMPLING_INTERVAL and others: nothing to answer
    }
  }

  private sendVersion(): void {
    this.send([REPORT_VERSION, 2, 5]);
  }

  private sendFirmware(): void {
    this.send([
      START_SYSEX,
      REPORT_FIRMWARE,
      2,
      5,
      ...sevenBit(Buffer.from(this.firmwareName)),
      END_SYSEX,
    ]);
  }

  private sendCapabilities(): void {
    const out = [START_SYSEX, CAPABILITY_RESPONSE];
    for (let pin = 0; pin < PIN_COUNT; pin++) {
      if (pin > 1) {
        out.push(MODE.INPUT, 1, MODE.OUTPUT, 1, MODE.PULLUP, 1);
        if (PWM_PINS.has(pin)) out.push(MODE.PWM, 8);
        if (pin >= 14) out.push(MODE.ANALOG, 10);
        if (pin === 18 || pin === 19) out.push(MODE.I2C, 1);
        out.push(MODE.SERVO, 14);
      }
      out.push(0x7f);
    }
    out.push(END_SYSEX);
    this.send(out);
  }

  private isInput(pin: number): boolean {
    return this.modes[pin] === MODE.INPUT || this.modes[pin] === MODE.PULLUP;
  }

  private reportPort(port: number): void {
    let value = 0;
    for (let bit = 0; bit < 8; bit++) {
      const pin = port * 8 + bit;
      if (pin < PIN_COUNT && this.isInput(pin) && this.levels[pin]) value |= 1 << bit;
    }
    this.send([DIGITAL_MESSAGE | port, value & 0x7f, (value >> 7) & 0x01]);
  }

  private i2cRequest(data: number[]): void {
    if (data.length < 2) return;
    const address = data[0]!;
    const modeByte = data[1]!;
    const mode = (modeByte >> 3) & 0x03;
    const words = fromSevenBit(data.slice(2));
    if (!this.i2cConfigured) return; // StandardFirmata ignores I2C before I2C_CONFIG
    const slave = this.slaves.get(address);
    const now = this.now();
    if (mode === 0) {
      this.seen.i2cWrites++;
      if (address === 0x00) {
        for (const part of this.slaves.values()) {
          if ('wake' in part) (part as I2cSlave & { wake(atMs: number): void }).wake(now);
        }
        return;
      }
      // Firmata reports nothing for a write; a NACK is silent.
      slave?.write(Uint8Array.from(words), now + i2cMs(words.length));
      return;
    }
    if (mode !== 1) return; // continuous reads are not used by tableside
    this.seen.i2cReads++;
    const register = words.length >= 2 ? words[0]! : undefined;
    const count = words.length >= 2 ? words[1]! : (words[0] ?? 0);
    let at = now;
    if (register !== undefined) {
      at += i2cMs(1);
      slave?.write(Uint8Array.of(register), at);
    }
    at += i2cMs(count);
    const bytes = slave?.read(count, at);
    const got = bytes ? [...bytes.subarray(0, count)] : [];
    if (got.length < count)
      this.send([
        START_SYSEX,
        STRING_DATA,
        ...sevenBit(Buffer.from('I2C: Too few bytes received')),
        END_SYSEX,
      ]);
    const reg = register ?? 0;
    this.send([
      START_SYSEX,
      I2C_REPLY,
      address & 0x7f,
      (address >> 7) & 0x7f,
      reg & 0x7f,
      (reg >> 7) & 0x7f,
      ...sevenBit(Buffer.from(got)),
      END_SYSEX,
    ]);
  }
}

/** 100 kHz I2C: 9 bits a byte plus the address byte. */
function i2cMs(bytes: number): number {
  return ((bytes + 1) * 9) / 100;
}

function sevenBit(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const byte of bytes) out.push(byte & 0x7f, (byte >> 7) & 0x7f);
  return out;
}

function fromSevenBit(pairs: number[]): number[] {
  const out: number[] = [];
  for (let index = 0; index + 1 < pairs.length; index += 2) {
    out.push((pairs[index]! & 0x7f) | ((pairs[index + 1]! & 0x7f) << 7));
  }
  return out;
}
