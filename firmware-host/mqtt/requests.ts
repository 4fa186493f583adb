/**
 * Requests arriving on `bridge/request/<op>`: validated here, handed to the
 * daemon's handler (the bridge has no game logic), answered on
 * `bridge/response/<op>` with the caller's `transaction` echoed.
 */
import { z } from 'zod';
import { REQUEST_OPS, type RequestOp } from './topics.ts';

/** A transaction is echoed in the response: a longer one is refused and not echoed. */
export const TRANSACTION_MAX_LENGTH = 128;
const TOO_LONG = `at most ${TRANSACTION_MAX_LENGTH} characters (it is echoed in the response)`;
const transaction = z
  .union([z.string().max(TRANSACTION_MAX_LENGTH, TOO_LONG), z.number()])
  .optional();
const box = z.number().int().min(1).max(7);

export const requestSchemas = {
  new_round: z.strictObject({
    transaction,
    boxes: z.array(box).min(1).max(7).optional(),
    stakes: z.record(z.string().min(1).max(64), z.number().nonnegative()).optional(),
  }),
  player_action: z.strictObject({
    transaction,
    /** The box deciding; absent for the dealer. */
    box: box.optional(),
    action: z.string().min(1).max(32),
    cards: z.array(z.number().int().min(0).max(6)).max(6).optional(),
  }),
  void_hand: z.strictObject({ transaction, reason: z.string().min(1).max(200) }),
  new_shoe: z.strictObject({ transaction, reason: z.string().min(1).max(200).optional() }),
  set_ruleset: z.strictObject({ transaction, ruleset: z.string().min(1).max(64) }),
  health_check: z.strictObject({ transaction }),
  no_more_bets: z.strictObject({ transaction }),
  closing: z.strictObject({ transaction }),
  reopen: z.strictObject({ transaction, reason: z.string().min(1).max(200) }),
} satisfies Record<RequestOp, z.ZodType>;

type Fields<Op extends RequestOp> = Omit<z.output<(typeof requestSchemas)[Op]>, 'transaction'>;

/** A validated request, without its transaction. */
export type BridgeRequest = { [Op in RequestOp]: { op: Op } & Fields<Op> }[RequestOp];

export type ParsedRequest =
  | { ok: true; request: BridgeRequest; transaction: string | number | undefined }
  | { ok: false; error: string; transaction: string | number | undefined };

export function isRequestOp(op: string): op is RequestOp {
  return (REQUEST_OPS as readonly string[]).includes(op);
}

/**
 * A request payload read as JSON. Empty or blank text is an error like any
 * other that is not JSON: a request is a JSON object, `{}` at the least, so
 * nothing is read into a payload that carries nothing (no fields, no signature).
 */
export function decodeRequestBody(
  payload: Buffer | string,
): { ok: true; body: unknown } | { ok: false; error: string } {
  const text = payload.toString();
  if (text.trim() === '') {
    return {
      ok: false,
      error: `${text === '' ? 'empty' : 'blank'} payload: a request is a JSON object ({} at the least)`,
    };
  }
  try {
    return { ok: true, body: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      error: `payload is not valid JSON: ${(error as Error).message}`,
    };
  }
}

/** Whether a decoded body is a JSON object (not null, not an array). */
export function isJsonObject(body: unknown): body is Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body);
}

/** Parses a request payload for `op`; errors name what was wrong. */
export function parseRequest(op: string, payload: Buffer | string): ParsedRequest {
  const decoded = decodeRequestBody(payload);
  if (!decoded.ok) return { ok: false, error: decoded.error, transaction: undefined };
  return parseRequestFields(op, decoded.body);
}

/** Checks a decoded payload against `op`'s schema; errors name what was wrong. */
export function parseRequestFields(op: string, body: unknown): ParsedRequest {
  const echoed = transactionOf(body);
  // Named in every error, since the schema below is not reached by all of them.
  const tooLong = transactionTooLong(body) ? `; transaction: ${TOO_LONG}, not echoed` : '';
  if (!isRequestOp(op)) {
    return {
      ok: false,
      error: `unknown request "${op}"; expected one of ${REQUEST_OPS.join(', ')}${tooLong}`,
      transaction: echoed,
    };
  }
  if (!isJsonObject(body)) {
    return { ok: false, error: NOT_AN_OBJECT, transaction: echoed };
  }
  const result = requestSchemas[op].safeParse(body);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.join('.') || '(payload)';
      const message =
        issue.code === 'unrecognized_keys'
          ? `unknown field(s) ${issue.keys.join(', ')}`
          : issue.message;
      return `${path}: ${message}`;
    });
    const notEchoed = tooLong === '' ? '' : ' (not echoed)';
    return {
      ok: false,
      error: `bad ${op} request: ${problems.join('; ')}${notEchoed}`,
      transaction: echoed,
    };
  }
  const { transaction: tx, ...fields } = result.data as { transaction?: string | number };
  return { ok: true, request: { op, ...fields } as BridgeRequest, transaction: tx };
}

/** The payload is JSON, but not an object. */
export const NOT_AN_OBJECT = 'payload must be a JSON object';

/** The transaction to echo in an answer: a string of at most 128 characters, or a number. */
export function transactionOf(body: unknown): string | number | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const value = (body as { transaction?: unknown }).transaction;
  if (typeof value === 'string') return value.length <= TRANSACTION_MAX_LENGTH ? value : undefined;
  return typeof value === 'number' ? value : undefined;
}

function transactionTooLong(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return false;
  const value = (body as { transaction?: unknown }).transaction;
  return typeof value === 'string' && value.length > TRANSACTION_MAX_LENGTH;
}
