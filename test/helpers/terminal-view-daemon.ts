/**
 * What the terminal view reads of a daemon, for its unit tests: a table with
 * one simulated shoe and nothing in play, on whose bus a test emits, and a
 * view in line mode whose writes the test reads.
 */
import { EventEmitter } from 'node:events';
import type { TableDaemon } from '../../firmware-host/daemon/table-daemon.ts';
import { TerminalView, type TerminalViewOptions } from '../../firmware-host/daemon/view.ts';

export function fakeDaemon() {
  return Object.assign(new EventEmitter(), {
    config: {
      table: 't1',
      devices: { shoe: { transport: 'simulate' } },
      mqtt: { baseTopic: 'tableside' },
    },
    table: 't1',
    ruleset: 'tdc-baccarat-no-commission',
    brokerAddress: 'mqtt://127.0.0.1:1883',
    brokerConnected: true,
    webAddress: undefined,
    lastSeq: 0,
    deviceStatus: () => [],
    snapshot: () => ({}),
    expecting: () => ({ text: '' }),
  });
}

/** A line-mode view of `daemon`, started, and the texts it wrote. */
export function lineView(
  daemon: ReturnType<typeof fakeDaemon>,
  options: Pick<TerminalViewOptions, 'eventLines'> = {},
) {
  const writes: string[] = [];
  const view = new TerminalView({
    daemon: daemon as unknown as TableDaemon,
    out: { write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
    live: false,
    ...options,
  });
  view.start();
  return { view, writes };
}
