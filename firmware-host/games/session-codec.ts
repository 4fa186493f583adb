/**
 * An exact, JSON-safe serialization of the table session, for the journal's
 * checkpoints: a restarted table seeds its session from the newest
 * checkpoint and replays only the inputs after it, so start time follows the
 * current shoe, not the table's history.
 *
 * Exact means `deserialize(serialize(state))` is indistinguishable from
 * `state` to the reducer: Maps and Sets keep their insertion order, keys
 * holding `undefined` stay present, values shared by reference (the anomaly
 * history lives in the session and in the shoe's detector) are written once
 * and shared again on reading. The engine states are opaque here: any plain
 * data (objects, arrays, Maps, Sets, primitives) goes through; anything else
 * (a function, a class instance) is refused when writing, never silently lost.
 *
 * Reading validates the shape of the session state against what session.ts
 * declares: a checkpoint written by a build whose state had another shape is
 * a TableError('bad_checkpoint'), and the caller replays from further back.
 *
 * Pure: no I/O, no clock.
 */
import { z } from 'zod';
import { TableError } from '../table/errors.ts';
import type { SessionConfig, SessionOptions, SessionState } from './cards/table/index.ts';

/**
 * Bump when SessionState (or a game engine's state) changes shape or
 * meaning: checkpoints of another format are skipped, and the table replays
 * from the journal's inputs instead (slower once, never wrong).
 */
export const SESSION_STATE_FORMAT = 1;

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface SerializedSessionState {
  readonly format: number;
  readonly state: Json;
}

/** A TableSession's whole content: the state, and what rebuilds its config. */
export interface SerializedTableSession extends SerializedSessionState {
  readonly ruleset: string;
  readonly options: Json;
}

// ------------------------------------------------------------- value codec

/** The tag key of an encoded special value; a plain object holding it is wrapped. */
const TAG = '$';

function bad(message: string): TableError {
  return new TableError('bad_checkpoint', message);
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Objects met more than once (shared by reference); a cycle is refused. */
function sharedObjects(root: unknown): Set<object> {
  const seen = new Set<object>();
  const shared = new Set<object>();
  const open = new Set<object>();
  const visit = (value: unknown, path: string): void => {
    if (value === null || typeof value !== 'object') return;
    if (open.has(value)) throw bad(`cannot serialise ${path}: it contains itself`);
    if (seen.has(value)) {
      shared.add(value);
      return;
    }
    seen.add(value);
    open.add(value);
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) visit(item, `${path}[${i}]`);
    } else if (value instanceof Map) {
      for (const [key, item] of value) {
        visit(key, `${path}<key>`);
        visit(item, `${path}.get(${String(key)})`);
      }
    } else if (value instanceof Set) {
      for (const item of value) visit(item, `${path}<item>`);
    } else if (isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
    }
    open.delete(value);
  };
  visit(root, '$');
  return shared;
}

/** Encodes plain data (objects, arrays, Maps, Sets, primitives, undefined) as JSON, exactly. */
export function encodeValue(root: unknown): Json {
  const shared = sharedObjects(root);
  const ids = new Map<object, number>();
  const encode = (value: unknown, path: string): Json => {
    switch (typeof value) {
      case 'undefined':
        return { [TAG]: 'undefined' };
      case 'boolean':
      case 'string':
        return value;
      case 'number':
        if (Number.isFinite(value) && !Object.is(value, -0)) return value;
        return { [TAG]: 'number', v: String(Object.is(value, -0) ? '-0' : value) };
      case 'object': {
        if (value === null) return null;
        const known = ids.get(value);
        if (known !== undefined) return { [TAG]: 'ref', id: known };
        let id: number | undefined;
        if (shared.has(value)) {
          id = ids.size;
          ids.set(value, id);
        }
        const withId = (tagged: { [key: string]: Json }): Json =>
          id === undefined ? tagged : { ...tagged, id };
        if (Array.isArray(value)) {
          const items: Json[] = [];
          for (let i = 0; i < value.length; i++) items.push(encode(value[i], `${path}[${i}]`));
          return id === undefined ? items : { [TAG]: 'array', id, v: items };
        }
        if (value instanceof Map) {
          return withId({
            [TAG]: 'map',
            v: [...value].map(
              ([key, item]): Json => [
                encode(key, `${path}<key>`),
                encode(item, `${path}.get(${String(key)})`),
              ],
            ),
          });
        }
        if (value instanceof Set) {
          return withId({
            [TAG]: 'set',
            v: [...value].map((item) => encode(item, `${path}<item>`)),
          });
        }
        if (isPlainObject(value)) {
          const fields: { [key: string]: Json } = {};
          for (const [key, item] of Object.entries(value)) {
            fields[key] = encode(item, `${path}.${key}`);
          }
          return id === undefined && !(TAG in fields)
            ? fields
            : withId({ [TAG]: 'object', v: fields });
        }
        throw bad(
          `cannot serialise ${path}: a ${value.constructor?.name ?? 'non-plain object'} is not plain data`,
        );
      }
      default:
        throw bad(`cannot serialise ${path}: a ${typeof value} is not plain data`);
    }
  };
  return encode(root, '$');
}

