/**
 * The dealer console's board glue: johnny-five Buttons and Leds on the pins
 * of a validated pin map, over a Firmata board (an Arduino Nano running
 * StandardFirmata). It reports raw button edges and obeys light states and
 * buzzer patterns; what they mean is firmware-host/console's business.
 *
 * johnny-five 2.1 carries an old serialport 8 whose native binding is not
 * built here (install scripts are denied). `import('johnny-five')` does not
 * load it (only Board's port auto-detection does), so we never let johnny-five
 * open a port: we open our own transport (serialport 13, or TCP to a
 * ser2net/ESP-Link bridge), build the Firmata IO with firmata-io over it, and
 * pass that as `io`. johnny-five and firmata-io are loaded only here, when a
 * console is configured.
 */
import { EventEmitter } from 'node:events';
import type { FirmataTransport } from 'firmata-io';
import { HardwareError, reasonOf } from '../errors.ts';
import type { Transport } from '../transports/transport.ts';
import { openTransport, parseTransportUrl } from '../transports/url.ts';
import type { PinMap } from './pin-map.ts';
import {
  BUTTON_NAMES,
  BUZZ_PATTERNS,
  type ButtonName,
  type BuzzPattern,
  LIGHT_NAMES,
  type LightName,
  type LightState,
  type Lights,
} from './types.ts';

/** StandardFirmata's baud rate; used when the console URL names none. */
export const FIRMATA_BAUD_RATE = 57_600;

export interface ConsoleBoardOptions {
  pinMap: PinMap;
  /** A Firmata-compatible IO (tests: MockFirmataIO). Without it, `transport` is opened. */
  io?: unknown;
  /** Where the board is: /dev/tableside/console, serial:/dev/ttyUSB1?baud=57600, tcp://host:port. */
  transport?: string;
  /** The board must answer (Firmata version report) within this. */
  readyTimeoutMs?: number;
  /** Half-period of a blinking light. */
  blinkMs?: number;
}

export interface ConsoleBoardEvents {
  button: [name: ButtonName, edge: 'down' | 'up'];
  /** The board went away; make a new ConsoleBoard to reconnect. */
  lost: [reason: string];
}

interface Output {
  on(): unknown;
  off(): unknown;
}

/** Adapts our Transport to the serialport-like stream firmata-io expects. */
class FirmataStream extends EventEmitter implements FirmataTransport {
  constructor(private readonly transport: Transport) {
    super();
    transport.on('data', (chunk) => this.emit('data', chunk));
    transport.on('close', (info) => this.emit('close', { disconnected: !info.expected }));
  }

  write(data: Buffer, callback?: (error?: Error | null) => void): boolean {
    this.transport.write(data).then(
      () => callback?.(null),
      (error: Error) => {
        this.emit('error', error);
        callback?.(error);
      },
    );
    return true;
  }
}

/**
 * `reportVersionTimeoutMs`: how long to wait for the board's own version
 * report (sent when it boots) before asking for it; a board that does not
 * reset when its port opens never sends one unasked.
 */
/**
 * Our transport is open before firmata-io sees it, so firmata-io never emits
 * "connect", and johnny-five holds its "ready" back until it has: call this
 * right after constructing the johnny-five Board on a real (not mock) io.
 */
export function announceConnected(io: unknown): void {
  (io as { emit(event: string): void }).emit('connect');
}

export async function openFirmataIo(
  url: string,
  reportVersionTimeoutMs = 2000,
): Promise<{ io: unknown; transport: Transport }> {
  const spec = parseTransportUrl(url);
  if (spec.kind === 'serial' && !/[?&]baud=/.test(url)) spec.baudRate = FIRMATA_BAUD_RATE;
  const transport = openTransport(spec);
  await transport.open();
  try {
    const firmata = await import('firmata-io');
    const Firmata = firmata.default.Firmata;
    const io = new Firmata(new FirmataStream(transport), {
      reportVersionTimeout: reportVersionTimeoutMs,
    });
    return { io, transport };
  } catch (error) {
    await transport.close();
    throw new HardwareError(
      'library_missing',
      `firmata-io could not be loaded: ${reasonOf(error)}`,
      {
        cause: error,
      },
    );
  }
}

export class ConsoleBoard extends EventEmitter<ConsoleBoardEvents> {
  private readonly outputs = new Map<
    LightName | 'buzzer',
    { device: Output; activeLow: boolean }
  >();
  private readonly lightStates: Lights = {
    playerDraws: 'off',
    bankerDraws: 'off',
    lastHand: 'off',
    alarm: 'off',
    deviceFault: 'off',
  };
  private blinkTimer: NodeJS.Timeout | undefined;
  private blinkPhase = false;
  private buzzTimers: NodeJS.Timeout[] = [];
  private closed = false;

  private constructor(
    readonly pinMap: PinMap,
    private readonly transport: Transport | undefined,
    private readonly blinkMs: number,
  ) {
    super();
  }

