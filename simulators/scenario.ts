/**
 * Scenario files: a session scripted card by card, in YAML or JSON. The
 * format is documented in docs/technician/scenarios.md; this module parses and validates it,
 * naming the step and field that is wrong.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import {
  type BackColour,
  type CardCode,
  type Face,
  parseBackColour,
  parseCard,
  parseCards,
  parseFace,
} from '../device-protocol/cards.ts';
import { isProtocolError } from '../device-protocol/errors.ts';
import { checkBehaviourSpec, parseBehaviourSpec } from './behaviours.ts';
import { SimulatorError } from './errors.ts';
import { DEVICE_KINDS, type DeviceIdentity, type DeviceKind } from './steps.ts';

/** One scripted step, normalised. */
export type ScriptStep =
  | { op: 'shuffle'; decks?: number; backs?: BackColour[]; order?: CardCode[]; stacked?: boolean }
  /** `round`: the cards one legal round of the ruleset takes from the shoe (legal-round.ts). */
  | { op: 'deal'; count: number | 'rest' | 'round' }
  | { op: 'card'; card: CardCode; back?: BackColour; face: Face; uid?: string }
  | { op: 'cut' }
  | { op: 'joker' }
  | { op: 'jam'; ms: number }
  | { op: 'lid'; open: boolean }
  | { op: 'door'; open: boolean }
  | { op: 'pause'; ms: number }
  | { op: 'silence'; ms: number }
  | { op: 'tag'; uid: string }
  | { op: 'behaviour'; name: string; on: boolean; arg?: string };

export interface Scenario {
  name?: string;
  description?: string;
  device?: DeviceKind;
  ruleset?: string;
  seed?: number;
  /** Cards per second. */
  rate?: number;
  identity?: Partial<DeviceIdentity>;
  /** Behaviours switched on from the start: `NAME` or `NAME=ARG`. */
  on: string[];
  /** Behaviours switched off from the start (features such as `report-order`). */
  off: string[];
  /** Absent: the default session (a whole shoe, or eight rounds of single decks). */
  steps?: ScriptStep[];
}

const TAG_UID = /^[0-9A-F]{8,20}$/;

const topLevel = z
  .object({
    name: z.string().max(200).optional(),
    description: z.string().max(2000).optional(),
    device: z.enum(DEVICE_KINDS as [DeviceKind, ...DeviceKind[]]).optional(),
    ruleset: z.string().min(1).max(64).optional(),
    seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
    rate: z.number().positive().max(1000).optional(),
    identity: z
      .object({
        model: z.string().min(1).max(32).optional(),
        serial: z.string().min(1).max(32).optional(),
        protocolVersion: z.string().min(1).max(16).optional(),
        firmwareVersion: z.string().min(1).max(32).optional(),
        firmwareSha256: z
          .string()
          .regex(/^[0-9a-fA-F]{64}$/, 'expected 64 hex digits')
          .optional(),
      })
      .strict()
      .optional(),
    on: z.array(z.string().min(1)).default([]),
    off: z.array(z.string().min(1)).default([]),
    steps: z.array(z.unknown()).optional(),
  })
  .strict();

function stepError(index: number, message: string): SimulatorError {
  return new SimulatorError('bad_scenario', `steps[${index}]: ${message}`);
}

function milliseconds(index: number, key: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 3_600_000) {
    throw stepError(index, `${key}: expected milliseconds, a whole number 0-3600000`);
  }
  return value;
}

function openClosed(index: number, key: string, value: unknown): boolean {
  if (value === 'open' || value === 'closed') return value === 'open';
  throw stepError(index, `${key}: expected open or closed`);
}

function withProtocolErrors<T>(index: number, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (isProtocolError(error)) throw stepError(index, error.message);
    throw error;
  }
}

const BARE_STEPS = ['shuffle', 'cut', 'joker', 'deal', 'jam'] as const;

