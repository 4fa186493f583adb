/**
 * A Firmata-shaped IO for johnny-five with no board behind it: tests (and a
 * console bench without an Arduino) drive input pins with `setInput()` and
 * read output pins with `level()`. It implements what johnny-five's Board,
 * Button and Led use: `pins`, `analogPins`, `MODES`, `HIGH`/`LOW`,
 * `RESOLUTION`, `isReady` with `connect`/`ready` events, `pinMode`,
 * `digitalWrite`, `analogWrite`, `digitalRead` callbacks.
 */
import { EventEmitter } from 'node:events';

const MODES = {
  INPUT: 0x00,
  OUTPUT: 0x01,
  ANALOG: 0x02,
  PWM: 0x03,
  SERVO: 0x04,
  PULLUP: 0x0b,
} as const;

export interface MockPin {
  supportedModes: number[];
  analogChannel: number;
  mode: number | undefined;
  value: number;
  report: number;
}

export interface MockIoOptions {
  /** Nano: 22 (D0-D13, A0-A7). */
  pinCount?: number;
  analogPins?: number[];
  pwmPins?: number[];
  /** Emit connect/ready on the next tick (default), or wait for connect(). */
  autoConnect?: boolean;
}

export class MockFirmataIO extends EventEmitter {
  // johnny-five treats an IO named "Mock" like Firmata (pin translation) but installs no SIGINT handler.
  readonly name = 'Mock';
  readonly MODES = MODES;
  readonly HIGH = 1;
  readonly LOW = 0;
  readonly RESOLUTION = { ADC: 1023, DAC: null, PWM: 255 };
  readonly defaultLed = 13;
  readonly pins: MockPin[];
  readonly analogPins: number[];
  isReady = false;
  pending = 0;
  /** Every output write, in order, for assertions. */
  readonly writes: Array<{ pin: number; value: number; kind: 'digital' | 'analog' }> = [];
  private readonly readers = new Map<number, Array<(value: number) => void>>();

  constructor(options: MockIoOptions = {}) {
    super();
    const pinCount = options.pinCount ?? 22;
    this.analogPins = options.analogPins ?? [14, 15, 16, 17, 18, 19, 20, 21];
    const pwm = options.pwmPins ?? [3, 5, 6, 9, 10, 11];
    this.pins = Array.from({ length: pinCount }, (_, pin) => {
      const channel = this.analogPins.indexOf(pin);
      const modes: number[] = [MODES.INPUT, MODES.OUTPUT, MODES.PULLUP];
      if (pwm.includes(pin)) modes.push(MODES.PWM);
      if (channel >= 0) modes.push(MODES.ANALOG);
      return {
        supportedModes: modes,
        analogChannel: channel >= 0 ? channel : 127,
        mode: undefined,
        value: 0,
        report: 0,
      };
    });
    if (options.autoConnect !== false) setImmediate(() => this.connect());
  }

  connect(): void {
    if (this.isReady) return;
    this.isReady = true;
    this.emit('connect');
    this.emit('ready');
  }

  /** The board went away (USB unplugged): what johnny-five hears from Firmata. */
  disconnect(): void {
    this.emit('close');
  }

  pinMode(pin: number, mode: number): this {
    this.pin(pin).mode = mode;
    return this;
  }

  digitalWrite(pin: number, value: number): this {
    const state = this.pin(pin);
    state.value = value ? 1 : 0;
    // Writing HIGH to an input enables its pull-up, as on an AVR: no write to record.
    if (state.mode !== MODES.INPUT) this.writes.push({ pin, value: state.value, kind: 'digital' });
    return this;
  }

  analogWrite(pin: number, value: number): this {
    this.pin(pin).value = value;
    this.writes.push({ pin, value, kind: 'analog' });
    return this;
  }

  pwmWrite(pin: number, value: number): this {
    return this.analogWrite(pin, value);
  }

  digitalRead(pin: number, callback: (value: number) => void): this {
    this.pin(pin).report = 1;
    const list = this.readers.get(pin) ?? [];
    list.push(callback);
    this.readers.set(pin, list);
    return this;
  }

  analogRead(_pin: number, _callback: (value: number) => void): this {
    return this;
  }

  reportDigitalPin(pin: number, value: number): this {
    this.pin(pin).report = value;
    return this;
  }

  setSamplingInterval(_ms: number): this {
    return this;
  }

  queryPinState(pin: number, callback: () => void): this {
    void pin;
    setImmediate(callback);
    return this;
  }

  /** Drive an input pin, as the button's contact would; digitalRead listeners hear it. */
  setInput(pin: number, value: 0 | 1): void {
    this.pin(pin).value = value;
    for (const callback of this.readers.get(pin) ?? []) callback(value);
  }

  /** An output's level: 0 or 1 (an analog write counts as 1 when above 0). */
  level(pin: number): 0 | 1 {
    return this.pin(pin).value > 0 ? 1 : 0;
  }

  private pin(pin: number): MockPin {
    const state = this.pins[pin];
    if (!state) throw new RangeError(`mock IO: no pin ${pin} (0-${this.pins.length - 1})`);
    return state;
  }
}