/** The inverse of `encodeValue`; a malformed encoding is a TableError naming where. */
export function decodeValue(root: unknown): unknown {
  const byId = new Map<number, unknown>();
  const decode = (value: unknown, path: string): unknown => {
    if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw bad(`${path}: not a JSON number`);
      return value;
    }
    if (Array.isArray(value)) return value.map((item, i) => decode(item, `${path}[${i}]`));
    if (typeof value !== 'object') throw bad(`${path}: a ${typeof value} is not JSON`);
    const record = value as Record<string, unknown>;
    if (!(TAG in record)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(record)) out[key] = decode(item, `${path}.${key}`);
      return out;
    }
    const tag = record[TAG];
    const id = record.id;
    if (
      id !== undefined &&
      (!Number.isSafeInteger(id) || (tag !== 'ref' && byId.has(id as number)))
    ) {
      throw bad(`${path}: bad or repeated id ${JSON.stringify(id)}`);
    }
    const register = <T>(made: T): T => {
      if (id !== undefined) byId.set(id as number, made);
      return made;
    };
    const items = (): unknown[] => {
      if (!Array.isArray(record.v)) throw bad(`${path}: a ${String(tag)} without its items`);
      return record.v;
    };
    switch (tag) {
      case 'undefined':
        return undefined;
      case 'number': {
        const text = record.v;
        if (text === '-0') return -0;
        if (text === 'NaN' || text === 'Infinity' || text === '-Infinity') return Number(text);
        throw bad(`${path}: ${JSON.stringify(text)} is not a special number`);
      }
      case 'ref': {
        if (!byId.has(id as number)) throw bad(`${path}: reference to unknown id ${String(id)}`);
        return byId.get(id as number);
      }
      case 'array': {
        const out = register([] as unknown[]);
        for (const [i, item] of items().entries()) out.push(decode(item, `${path}[${i}]`));
        return out;
      }
      case 'map': {
        const out = register(new Map<unknown, unknown>());
        for (const [i, entry] of items().entries()) {
          if (!Array.isArray(entry) || entry.length !== 2) {
            throw bad(`${path}: map entry ${i} is not a [key, value] pair`);
          }
          out.set(decode(entry[0], `${path}<key ${i}>`), decode(entry[1], `${path}<value ${i}>`));
        }
        return out;
      }
      case 'set': {
        const out = register(new Set<unknown>());
        for (const [i, item] of items().entries()) out.add(decode(item, `${path}<item ${i}>`));
        return out;
      }
      case 'object': {
        const fields = record.v;
        if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
          throw bad(`${path}: an object without its fields`);
        }
        const out = register({} as Record<string, unknown>);
        for (const [key, item] of Object.entries(fields)) out[key] = decode(item, `${path}.${key}`);
        return out;
      }
      default:
        throw bad(`${path}: unknown tag ${JSON.stringify(tag)}`);
    }
  };
  return decode(root, '$');
}

// ------------------------------------------------------------ state schema

const int = z.number().int().nonnegative();
const text = z.string();
/** An earlier shoe's windows: key → first position (anomaly.ts ShoeWindows). */
const shoeWindows = z.map(text, int);

