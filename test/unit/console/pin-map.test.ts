import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultPinMap, loadPinMap, parsePinMap } from '../../../hardware/console/pin-map.ts';
import { isHardwareError } from '../../../hardware/errors.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

function nano(overrides: Record<string, unknown> = {}) {
  return {
    board: 'nano',
    buttons: { newRound: { pin: 2 }, voidHand: { pin: 3 }, confirm: { pin: 'D4' } },
    lights: {
      playerDraws: { pin: 5 },
      bankerDraws: { pin: 6 },
      lastHand: { pin: 7 },
      alarm: { pin: 8 },
      deviceFault: { pin: 'A0' },
    },
    buzzer: { pin: 10 },
    ...overrides,
  };
}

function problem(input: unknown): string {
  try {
    parsePinMap(input, 'test map');
  } catch (error) {
    expect(isHardwareError(error) && error.code).toBe('bad_pin_map');
    return (error as Error).message;
  }
  throw new Error('expected the pin map to be refused');
}

describe('dealer console pin maps', () => {
  it('accepts the built-in Nano map', () => {
    const map = defaultPinMap();
    expect(map.buttons.voidHand).toEqual({ pin: 3, pullup: true });
    expect(map.lights.deviceFault).toEqual({ pin: 9, activeLow: false });
    expect(map.buzzer?.pin).toBe(10);
  });

  it('resolves D and A pin names to Firmata pin numbers', () => {
    const map = parsePinMap(nano());
    expect(map.buttons.confirm.pin).toBe(4);
    expect(map.lights.deviceFault.pin).toBe(14);
  });

  it('refuses a pin used twice, naming both users', () => {
    const message = problem(nano({ buzzer: { pin: 3 } }));
    expect(message).toBe('test map: buzzer: pin 3 is already used by buttons.voidHand');
  });

  it('refuses pins outside the board, the serial pins and analog-only pins', () => {
    const message = problem(
      nano({
        buttons: { newRound: { pin: 0 }, voidHand: { pin: 'A7' }, confirm: { pin: 40 } },
      }),
    );
    expect(message).toContain('buttons.newRound: pin 0 is the serial line Firmata runs on');
    expect(message).toContain('buttons.voidHand: pin A7 is analog input only on a nano');
    expect(message).toContain('buttons.confirm: pin 40 is out of range for a nano (2-19)');
    expect(
      problem({ ...nano(), board: 'uno', lights: { ...nano().lights, alarm: { pin: 'A6' } } }),
    ).toContain('lights.alarm: A6 does not exist on a uno (A0-A5)');
  });

  it('names missing and unknown fields', () => {
    const { confirm: _, ...twoButtons } = nano().buttons;
    expect(problem(nano({ buttons: twoButtons }))).toContain('buttons.confirm');
    expect(problem(nano({ board: 'esp32' }))).toContain('board');
    expect(problem(nano({ leds: {} }))).toMatch(/leds/);
  });

  it('loads JSON and YAML files and reports unreadable ones', async () => {
    const dir = makeTempDir('tableside-pins-');
    writeFileSync(join(dir, 'map.json'), JSON.stringify(nano()));
    writeFileSync(
      join(dir, 'map.yaml'),
      'board: uno\nbuttons:\n  newRound: {pin: 2}\n  voidHand: {pin: 3}\n  confirm: {pin: 4}\nlights:\n  playerDraws: {pin: 5}\n  bankerDraws: {pin: 6}\n  lastHand: {pin: 7}\n  alarm: {pin: 8}\n  deviceFault: {pin: 9, activeLow: true}\n',
    );
    expect((await loadPinMap(join(dir, 'map.json'))).lights.deviceFault.pin).toBe(14);
    expect((await loadPinMap(join(dir, 'map.yaml'))).lights.deviceFault).toEqual({
      pin: 9,
      activeLow: true,
    });
    await expect(loadPinMap(join(dir, 'missing.json'))).rejects.toThrow(/cannot read/);
  });
});
