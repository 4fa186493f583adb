import { afterEach, describe, expect, it, vi } from 'vitest';
import { DealerConsole } from '../../../firmware-host/console/runner.ts';
import { cardGames } from '../../../firmware-host/games/cards/plugin.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { MockFirmataIO } from '../../../hardware/console/mock-io.ts';
import { defaultPinMap } from '../../../hardware/console/pin-map.ts';

/** The built-in Nano map: buttons D2-D4 (to GND, pull-up), lights D5-D9, buzzer D10. */
const PINS = defaultPinMap();
const started: DealerConsole[] = [];

afterEach(async () => {
  await Promise.all(started.splice(0).map((c) => c.stop()));
});

async function bench(longPressMs = 200) {
  const io = new MockFirmataIO();
  const records: TableLogRecord[] = [];
  let clock = 10_000;
  const dealerConsole = await DealerConsole.start({
    io,
    onRecord: (record) => records.push(record),
    now: () => clock,
    behaviour: { debounceMs: 20, longPressMs, press: cardGames.consolePress },
    tickMs: 5,
  });
  started.push(dealerConsole);
  // Buttons idle HIGH (pull-up); johnny-five reports edges after its own 7 ms debounce.
  for (const { pin } of Object.values(PINS.buttons)) io.setInput(pin, 1);
  const hold = async (pin: number, ms: number) => {
    clock += 1000;
    io.setInput(pin, 0);
    // fixed wait: emulated timing: the button is held past johnny-five's 7 ms debounce, which reads the wall clock
    await new Promise((resolve) => setTimeout(resolve, 20));
    clock += ms;
    io.setInput(pin, 1);
    // fixed wait: emulated timing: the button is released past johnny-five's 7 ms debounce, which reads the wall clock
    await new Promise((resolve) => setTimeout(resolve, 20));
  };
  return { io, records, dealerConsole, hold };
}

describe('dealer console on johnny-five with a mock Firmata IO', () => {
  it('sets the buttons up as pulled-up inputs and starts with every light dark', async () => {
    const { io } = await bench();
    for (const { pin } of Object.values(PINS.buttons)) {
      expect(io.pins[pin]?.mode).toBe(io.MODES.INPUT);
    }
    for (const { pin } of Object.values(PINS.lights)) expect(io.level(pin)).toBe(0);
  });

  it('turns presses on the pins into table-log records', async () => {
    const { records, hold } = await bench();
    await hold(PINS.buttons.newRound.pin, 100);
    await vi.waitFor(() => expect(records).toMatchObject([{ t: 'round', src: 'console' }]));
    await hold(PINS.buttons.confirm.pin, 100);
    await vi.waitFor(() => expect(records.at(-1)).toMatchObject({ t: 'action', action: 'next' }));
    // A short press on void does nothing; a long one voids.
    await hold(PINS.buttons.voidHand.pin, 50);
    expect(records).toHaveLength(2);
    await hold(PINS.buttons.voidHand.pin, 400);
    await vi.waitFor(() => expect(records.at(-1)).toMatchObject({ t: 'void' }));
    expect(records).toHaveLength(3);
  });

  it('lights the pins the table events call for, and sounds the buzzer on an alarm', async () => {
    const { io, dealerConsole } = await bench();
    dealerConsole.event({ type: 'round_start', round: 1 });
    for (const to of ['player', 'banker', 'player', 'banker'] as const) {
      dealerConsole.event({ type: 'card', card: '2C', to });
    }
    dealerConsole.nextStep({ kind: 'card', to: 'player', face: 'up' });
    expect(io.level(PINS.lights.playerDraws.pin)).toBe(1);
    expect(io.level(PINS.lights.bankerDraws.pin)).toBe(0);

    dealerConsole.event({ type: 'last_hand', reason: 'cut card' });
    expect(io.level(PINS.lights.lastHand.pin)).toBe(1);

    dealerConsole.deviceAvailability('shoe', false);
    expect(io.level(PINS.lights.deviceFault.pin)).toBe(1);

    const buzzer = PINS.buzzer?.pin ?? -1;
    const before = io.writes.filter((w) => w.pin === buzzer).length;
    dealerConsole.event({ type: 'hand_voided', reason: 'face-up card', boxes: 'all' });
    expect(io.level(PINS.lights.alarm.pin)).toBe(1);
    expect(io.level(PINS.lights.playerDraws.pin)).toBe(0);
    await vi.waitFor(
      () => {
        const buzz = io.writes.filter((w) => w.pin === buzzer).slice(before);
        // The alarm pattern: on, off, on, off, on, then off.
        expect(buzz.map((w) => (w.value > 0 ? 1 : 0))).toEqual([1, 0, 1, 0, 1, 0]);
      },
      { timeout: 3000 },
    );
    // The alarm light blinks: it goes dark and lit again without a new event.
    await vi.waitFor(
      () => {
        const alarmWrites = io.writes.filter((w) => w.pin === PINS.lights.alarm.pin);
        expect(alarmWrites.length).toBeGreaterThanOrEqual(3);
      },
      { timeout: 3000 },
    );
  });

  it('gives the board its lights back after it is lost and reconnects', async () => {
    const io = new MockFirmataIO();
    const dealerConsole = await DealerConsole.start({ io, onRecord: () => undefined });
    started.push(dealerConsole);
    dealerConsole.event({ type: 'last_hand', reason: 'cut card' });
    io.disconnect();
    expect(dealerConsole.connected).toBe(false);
    // The same IO answers again (a real board: a new Firmata over the reopened port).
    await vi.waitFor(() => expect(dealerConsole.connected).toBe(true), { timeout: 3000 });
    expect(io.level(PINS.lights.lastHand.pin)).toBe(1);
  });
});