const anomalyState = z.strictObject({
  thresholds: z.strictObject({
    copies: int,
    rankRun: int,
    suitStreak: int,
    repeatWindow: int,
    bounds: z.strictObject({ rank_run: z.number(), suit_streak: z.number(), repeat: z.number() }),
  }),
  history: z.array(shoeWindows),
  sequence: z.array(text),
  positions: z.array(int),
  ascending: int,
  descending: int,
  suit: int,
  fired: z.set(z.enum(['rank_run', 'suit_streak', 'repeat'])),
});

const shoeState = z.strictObject({
  number: int,
  decks: int,
  backs: z.array(text),
  size: int,
  remaining: z.map(text, int),
  left: int,
  dealt: int,
  order: z.array(text).optional(),
  orderPosition: int,
  orderBroken: z.boolean(),
  ended: text.optional(),
  burn: z.strictObject({ turned: z.boolean(), owed: int }).optional(),
  cutOut: z.boolean(),
  lastHand: z.strictObject({ coupsLeft: z.number().int() }).optional(),
  rounds: int,
  roundsFinished: int,
  faceUp: int,
  reshuffleAfterRound: text.optional(),
  anomaly: anomalyState,
});

const roundState = z.strictObject({
  number: int,
  boxes: z.array(int).optional(),
  engine: z.unknown(),
  afterMarker: z.boolean(),
  voided: z.array(int),
  held: z.array(z.strictObject({ card: text, back: text, index: int })),
  cards: z.record(text, int),
  decisions: int,
  burns: z.record(text, int),
  engineBurns: z.boolean(),
  dealerCardUp: z.boolean(),
  dealerCardsDown: int,
  dealerDue: z.boolean(),
});

const sessionState = z.strictObject({
  shoes: int,
  rounds: int,
  shoe: shoeState.optional(),
  round: roundState.optional(),
  lastColour: text.optional(),
  history: z.array(shoeWindows),
});

// ------------------------------------------------------------- the state

/** The session state as JSON, versioned. Throws TableError('bad_checkpoint') on non-plain data. */
export function serializeSessionState(state: SessionState): SerializedSessionState {
  return { format: SESSION_STATE_FORMAT, state: encodeValue(state) };
}

/** Reads a serialized session state back, validating it; throws TableError('bad_checkpoint'). */
export function deserializeSessionState(serialized: unknown): SessionState {
  if (serialized === null || typeof serialized !== 'object' || Array.isArray(serialized)) {
    throw bad('the serialized session state is not an object');
  }
  const { format, state } = serialized as { format?: unknown; state?: unknown };
  if (format !== SESSION_STATE_FORMAT) {
    throw bad(
      `the serialized session state has format ${JSON.stringify(format)}; this build reads format ${SESSION_STATE_FORMAT}`,
    );
  }
  const decoded = decodeValue(state);
  const checked = sessionState.safeParse(decoded);
  if (!checked.success) {
    throw bad(
      `the serialized session state is not a session state:\n${z.prettifyError(checked.error)}`,
    );
  }
  // The decoded value, not zod's copy: zod rebuilds objects and would lose shared references.
  return decoded as SessionState;
}

/** A session's state with what rebuilds its config (ruleset name, options). */
export function serializeTableSession(
  config: SessionConfig,
  state: SessionState,
): SerializedTableSession {
  return {
    ...serializeSessionState(state),
    ruleset: config.ruleset.name,
    options: encodeValue(config.options),
  };
}

export interface DeserializedTableSession {
  readonly ruleset: string;
  readonly options: SessionOptions;
  readonly state: SessionState;
}

/** Reads back `serializeTableSession`; throws TableError('bad_checkpoint'). */
export function deserializeTableSession(serialized: unknown): DeserializedTableSession {
  const state = deserializeSessionState(serialized);
  const { ruleset, options } = serialized as { ruleset?: unknown; options?: unknown };
  if (typeof ruleset !== 'string' || ruleset === '') {
    throw bad('the serialized session names no ruleset');
  }
  const decodedOptions = decodeValue(options);
  if (decodedOptions === null || typeof decodedOptions !== 'object') {
    throw bad('the serialized session has no options');
  }
  return { ruleset, options: decodedOptions as SessionOptions, state };
}

/** Whether two session option sets are the same (a checkpoint applies only under its own options). */
export function sameSessionOptions(a: SessionOptions, b: SessionOptions): boolean {
  return JSON.stringify(encodeValue(a)) === JSON.stringify(encodeValue(b));
}
