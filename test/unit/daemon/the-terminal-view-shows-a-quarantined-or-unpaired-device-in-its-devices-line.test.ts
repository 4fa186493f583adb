/**
 * The technician at the table reads the devices line of `tableside run`: a
 * device that is connected but refused (quarantined, or unpaired on a real
 * line) must not look like a working one, and an unpaired device dealing on
 * a bench says so. A quarantine comes and goes with no availability change,
 * so the view reads it from the daemon's device status at each redraw.
 */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { renderView, TerminalView, type ViewModel } from '../../../firmware-host/daemon/view.ts';
import { UNPAIRED_QUARANTINE } from '../../../firmware-host/drivers/driver.ts';

const UNPAIRED = `${UNPAIRED_QUARANTINE}the table holds no key for it (pair it: tableside device pair shoe; on a bench only: devices.shoe.unpaired: allow)`;

function devicesLines(devices: ViewModel['devices']): string[] {
  const lines = renderView({
    table: 't1',
    ruleset: 'tdc-baccarat-no-commission',
    broker: { url: 'mqtt://127.0.0.1:1883', connected: true, detail: '' },
    devices,
    snapshot: {},
    expecting: '',
    lastSeq: 0,
    recentCards: [],
    results: [],
    alarms: [],
    notices: [],
    subscribe: '',
  });
  const start = lines.indexOf('devices') + 1;
  return lines.slice(start, start + Object.keys(devices).length);
}

describe('the devices line of the terminal view', () => {
  it('shows a device refused for want of a pairing, and one quarantined, as refused', () => {
    const [shoe, shuffler, reader] = devicesLines({
      shoe: { availability: 'online', reason: 'HELLO', quarantined: UNPAIRED },
      shuffler: {
        availability: 'online',
        reason: 'HELLO',
        quarantined: 'authentication failed (not authenticating: 16 frames in a row failed)',
      },
      reader: { availability: 'online', reason: 'HELLO' },
    });
    expect(shoe).toBe(
      '  ✕ shoe       UNPAIRED, REFUSED: the table holds no key for it (pair it: tableside device pair shoe; on a bench only: devices.shoe.unpaired: allow)',
    );
    expect(shuffler).toBe(
      '  ✕ shuffler   QUARANTINED: authentication failed (not authenticating: 16 frames in a row failed)',
    );
    expect(reader).toBe('  ● reader     online (HELLO)');
  });

  it('says an unpaired device dealing on a bench is not authenticated', () => {
    const [shoe] = devicesLines({ shoe: { availability: 'online', reason: 'HELLO', bench: true } });
    expect(shoe).toBe(
      '  ● shoe       online (HELLO) · unpaired: its cards are not authenticated (a bench)',
    );
  });

  it('reads the quarantine from the daemon at each redraw, and its end', () => {
    let quarantined: string | undefined = UNPAIRED;
    const daemon = Object.assign(new EventEmitter(), {
      config: {
        table: 't1',
        devices: {
          shoe: { transport: 'serial:///dev/ttyUSB0' },
          bench: { transport: 'serial:///dev/ttyUSB1', unpaired: 'allow' },
        },
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
          availability: 'online',
          link: 'open',
          ...(quarantined === undefined ? {} : { quarantined }),
        },
        { name: 'bench', availability: 'online', link: 'open' },
      ],
      snapshot: () => ({}),
      expecting: () => ({ text: '' }),
    });
    const writes: string[] = [];
    const view = new TerminalView({
      daemon: daemon as unknown as TableDaemon,
      out: { write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
      live: false,
    });
    view.start();
    expect(writes.join('')).toContain('✕ shoe       UNPAIRED, REFUSED: the table holds no key');
    expect(writes.join('')).toContain(
      '● bench      online (open) · unpaired: its cards are not authenticated (a bench)',
    );
    view.stop();

    // The same view, live: the next redraw shows the quarantine gone.
    const live: string[] = [];
    const redrawn = new TerminalView({
      daemon: daemon as unknown as TableDaemon,
      out: { write: (text: string) => live.push(text) } as unknown as NodeJS.WriteStream,
      live: true,
    });
    redrawn.start();
    expect(live.join('')).toContain('✕ shoe');
    // The quarantine ends with an alarm, journaled, and no availability change.
    quarantined = undefined;
    daemon.emit('journaled', [
      {
        seq: 7,
        ts: 0,
        kind: 'event',
        data: { type: 'alarm', kind: 'device_requalified', message: 'shoe proved its key' },
      },
    ]);
    redrawn.stop();
    const last = live.filter((text) => text.includes('devices')).at(-1)!;
    expect(last).toContain('● shoe       online (open)');
    expect(last).toContain('! device_requalified: shoe proved its key');
    expect(last).not.toContain('✕ shoe');
  });
});
