/**
 * The web console as an extension: it gets the console's narrow port
 * (web/port.ts), built here from the table's port and the bus, never the
 * daemon itself. Off unless the config has a `web` section.
 */
import { logger } from '../../log.ts';
import type { ConsoleEvents, ConsolePort } from '../../web/port.ts';
import type { WebConsole } from '../../web/server.ts';
import type { DaemonEvents } from '../bus.ts';
import type { Extension, ExtensionContext } from './extension.ts';

export class WebConsoleExtension implements Extension {
  readonly name = 'web-console';
  private web: WebConsole | undefined;

  /** Where the web console listens (http(s)://host:port), when it is on. */
  get url(): string | undefined {
    return this.web?.url;
  }

  /** The one-time supervisor login link, on a simulated bench only. */
  get loginLink(): string | undefined {
    return this.web?.loginLink;
  }

  async start(context: ExtensionContext): Promise<void> {
    const settings = context.config.web;
    if (!settings) return;
    const { WebConsole } = await import('../../web/server.ts');
    this.web = await WebConsole.start({
      table: consolePortOf(context),
      config: settings,
      log: logger('web'),
    });
  }

  async stop(): Promise<void> {
    await this.web?.stop();
    this.web = undefined;
  }
}

/** The console's port: the table's reads and doors, its devices and journal folder, the bus's events. */
export function consolePortOf({ table, bus, config }: ExtensionContext): ConsolePort {
  return {
    get table() {
      return table.table;
    },
    get ruleset() {
      return table.ruleset;
    },
    get lastSeq() {
      return table.lastSeq;
    },
    get journalFeed() {
      return table.journalFeed;
    },
    get brokerAddress() {
      return table.brokerAddress;
    },
    get brokerConnected() {
      return table.brokerConnected;
    },
    journalDir: config.journal.dir,
    devices: config.devices,
    snapshot: () => table.snapshot(),
    published: () => table.published(),
    shoeStartSeq: () => table.shoeStartSeq(),
    deviceStatus: () => table.deviceStatus(),
    newShoe: (reason, src) => table.newShoe(reason, src),
    ingest: (record, options) => table.ingest(record, options),
    setRuleset: (name, src) => table.setRuleset(name, src),
    subscribe: <E extends keyof ConsoleEvents>(
      event: E,
      listener: (...args: ConsoleEvents[E]) => void,
    ) => {
      // The console's events are the bus's of the same name, with the same arguments.
      const onBus = listener as unknown as (...args: DaemonEvents[E]) => void;
      bus.on(event, onBus as never);
      return () => {
        bus.off(event, onBus as never);
      };
    },
  };
}
