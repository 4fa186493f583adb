import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DaemonEvents } from '../../../firmware-host/daemon/bus.ts';
import { DealerConsoleExtension } from '../../../firmware-host/daemon/extensions/dealer-console.ts';
import type { ExtensionContext } from '../../../firmware-host/daemon/extensions/extension.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { logger } from '../../../firmware-host/log.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { MockFirmataIO } from '../../../hardware/console/mock-io.ts';
import { defaultPinMap } from '../../../hardware/console/pin-map.ts';

const PINS = defaultPinMap();
const stops: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function startedConsole() {
  const io = new MockFirmataIO();
  const bus = new EventEmitter<DaemonEvents>();
  const ingested: TableLogRecord[] = [];
  const table = {
    // A card table: its plug-in says what the buttons make and which step the lights show.
    ruleset: 'tdc-baccarat-no-commission',
    ingest: async (record: TableLogRecord) => {
      ingested.push(record);
      return [];
    },
    expecting: () => ({ kind: 'card', to: 'player', face: 'up', text: 'a card to the player' }),
  };
  const context = {
    config: { console: { transport: 'serial:/dev/null' } },
    bus,
    table,
    log: logger('test'),
  } as unknown as ExtensionContext;
  const extension = new DealerConsoleExtension({ io });
  await extension.start(context);
  stops.push(() => extension.stop());
  for (const { pin } of Object.values(PINS.buttons)) io.setInput(pin, 1);
  return { io, bus, ingested, extension };
}

const eventRecords = (...events: unknown[]): JournalRecord[] =>
  events.map(
    (data, index) => ({ seq: index + 1, kind: 'event', data }) as unknown as JournalRecord,
  );

describe('the dealer console extension', () => {
  it("journals a button's record through the table's ingest, as the console's", async () => {
    const { io, ingested } = await startedConsole();
    io.setInput(PINS.buttons.newRound.pin, 0);
    // fixed wait: emulated timing: the button is held past johnny-five's 7 ms debounce, which reads the wall clock
    await new Promise((resolve) => setTimeout(resolve, 100));
    io.setInput(PINS.buttons.newRound.pin, 1);
    await vi.waitFor(() => expect(ingested).toMatchObject([{ t: 'round', src: 'console' }]));
  });

  it("lights the next step after the bus's journaled events, and a fault for a device gone offline", async () => {
    const { io, bus } = await startedConsole();
    expect(io.level(PINS.lights.playerDraws.pin)).toBe(0);
    bus.emit(
      'journaled',
      eventRecords(
        { type: 'round_start', round: 1 },
        ...['player', 'banker', 'player', 'banker'].map((to) => ({ type: 'card', card: '2C', to })),
      ),
    );
    expect(io.level(PINS.lights.playerDraws.pin)).toBe(1);
    bus.emit('availability', 'shoe', 'offline', 'silent');
    expect(io.level(PINS.lights.deviceFault.pin)).toBe(1);
  });

  it('stops following the bus when stopped', async () => {
    const { bus, extension } = await startedConsole();
    expect(bus.listenerCount('journaled')).toBe(1);
    expect(bus.listenerCount('availability')).toBe(1);
    await extension.stop();
    expect(bus.listenerCount('journaled')).toBe(0);
    expect(bus.listenerCount('availability')).toBe(0);
  });
});
