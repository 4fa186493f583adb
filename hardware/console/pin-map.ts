/**
 * Dealer-console pin maps: which Arduino pin each button, light and the
 * buzzer is wired to. Data, not code (hardware/console/pin-maps/*.json), so a
 * technician rewiring a console edits JSON; validated here so a typo fails at
 * start with the offending field named, not as a dark LED at the table.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { HardwareError } from '../errors.ts';
import nanoDefaultPinMap from './pin-maps/nano-default.json' with { type: 'json' };

import { BUTTON_NAMES, type ButtonName, LIGHT_NAMES, type LightName } from './types.ts';

/**
 * Pins usable for digital I/O with StandardFirmata. D0/D1 are the serial
 * link Firmata itself runs on. Analog pins are numbered after the digital
 * ones (A0 = 14 on a Nano/Uno, 54 on a Mega); the Nano's A6/A7 are analog
 * input only, so they cannot drive a light or read a button digitally.
 */
export const BOARDS = {
  nano: { digital: range(2, 19), analogBase: 14, analogCount: 8, analogOnly: [20, 21] },
  uno: { digital: range(2, 19), analogBase: 14, analogCount: 6, analogOnly: [] },
  mega: { digital: range(2, 69), analogBase: 54, analogCount: 16, analogOnly: [] },
} as const;
export type BoardModel = keyof typeof BOARDS;

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** 7, "7", "D7" or "A0". */
const pinRef = z.union([
  z.number().int(),
  z.string().regex(/^(?:[AD]?\d{1,2})$/i, 'expected a pin such as 7, "D7" or "A0"'),
]);

const buttonSchema = z.strictObject({
  pin: pinRef,
  /** Wired pin-to-GND with the internal pull-up (the usual). false: an external pull-down, pressed = HIGH. */
  pullup: z.boolean().default(true),
});
const outputSchema = z.strictObject({
  pin: pinRef,
  /** The output is on when the pin is LOW (e.g. an LED wired from +5 V to the pin). */
  activeLow: z.boolean().default(false),
});

export const pinMapSchema = z.strictObject({
  $comment: z.string().optional(),
  board: z.enum(Object.keys(BOARDS) as [BoardModel, ...BoardModel[]]),
  buttons: z.strictObject({
    newRound: buttonSchema,
    voidHand: buttonSchema,
    confirm: buttonSchema,
  }),
  lights: z.strictObject({
    playerDraws: outputSchema,
    bankerDraws: outputSchema,
    lastHand: outputSchema,
    alarm: outputSchema,
    deviceFault: outputSchema,
  }),
  buzzer: outputSchema.optional(),
});

type RawPinMap = z.output<typeof pinMapSchema>;

export interface PinMap {
  board: BoardModel;
  buttons: Record<ButtonName, { pin: number; pullup: boolean }>;
  lights: Record<LightName, { pin: number; activeLow: boolean }>;
  buzzer?: { pin: number; activeLow: boolean };
}

/** A pin reference as a Firmata pin number, or why it is not one on this board. */
export function resolvePin(board: BoardModel, ref: number | string): number | string {
  const spec = BOARDS[board];
  let pin: number;
  if (typeof ref === 'number') pin = ref;
  else if (/^a/i.test(ref)) {
    const channel = Number(ref.slice(1));
    if (channel >= spec.analogCount)
      return `${ref} does not exist on a ${board} (A0-A${spec.analogCount - 1})`;
    pin = spec.analogBase + channel;
  } else pin = Number(ref.replace(/^d/i, ''));
  if ((spec.analogOnly as readonly number[]).includes(pin)) {
    return `pin ${ref} is analog input only on a ${board}; use D2-D13 or A0-A5`;
  }
  if (pin === 0 || pin === 1) return `pin ${ref} is the serial line Firmata runs on`;
  if (!(spec.digital as readonly number[]).includes(pin)) {
    return `pin ${ref} is out of range for a ${board} (${spec.digital[0]}-${spec.digital.at(-1)})`;
  }
  return pin;
}

/** Validates a pin map (parsed JSON); throws HardwareError('bad_pin_map') listing every problem. */
export function parsePinMap(input: unknown, source = 'pin map'): PinMap {
  const parsed = pinMapSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || '(top)'}: ${issue.message}`,
    );
    throw new HardwareError('bad_pin_map', `${source}: ${problems.join('; ')}`);
  }
  const raw: RawPinMap = parsed.data;
  const problems: string[] = [];
  const usedBy = new Map<number, string>();
  const take = (where: string, ref: number | string): number => {
    const resolved = resolvePin(raw.board, ref);
    if (typeof resolved === 'string') {
      problems.push(`${where}: ${resolved}`);
      return -1;
    }
    const other = usedBy.get(resolved);
    if (other) problems.push(`${where}: pin ${ref} is already used by ${other}`);
    else usedBy.set(resolved, where);
    return resolved;
  };
  const buttons = {} as PinMap['buttons'];
  for (const name of BUTTON_NAMES) {
    const button = raw.buttons[name];
    buttons[name] = { pin: take(`buttons.${name}`, button.pin), pullup: button.pullup };
  }
  const lights = {} as PinMap['lights'];
  for (const name of LIGHT_NAMES) {
    const light = raw.lights[name];
    lights[name] = { pin: take(`lights.${name}`, light.pin), activeLow: light.activeLow };
  }
  const map: PinMap = { board: raw.board, buttons, lights };
  if (raw.buzzer)
    map.buzzer = { pin: take('buzzer', raw.buzzer.pin), activeLow: raw.buzzer.activeLow };
  if (problems.length > 0) {
    throw new HardwareError('bad_pin_map', `${source}: ${problems.join('; ')}`);
  }
  return map;
}

/** The built-in map for an Arduino Nano (pin-maps/nano-default.json). */
export function defaultPinMap(): PinMap {
  return parsePinMap(nanoDefaultPinMap, 'built-in pin map nano-default.json');
}

/** Reads and validates a pin map file (JSON, or YAML by its .yaml/.yml extension). */
export async function loadPinMap(path: string): Promise<PinMap> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HardwareError(
      'bad_pin_map',
      `pin map ${path}: cannot read (${(error as Error).message})`,
    );
  }
  let json: unknown;
  const yaml = /\.ya?ml$/i.test(path);
  try {
    json = yaml ? (await import('yaml')).parse(text) : JSON.parse(text);
  } catch (error) {
    throw new HardwareError(
      'bad_pin_map',
      `pin map ${path}: not ${yaml ? 'YAML' : 'JSON'} (${(error as Error).message})`,
    );
  }
  return parsePinMap(json, `pin map ${path}`);
}
