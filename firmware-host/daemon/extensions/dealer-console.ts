/**
 * The dealer console (buttons and lights): its buttons become table-log
 * records through the table's `ingest`, its lights follow the journaled
 * events, the engine's next step and the devices' availability on the bus.
 * What a button makes and which step the lights show are the table's game's
 * to say (its plug-in's `consolePress` and `consoleStep`).
 */
import { gameOf } from '../../games/registry.ts';
import type { JournalRecord } from '../../journal/record.ts';
import type { Logger } from '../../log.ts';
import type { DomainEvent } from '../../table/events.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

export class DealerConsoleExtension implements Extension {
  readonly name = 'dealer-console';
  private readonly teardown = new Teardown();
  private log: Logger | undefined;

  /** `board.io`: tests hand a ready-made Firmata IO instead of the config's transport. */
  constructor(private readonly board: { io?: unknown } = {}) {}

  async start({ config, bus, table, log }: ExtensionContext): Promise<void> {
    this.log = log;
    const settings = config.console;
    if (!settings) return;
    const { DealerConsole } = await import('../../console/runner.ts');
    const dealerConsole = await DealerConsole.start({
      transport: settings.transport,
      ...this.board,
      // The game in play now: a ruleset changed to another game's presses that game's records.
      behaviour: { press: (...press) => gameOf(table.ruleset).consolePress(...press) },
      ...(settings.pins ? { pins: settings.pins } : {}),
      onRecord: (record) => {
        table
          .ingest({ ...record, src: 'console' })
          .catch((error) =>
            bus.emit('notice', 'error', `console input not journaled: ${(error as Error).message}`),
          );
      },
    });
    const follow = (records: readonly JournalRecord[]) => {
      for (const record of records) {
        if (record.kind === 'event') dealerConsole.event(record.data as DomainEvent);
      }
      dealerConsole.nextStep(gameOf(table.ruleset).consoleStep(table.expecting()));
    };
    const availability = (device: string, state: 'online' | 'offline') =>
      dealerConsole.deviceAvailability(device, state === 'online');
    bus.on('journaled', follow);
    bus.on('availability', availability);
    this.teardown.add(async () => {
      bus.off('journaled', follow);
      bus.off('availability', availability);
      await dealerConsole.stop();
    });
  }

  async stop(): Promise<void> {
    if (this.log) await this.teardown.run(this.log);
  }
}