  static async open(options: ConsoleBoardOptions): Promise<ConsoleBoard> {
    let io = options.io;
    let transport: Transport | undefined;
    if (!io) {
      if (!options.transport) {
        throw new HardwareError('bad_options', 'console: give a transport URL or an io');
      }
      ({ io, transport } = await openFirmataIo(options.transport));
    }
    let five: typeof import('johnny-five').default;
    try {
      five = (await import('johnny-five')).default;
    } catch (error) {
      await transport?.close();
      throw new HardwareError(
        'library_missing',
        `johnny-five could not be loaded: ${reasonOf(error)}`,
        {
          cause: error,
        },
      );
    }
    const dealerConsole = new ConsoleBoard(options.pinMap, transport, options.blinkMs ?? 400);
    const readyTimeoutMs = options.readyTimeoutMs ?? 10_000;
    const board = new five.Board({
      io,
      repl: false,
      debug: false,
      // The daemon owns SIGINT; johnny-five's handler would exit the process.
      sigint: false,
      timeout: readyTimeoutMs,
    });
    if (transport) announceConnected(io);
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(
              new Error(`no answer within ${readyTimeoutMs} ms (is StandardFirmata flashed?)`),
            ),
          readyTimeoutMs,
        );
        board.once('ready', () => {
          clearTimeout(timer);
          resolve();
        });
        board.once('error', (error: Error) => {
          clearTimeout(timer);
          reject(error);
        });
        transport?.once('close', (info) => {
          clearTimeout(timer);
          reject(new Error(info.reason));
        });
      });
    } catch (error) {
      await transport?.close();
      throw new HardwareError(
        'board_failed',
        `console board${options.transport ? ` on ${options.transport}` : ''}: ${reasonOf(error)}`,
        { cause: error },
      );
    }

    for (const name of BUTTON_NAMES) {
      const wiring = options.pinMap.buttons[name];
      const button = new five.Button({ pin: wiring.pin, board, isPullup: wiring.pullup });
      button.on('down', () => dealerConsole.emit('button', name, 'down'));
      button.on('up', () => dealerConsole.emit('button', name, 'up'));
    }
    for (const name of LIGHT_NAMES) {
      const wiring = options.pinMap.lights[name];
      dealerConsole.outputs.set(name, {
        device: new five.Led({ pin: wiring.pin, board }),
        activeLow: wiring.activeLow,
      });
    }
    if (options.pinMap.buzzer) {
      const wiring = options.pinMap.buzzer;
      dealerConsole.outputs.set('buzzer', {
        device: new five.Led({ pin: wiring.pin, board }),
        activeLow: wiring.activeLow,
      });
    }
    // Everything starts dark (an active-low output needs its pin driven HIGH for that).
    for (const key of dealerConsole.outputs.keys()) dealerConsole.drive(key, false);

    const lost = (reason: string) => {
      if (dealerConsole.closed) return;
      dealerConsole.stopTimers();
      dealerConsole.emit('lost', reason);
    };
    board.on('close', () => lost('board closed'));
    board.on('disconnect', () => lost('board disconnected'));
    board.on('error', (error: Error) => lost(`board error: ${error.message}`));
    transport?.on('close', (info) => {
      if (!info.expected) lost(info.reason);
    });
    return dealerConsole;
  }

  get lights(): Lights {
    return { ...this.lightStates };
  }

  setLights(lights: Partial<Lights>): void {
    for (const name of LIGHT_NAMES) {
      const state = lights[name];
      if (state !== undefined) this.setLight(name, state);
    }
  }

  setLight(name: LightName, state: LightState): void {
    if (this.closed || this.lightStates[name] === state) return;
    this.lightStates[name] = state;
    // A light that starts blinking lights at once, so the dealer sees it without delay.
    this.drive(name, state !== 'off');
    this.updateBlinking();
  }

  /** Plays a pattern on the buzzer (if wired); a new pattern cuts the one playing. */
  buzz(pattern: BuzzPattern): void {
    if (this.closed || !this.outputs.has('buzzer')) return;
    for (const timer of this.buzzTimers) clearTimeout(timer);
    this.buzzTimers = [];
    let at = 0;
    BUZZ_PATTERNS[pattern].forEach((ms, index) => {
      const on = index % 2 === 0;
      this.buzzTimers.push(setTimeout(() => this.drive('buzzer', on), at));
      at += ms;
    });
    this.buzzTimers.push(setTimeout(() => this.drive('buzzer', false), at));
  }

  /** Lights and buzzer off, timers stopped, our transport closed. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.stopTimers();
    for (const key of this.outputs.keys()) this.drive(key, false);
    this.closed = true;
    await this.transport?.close();
  }

  private drive(key: LightName | 'buzzer', lit: boolean): void {
    const output = this.outputs.get(key);
    if (!output) return;
    if (lit !== output.activeLow) output.device.on();
    else output.device.off();
  }

  private updateBlinking(): void {
    const any = LIGHT_NAMES.some((name) => this.lightStates[name] === 'blink');
    if (any && !this.blinkTimer) {
      this.blinkTimer = setInterval(() => {
        this.blinkPhase = !this.blinkPhase;
        for (const name of LIGHT_NAMES) {
          if (this.lightStates[name] === 'blink') this.drive(name, this.blinkPhase);
        }
      }, this.blinkMs);
    } else if (!any && this.blinkTimer) {
      clearInterval(this.blinkTimer);
      this.blinkTimer = undefined;
    }
  }

  private stopTimers(): void {
    if (this.blinkTimer) clearInterval(this.blinkTimer);
    this.blinkTimer = undefined;
    for (const timer of this.buzzTimers) clearTimeout(timer);
    this.buzzTimers = [];
  }
}
