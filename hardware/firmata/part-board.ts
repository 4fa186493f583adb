/**
 * The device firmware's board: an Arduino-class board running
 * StandardFirmata, opened as a johnny-five Board over our own transport (the
 * dealer console's approach, `console/board.ts`: firmata-io over serialport
 * 13 or TCP; johnny-five never opens a port itself). It gives the firmware
 * an I2C bus for its parts, digital inputs (IR beam, lid reed switch) and
 * outputs (status LED, buzzer), and says when the board goes away.
 */
import { EventEmitter } from 'node:events';
import { announceConnected, openFirmataIo } from '../console/board.ts';
import { HardwareError, reasonOf } from '../errors.ts';
import type { I2cBus } from '../i2c/bus.ts';
import type { Transport } from '../transports/transport.ts';
import type { FirmataIo } from './firmata-io.ts';
import { firmataI2cBus } from './i2c-bus.ts';

export interface PartBoardEvents {
  /** A watched input changed: its level as the pin reads it. */
  input: [pin: number, high: boolean];
  /** The board went away (cable pulled, reset); open a new PartBoard to go on. */
  lost: [reason: string];
}

export interface PartBoardOptions {
  /** Transport URL of the board: /dev/ttyUSB0, serial:/dev/ttyACM0?baud=57600, tcp://host:port. */
  url: string;
  /** The board must answer as Firmata (version report, firmware, capabilities) within this. */
  readyTimeoutMs?: number;
  /** An I2C read with no reply by then fails. */
  i2cTimeoutMs?: number;
}

export interface Output {
  set(on: boolean): void;
}

export class PartBoard extends EventEmitter<PartBoardEvents> {
  readonly i2c: I2cBus;
  private closed = false;

  private constructor(
    readonly url: string,
    readonly io: FirmataIo,
    private readonly five: typeof import('johnny-five').default,
    private readonly board: import('johnny-five').Board,
    private readonly transport: Transport,
    i2cTimeoutMs: number | undefined,
  ) {
    super();
    this.i2c = firmataI2cBus(
      io,
      i2cTimeoutMs === undefined ? {} : { replyTimeoutMs: i2cTimeoutMs },
    );
  }

  /** The sketch's name and version as the board reported them (REPORT_FIRMWARE). */
  get firmware(): string {
    const firmware = this.io.firmware;
    const version = firmware.version ? ` ${firmware.version.major}.${firmware.version.minor}` : '';
    return `${firmware.name ?? 'unknown'}${version}`;
  }

  static async open(options: PartBoardOptions): Promise<PartBoard> {
    const readyTimeoutMs = options.readyTimeoutMs ?? 8_000;
    let opened: { io: unknown; transport: Transport };
    try {
      opened = await openFirmataIo(options.url, 300);
    } catch (error) {
      throw new HardwareError(
        'board_failed',
        `board on ${options.url} could not be opened: ${reasonOf(error)}: check the USB cable and the port name (tableside devices)`,
        { cause: error },
      );
    }
    const { io, transport } = opened;
    let five: typeof import('johnny-five').default;
    try {
      five = (await import('johnny-five')).default;
    } catch (error) {
      await transport.close();
      throw new HardwareError(
        'library_missing',
        `johnny-five could not be loaded: ${reasonOf(error)}`,
        {
          cause: error,
        },
      );
    }
    const board = new five.Board({
      io,
      repl: false,
      debug: false,
      sigint: false,
      // Ours gives the clearer message; johnny-five's own timer is only a backstop.
      timeout: readyTimeoutMs + 5_000,
    });
    // johnny-five's own connect timer may fire after we gave up on this board: heard, not thrown.
    board.on('error', () => undefined);
    announceConnected(io);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(
                `no Firmata answer within ${readyTimeoutMs} ms: this board is not running StandardFirmata; flash it (Arduino IDE: File > Examples > Firmata > StandardFirmata) and check the baud rate (57600)`,
              ),
            ),
          readyTimeoutMs,
        );
        board.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
        board.once('error', (error: unknown) => {
          clearTimeout(timer);
          // johnny-five emits plain objects as well as Errors.
          const message = (error as { message?: unknown } | undefined)?.message;
          reject(new Error(typeof message === 'string' ? message : String(error)));
        });
        transport.once('close', (info) => {
          clearTimeout(timer);
          reject(new Error(info.reason));
        });
      });
    } catch (error) {
      await transport.close();
      throw new HardwareError('board_failed', `board on ${options.url}: ${reasonOf(error)}`, {
        cause: error,
      });
    }
    const partBoard = new PartBoard(
      options.url,
      io as FirmataIo,
      five,
      board,
      transport,
      options.i2cTimeoutMs,
    );
    transport.on('close', (info) => {
      if (!info.expected)
        partBoard.lose(`board on ${options.url} went away (${info.reason}): check its USB cable`);
    });
    return partBoard;
  }

  /**
   * Reports a digital input's level on every change, with the pull-up on
   * (an open-collector beam receiver, a reed switch to ground). No debounce:
   * a beam receiver's edge is clean and every millisecond counts.
   */
  watch(pin: number): void {
    this.io.pinMode(pin, this.io.MODES.INPUT);
    this.io.digitalWrite(pin, 1); // StandardFirmata: HIGH on an input pin enables its pull-up
    this.io.digitalRead(pin, (value) => {
      if (!this.closed) this.emit('input', pin, value !== 0);
    });
  }

  /**
   * A pin's level: watches it and resolves with the board's first report
   * (StandardFirmata reports a port's state as soon as it is asked to).
   */
  readLevel(pin: number, timeoutMs = 2_000): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const onInput = (reported: number, high: boolean) => {
        if (reported !== pin) return;
        clearTimeout(timer);
        this.off('input', onInput);
        resolve(high);
      };
      const timer = setTimeout(() => {
        this.off('input', onInput);
        reject(new Error(`the board did not report pin D${pin} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.on('input', onInput);
      this.watch(pin);
    });
  }

  /** A digital output (status LED, buzzer) as a johnny-five Led. */
  output(pin: number): Output {
    const led = new this.five.Led({ pin, board: this.board });
    return {
      set: (on) => {
        if (this.closed) return;
        if (on) led.on();
        else led.off();
      },
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Closing: a transport already gone is closed enough.
    await this.transport.close().catch(() => undefined);
  }

  private lose(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('lost', reason);
  }
}