function parseStep(raw: unknown, index: number): ScriptStep {
  if (typeof raw === 'string') {
    switch (raw) {
      case 'shuffle':
        return { op: 'shuffle' };
      case 'cut':
        return { op: 'cut' };
      case 'joker':
        return { op: 'joker' };
      case 'deal':
        return { op: 'deal', count: 'rest' };
      case 'jam':
        return { op: 'jam', ms: 2000 };
      default:
        throw stepError(
          index,
          `unknown step ${JSON.stringify(raw)}: a bare step is one of ${BARE_STEPS.join(', ')}`,
        );
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw stepError(index, 'expected a step name or an object with one key');
  }
  const entries = Object.entries(raw);
  if (entries.length !== 1) {
    throw stepError(index, `expected one key per step, got ${entries.length}`);
  }
  const [key, value] = entries[0]!;
  return withProtocolErrors(index, (): ScriptStep => {
    switch (key) {
      case 'shuffle': {
        if (value === null || value === true) return { op: 'shuffle' };
        if (typeof value !== 'object' || Array.isArray(value)) {
          throw stepError(index, 'shuffle: expected { decks, backs, order, stacked } or nothing');
        }
        const spec = value as Record<string, unknown>;
        const unknownKeys = Object.keys(spec).filter(
          (name) => !['decks', 'backs', 'order', 'stacked'].includes(name),
        );
        if (unknownKeys.length > 0) {
          throw stepError(index, `shuffle: unknown field ${unknownKeys[0]}`);
        }
        const step: ScriptStep & { op: 'shuffle' } = { op: 'shuffle' };
        if (spec.decks !== undefined) {
          if (typeof spec.decks !== 'number' || !Number.isInteger(spec.decks) || spec.decks < 1) {
            throw stepError(index, 'shuffle.decks: expected a whole number 1-16');
          }
          step.decks = spec.decks;
        }
        if (spec.backs !== undefined) {
          if (!Array.isArray(spec.backs) || spec.backs.length === 0) {
            throw stepError(index, 'shuffle.backs: expected a list of back colours');
          }
          step.backs = spec.backs.map((back) => parseBackColour(String(back)));
        }
        if (spec.order !== undefined) {
          step.order = Array.isArray(spec.order)
            ? spec.order.map((card) => parseCard(String(card).toUpperCase()))
            : parseCards(String(spec.order));
        }
        if (spec.stacked !== undefined) step.stacked = spec.stacked === true;
        return step;
      }
      case 'deal':
        if (value === 'rest' || value === 'round') return { op: 'deal', count: value };
        if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
          return { op: 'deal', count: value };
        }
        throw stepError(index, 'deal: expected a number of cards, rest or round');
      case 'card': {
        if (typeof value === 'string') {
          return { op: 'card', card: parseCard(value.toUpperCase()), face: 'down' };
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          throw stepError(index, 'card: expected a card code (AS) or { card, back, face, uid }');
        }
        const spec = value as Record<string, unknown>;
        const step: ScriptStep & { op: 'card' } = {
          op: 'card',
          card: parseCard(String(spec.card ?? '').toUpperCase()),
          face: spec.face === undefined ? 'down' : parseFace(String(spec.face)),
        };
        if (spec.back !== undefined) step.back = parseBackColour(String(spec.back));
        if (spec.uid !== undefined) {
          const uid = String(spec.uid).toUpperCase();
          if (!TAG_UID.test(uid)) throw stepError(index, 'card.uid: expected 8-20 hex digits');
          step.uid = uid;
        }
        return step;
      }
      case 'jam':
        return { op: 'jam', ms: milliseconds(index, 'jam', value) };
      case 'lid':
        return { op: 'lid', open: openClosed(index, 'lid', value) };
      case 'door':
        return { op: 'door', open: openClosed(index, 'door', value) };
      case 'pause':
        return { op: 'pause', ms: milliseconds(index, 'pause', value) };
      case 'silence':
        return { op: 'silence', ms: milliseconds(index, 'silence', value) };
      case 'tag': {
        const uid = String(value).toUpperCase();
        if (!TAG_UID.test(uid)) throw stepError(index, 'tag: expected a UID of 8-20 hex digits');
        return { op: 'tag', uid };
      }
      case 'on':
      case 'fault': {
        try {
          const { name, arg } = checkBehaviourSpec(String(value));
          return arg === undefined
            ? { op: 'behaviour', name, on: true }
            : { op: 'behaviour', name, on: true, arg };
        } catch (error) {
          throw stepError(index, (error as Error).message);
        }
      }
      case 'off': {
        try {
          return { op: 'behaviour', name: parseBehaviourSpec(String(value)).name, on: false };
        } catch (error) {
          throw stepError(index, (error as Error).message);
        }
      }
      default:
        throw stepError(
          index,
          `unknown step ${JSON.stringify(key)}: expected shuffle, deal, card, cut, joker, jam, lid, door, pause, silence, tag, on (fault), off`,
        );
    }
  });
}

/** Validates an already parsed scenario document. */
export function parseScenario(document: unknown): Scenario {
  const result = topLevel.safeParse(document ?? {});
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const path = issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new SimulatorError('bad_scenario', `${path}: ${issue.message}`);
  }
  const data = result.data;
  for (const [index, spec] of [...data.on, ...data.off].entries()) {
    try {
      if (index < data.on.length) checkBehaviourSpec(spec);
      else parseBehaviourSpec(spec);
    } catch (error) {
      throw new SimulatorError('bad_scenario', `on/off: ${(error as Error).message}`);
    }
  }
  const scenario: Scenario = { on: data.on, off: data.off };
  if (data.name !== undefined) scenario.name = data.name;
  if (data.description !== undefined) scenario.description = data.description;
  if (data.device !== undefined) scenario.device = data.device;
  if (data.ruleset !== undefined) scenario.ruleset = data.ruleset;
  if (data.seed !== undefined) scenario.seed = data.seed;
  if (data.rate !== undefined) scenario.rate = data.rate;
  if (data.identity !== undefined) {
    const identity: Partial<DeviceIdentity> = {};
    for (const [key, value] of Object.entries(data.identity)) {
      if (value !== undefined) identity[key as keyof DeviceIdentity] = value;
    }
    scenario.identity = identity;
  }
  if (data.steps !== undefined) scenario.steps = data.steps.map(parseStep);
  return scenario;
}

/** Parses scenario text: YAML (JSON is YAML too). */
export function parseScenarioText(text: string, where = 'scenario'): Scenario {
  let document: unknown;
  try {
    document = parseYaml(text);
  } catch (error) {
    throw new SimulatorError(
      'bad_scenario',
      `${where}: not YAML or JSON: ${(error as Error).message}`,
    );
  }
  try {
    return parseScenario(document);
  } catch (error) {
    if (error instanceof SimulatorError) {
      throw new SimulatorError('bad_scenario', `${where}: ${error.message}`);
    }
    throw error;
  }
}

export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new SimulatorError(
      'bad_scenario',
      `cannot read scenario ${path}: ${(error as Error).message}`,
    );
  }
  return parseScenarioText(text, path);
}
