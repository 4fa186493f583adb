/**
 * TableSession: the reducer in session.ts behind a small stateful wrapper,
 * for the daemon and `tableside replay`. It validates raw records (a bad one
 * is a TableError result and changes nothing), keeps the current state, and
 * exposes the snapshot (MQTT `state` topic) and the dealer-light hint.
 */
import { z } from 'zod';
import type { Ruleset } from '../engine/rulesets/schema.ts';
import type { GameEngine } from '../engine/types.ts';
import { TableError } from '../table/errors.ts';
import type { DomainEvent } from '../table/events.ts';
import { type TableLogRecord, tableLogRecord } from '../table/log.ts';
import {
  type Expectation,
  expecting,
  initialState,
  reduce,
  type SessionConfig,
  type SessionOptionsInput,
  type SessionState,
  sessionOptionsSchema,
  snapshot,
} from './cards/table/index.ts';
import { createEngine } from './engines.ts';
import { getRuleset } from './rulesets.ts';

export type FeedResult =
  | { readonly ok: true; readonly events: DomainEvent[] }
  | { readonly ok: false; readonly error: TableError };

/** Builds a session config; bad options or an unknown ruleset are a TableError. */
export function sessionConfig(
  ruleset: Ruleset | string,
  options: SessionOptionsInput = {},
  engine?: GameEngine<unknown>,
): SessionConfig {
  let resolved: Ruleset;
  try {
    resolved = typeof ruleset === 'string' ? getRuleset(ruleset) : ruleset;
  } catch (error) {
    throw new TableError('unknown_ruleset', (error as Error).message);
  }
  const parsed = sessionOptionsSchema.safeParse(options);
  if (!parsed.success) {
    throw new TableError('bad_options', `bad session options:\n${z.prettifyError(parsed.error)}`);
  }
  let gameEngine = engine;
  if (!gameEngine) {
    try {
      gameEngine = createEngine(resolved);
    } catch (error) {
      throw new TableError('unknown_ruleset', (error as Error).message);
    }
  }
  return { ruleset: resolved, engine: gameEngine, options: parsed.data };
}

/** Validates one raw record (parsed JSON); the error names the failing fields. */
export function parseRecord(raw: unknown): TableLogRecord {
  const result = tableLogRecord.safeParse(raw);
  if (result.success) return result.data;
  throw new TableError('bad_record', `bad table-log record: ${z.prettifyError(result.error)}`);
}

export class TableSession {
  readonly config: SessionConfig;
  #state: SessionState;

  constructor(config: SessionConfig, state: SessionState = initialState()) {
    this.config = config;
    this.#state = state;
  }

  static forRuleset(ruleset: Ruleset | string, options: SessionOptionsInput = {}): TableSession {
    return new TableSession(sessionConfig(ruleset, options));
  }

  get state(): SessionState {
    return this.#state;
  }

  /** Validates and applies a raw record; a bad record leaves the state unchanged. */
  feed(raw: unknown): FeedResult {
    let record: TableLogRecord;
    try {
      record = parseRecord(raw);
    } catch (error) {
      return { ok: false, error: error as TableError };
    }
    return { ok: true, events: this.apply(record) };
  }

  /** Applies a validated record. */
  apply(record: TableLogRecord): DomainEvent[] {
    const { state, events } = reduce(this.config, this.#state, record);
    this.#state = state;
    return events;
  }

  snapshot(): Record<string, unknown> {
    return snapshot(this.config, this.#state);
  }

  expecting(): Expectation {
    return expecting(this.config, this.#state);
  }
}

/** Feeds every record in order; returns all events. Records must be valid. */
export function replayRecords(
  config: SessionConfig,
  records: readonly TableLogRecord[],
): DomainEvent[] {
  const session = new TableSession(config);
  return records.flatMap((record) => session.apply(record));
}
