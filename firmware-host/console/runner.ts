/**
 * Runs the dealer console: connects the board glue (hardware/console) to the
 * hosted logic (dealer-console.ts), stamps time at this I/O edge, hands the
 * records the dealer makes to the caller, and keeps the board connected: a
 * lost board is reopened with backoff and gets its lights back.
 */
import { ConsoleBoard, type ConsoleBoardOptions } from '../../hardware/console/board.ts';
import { defaultPinMap, loadPinMap, type PinMap } from '../../hardware/console/pin-map.ts';
import { reasonOf } from '../../hardware/errors.ts';
import { backoffDelay, parseLinkOptions } from '../../hardware/transports/reconnecting-link.ts';
import type { NextStep } from '../engine/types.ts';
import { logger } from '../log.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';
import { type ConsoleBehaviour, type ConsoleOutput, DealerConsoleLogic } from './dealer-console.ts';

export interface DealerConsoleOptions {
  /** Where the board is (console.transport in the config). */
  transport?: string;
  /** A pin map file; absent uses the built-in Nano map. */
  pins?: string;
  /** Tests: a ready-made IO (MockFirmataIO) instead of a transport. */
  io?: unknown;
  behaviour?: Partial<ConsoleBehaviour>;
  /** Every record the dealer's buttons make, stamped with `ts`. */
  onRecord: (record: TableLogRecord) => void;
  now?: () => number;
  tickMs?: number;
  readyTimeoutMs?: number;
}

const log = logger('console');

export class DealerConsole {
  readonly logic: DealerConsoleLogic;
  private board: ConsoleBoard | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt = 0;
  private stopped = false;
  private readonly now: () => number;

  private constructor(
    private readonly options: DealerConsoleOptions,
    private readonly pinMap: PinMap,
  ) {
    this.logic = new DealerConsoleLogic(options.behaviour);
    this.now = options.now ?? Date.now;
  }

  /** Opens the board (throws a HardwareError if the first open fails) and starts. */
  static async start(options: DealerConsoleOptions): Promise<DealerConsole> {
    const pinMap = options.pins ? await loadPinMap(options.pins) : defaultPinMap();
    const dealerConsole = new DealerConsole(options, pinMap);
    await dealerConsole.connect();
    dealerConsole.ticker = setInterval(
      () => dealerConsole.apply(dealerConsole.logic.tick(dealerConsole.now())),
      options.tickMs ?? 50,
    );
    return dealerConsole;
  }

  get connected(): boolean {
    return this.board !== undefined;
  }

  get currentBoard(): ConsoleBoard | undefined {
    return this.board;
  }

  event(event: DomainEvent): void {
    this.apply(this.logic.event(event));
  }

  nextStep(step: NextStep | undefined): void {
    this.apply(this.logic.nextStep(step));
  }

  deviceAvailability(device: string, available: boolean): void {
    this.apply(this.logic.deviceAvailability(device, available));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.ticker) clearInterval(this.ticker);
    if (this.retry) clearTimeout(this.retry);
    await this.board?.close();
    this.board = undefined;
  }

  private async connect(): Promise<void> {
    const boardOptions: ConsoleBoardOptions = { pinMap: this.pinMap };
    if (this.options.io) boardOptions.io = this.options.io;
    if (this.options.transport) boardOptions.transport = this.options.transport;
    if (this.options.readyTimeoutMs) boardOptions.readyTimeoutMs = this.options.readyTimeoutMs;
    const board = await ConsoleBoard.open(boardOptions);
    if (this.stopped) {
      await board.close();
      return;
    }
    this.board = board;
    this.attempt = 0;
    board.on('button', (name, edge) => {
      const now = this.now();
      this.apply(
        edge === 'down' ? this.logic.buttonDown(name, now) : this.logic.buttonUp(name, now),
      );
    });
    board.on('lost', (reason) => {
      log.warn({ reason }, 'dealer console lost; reconnecting');
      this.board = undefined;
      void board.close();
      this.scheduleReconnect();
    });
    board.setLights(this.logic.lights());
    log.info({ transport: this.options.transport ?? 'io' }, 'dealer console ready');
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.attempt++;
    const delay = backoffDelay(
      parseLinkOptions({ initialDelayMs: 500 }),
      this.attempt,
      Math.random(),
    );
    this.retry = setTimeout(() => {
      this.connect().catch((error: unknown) => {
        log.warn({ error: reasonOf(error), attempt: this.attempt }, 'dealer console reopen failed');
        this.scheduleReconnect();
      });
    }, delay);
  }

  private apply(output: ConsoleOutput): void {
    for (const record of output.records) this.options.onRecord(record);
    const board = this.board;
    if (!board) return;
    board.setLights(output.lights);
    for (const pattern of output.buzz) board.buzz(pattern);
  }
}
