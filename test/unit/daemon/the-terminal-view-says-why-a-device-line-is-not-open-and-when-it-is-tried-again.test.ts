/**
 * Issue 34 item 1: a shoe configured on a path that does not exist showed
 * only "○ shoe offline (opening)". The view now says why the line is not open
 * (the OS's error, with the path) and when it is tried again: from the
 * daemon's device status at start, and from each of the line's changes on
 * the bus after; line mode prints it when the reason changes, not at every
 * retry.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { DeviceLineChange } from '../../../firmware-host/daemon/bus.ts';
import type { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { describeLineWait, TerminalView } from '../../../firmware-host/daemon/view.ts';

const ABSENT =
  'open failed: serial /dev/ttyUSB9: Error: No such file or directory, cannot open /dev/ttyUSB9 (no such device: unplugged, or a udev rule not loaded?)';

function fakeDaemon() {
  return Object.assign(new EventEmitter(), {
    config: {
      table: 't1',
      devices: { shoe: { transport: 'serial:///dev/ttyUSB9' } },
      mqtt: { baseTopic: 'tableside' },
    },
    table: 't1',
    ruleset: 'tdc-baccarat-no-commission',
    brokerAddress: 'mqtt://127.0.0.1:1883',
    brokerConnected: true,
    webAddress: undefined,
    lastSeq: 0,
    deviceStatus: () => [
      {
        name: 'shoe',
        availability: 'offline',
        link: 'reopening',
        url: 'serial:///dev/ttyUSB9',
        line: {
          reason: ABSENT,
          attempt: 3,
          nextTryInMs: 1_200,
          unreachableForMs: 2_000,
          alarmed: false,
        },
      },
    ],
    snapshot: () => ({}),
    expecting: () => ({ text: '' }),
  });
}

function reopening(reason: string, attempt: number, delayMs: number): DeviceLineChange {
  return { state: 'reopening', reason, attempt, delayMs, url: 'serial:///dev/ttyUSB9' };
}

describe('the terminal view of a device whose line is not open', () => {
  it('names the reason with its path and the next try, adding the address when the reason lacks it', () => {
    expect(describeLineWait(reopening(ABSENT, 4, 1_498))).toBe(
      `${ABSENT}; next try in 1.5 s (attempt 4)`,
    );
    expect(describeLineWait(reopening('cable pulled', 1, 180))).toBe(
      'serial:///dev/ttyUSB9: cable pulled; next try in 180 ms (attempt 1)',
    );
    expect(
      describeLineWait({ ...reopening('bad options', 0, 0), state: 'failed', delayMs: undefined }),
    ).toBe('given up: serial:///dev/ttyUSB9: bad options');
    expect(describeLineWait({ ...reopening(ABSENT, 0, 0), state: 'opening' })).toBeUndefined();
  });

  it('shows it from the start, and line mode prints each new reason once, not every retry', () => {
    const daemon = fakeDaemon();
    const writes: string[] = [];
    const view = new TerminalView({
      daemon: daemon as unknown as TableDaemon,
      out: { write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
      live: false,
    });
    view.start();
    expect(writes.join('')).toContain(
      `○ shoe       offline (${ABSENT}; next try in 1.2 s (attempt 3))`,
    );
    writes.length = 0;
    daemon.emit('deviceLine', 'shoe', reopening(ABSENT, 4, 1_498));
    daemon.emit('deviceLine', 'shoe', { ...reopening(ABSENT, 4, 0), state: 'opening' });
    daemon.emit('deviceLine', 'shoe', reopening(ABSENT, 5, 1_498));
    expect(writes).toEqual([
      `device shoe line not open: ${ABSENT}; next try in 1.5 s (attempt 4)\n`,
    ]);
    daemon.emit('deviceLine', 'shoe', reopening('open failed: permission denied', 6, 1_498));
    expect(writes).toHaveLength(2);
    expect(writes[1]).toContain('permission denied');
    // Open again: the next outage's reason is printed even if it is the same as before.
    daemon.emit('deviceLine', 'shoe', { ...reopening('opened', 0, 0), state: 'open' });
    daemon.emit('deviceLine', 'shoe', reopening('open failed: permission denied', 1, 200));
    expect(writes).toHaveLength(3);
    view.stop();
  });

  it('redraws the live view with the latest reason and next try', () => {
    const daemon = fakeDaemon();
    const live: string[] = [];
    const view = new TerminalView({
      daemon: daemon as unknown as TableDaemon,
      out: { write: (text: string) => live.push(text) } as unknown as NodeJS.WriteStream,
      live: true,
    });
    view.start();
    daemon.emit('deviceLine', 'shoe', reopening(ABSENT, 9, 1_498));
    view.stop();
    const last = live.filter((text) => text.includes('devices')).at(-1)!;
    expect(last).toContain(`○ shoe       offline (${ABSENT}; next try in 1.5 s (attempt 9))`);
  });
});
