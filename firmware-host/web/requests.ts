/**
 * The requests a supervisor may make from the console, validated. They are
 * authorised by the console's own login (not MQTT's) and journaled with the
 * user's name as the record's `src` (`web:<name>`).
 */
import { z } from 'zod';

const reason = z.string().trim().min(3, 'a reason of at least 3 characters').max(200);

const schemas = {
  new_shoe: z.strictObject({ reason: reason.optional() }),
  void_hand: z.strictObject({ reason }),
  new_round: z.strictObject({}),
  set_ruleset: z.strictObject({ ruleset: z.string().min(1).max(64) }),
} as const;

export type ConsoleOp = keyof typeof schemas;
export type ConsoleRequest =
  | { op: 'new_shoe'; reason?: string | undefined }
  | { op: 'void_hand'; reason: string }
  | { op: 'new_round' }
  | { op: 'set_ruleset'; ruleset: string };

export function parseConsoleRequest(
  op: string,
  body: Record<string, unknown>,
): { ok: true; request: ConsoleRequest } | { ok: false; error: string } {
  if (!Object.hasOwn(schemas, op)) {
    return {
      ok: false,
      error: `unknown request ${JSON.stringify(op)}; known: ${Object.keys(schemas).join(', ')}`,
    };
  }
  const parsed = schemas[op as ConsoleOp].safeParse(body);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`)
      .join('; ');
    return { ok: false, error: `${op}: ${issues}` };
  }
  return { ok: true, request: { op, ...parsed.data } as ConsoleRequest };
}
