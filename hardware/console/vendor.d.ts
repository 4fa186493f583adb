/**
 * The slice of johnny-five and firmata-io we use (neither ships types).
 * Kept minimal on purpose: anything used beyond this must be added here.
 */
declare module 'johnny-five' {
  import type { EventEmitter } from 'node:events';

  export interface BoardOptions {
    io: unknown;
    repl?: boolean;
    debug?: boolean;
    sigint?: boolean;
    timeout?: number;
  }
  export class Board extends EventEmitter {
    constructor(options: BoardOptions);
    readonly isReady: boolean;
    readonly io: unknown;
  }
  export interface ButtonOptions {
    pin: number | string;
    board: Board;
    isPullup?: boolean;
    invert?: boolean;
    holdtime?: number;
  }
  export class Button extends EventEmitter {
    constructor(options: ButtonOptions);
    readonly isDown: boolean;
  }
  export interface LedOptions {
    pin: number | string;
    board: Board;
  }
  export class Led {
    constructor(options: LedOptions);
    on(): this;
    off(): this;
    stop(): this;
    readonly isOn: boolean;
  }
  const five: { Board: typeof Board; Button: typeof Button; Led: typeof Led };
  export default five;
}

declare module 'firmata-io' {
  import type { EventEmitter } from 'node:events';

  /** Anything with serialport's event surface and write(data, callback). */
  export interface FirmataTransport extends EventEmitter {
    write(data: Buffer, callback?: (error?: Error | null) => void): unknown;
  }
  export class Firmata extends EventEmitter {
    constructor(transport: FirmataTransport, options?: { reportVersionTimeout?: number });
    readonly isReady: boolean;
  }
  const bindTransport: { (transport: unknown): typeof Firmata; Firmata: typeof Firmata };
  export default bindTransport;
}
