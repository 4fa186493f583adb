/**
 * The requests a supervisor may make from the console, validated. They are
 * authorised by the console's own login (not MQTT's) and journaled with the
 * user's name as the record's `src` (`web:<name>`).
 */
import { z } from 'zod';
import { rulesetIdentity } from '../games/registry.ts';
import { HttpError } from './http.ts';
import type { ConsoleRequestPort } from './port.ts';
import { requestOpsOf } from './table-view.ts';

const reason = z.string().trim().min(3, 'a reason of at least 3 characters').max(200);

const schemas = {
  new_shoe: z.strictObject({ reason: reason.optional() }),
  void_hand: z.strictObject({ reason }),
  new_round: z.strictObject({}),
  set_ruleset: z.strictObject({ ruleset: z.string().min(1).max(64) }),
  // Roulette: the croupier's "no more bets", and closing time (003 § 11(2), § 13(2)).
  no_more_bets: z.strictObject({}),
  closing: z.strictObject({}),
  // A closed table opens again (issue 35), with why: journaled with the name.
  reopen: z.strictObject({ reason }),
} as const;

export type ConsoleOp = keyof typeof schemas;
export type ConsoleRequest =
  | { op: 'new_shoe'; reason?: string | undefined }
  | { op: 'void_hand'; reason: string }
  | { op: 'new_round' }
  | { op: 'set_ruleset'; ruleset: string }
  | { op: 'no_more_bets' }
  | { op: 'closing' }
  | { op: 'reopen'; reason: string };

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

/**
 * Makes a request through the table's own doors, as an MQTT request would
 * be made, with `src: "web:<user>"` on what is journaled. A request the
 * table would answer with an alarm is refused (a coded error) and changes
 * nothing; so is one of another game's (HttpError `not_for_this_table`).
 */
export async function applyConsoleRequest(
  port: ConsoleRequestPort,
  request: ConsoleRequest,
  user: string,
): Promise<Record<string, unknown>> {
  const src = `web:${user}`;
  // A table session ignores another game's records: such a request would be journaled for nothing.
  const table = rulesetIdentity(port.ruleset);
  const takes = requestOpsOf(port.ruleset).filter((op) => Object.hasOwn(schemas, op));
  if (!takes.includes(request.op)) {
    throw new HttpError(
      409,
      'not_for_this_table',
      `${request.op} is not a request of this table: it plays ${table.name} (${table.game}), whose requests are ${takes.join(', ')}`,
    );
  }
  const seqOf = (records: readonly { seq: number }[]) => ({ seq: records.at(-1)?.seq });
  switch (request.op) {
    case 'new_shoe':
      return seqOf(await port.newShoe(request.reason ?? `new shoe requested by ${user}`, src));
    case 'void_hand':
      return seqOf(
        await port.ingest({ t: 'void', src, reason: request.reason }, { refuseIrregular: true }),
      );
    case 'new_round':
      return seqOf(await port.ingest({ t: 'round', src }, { refuseIrregular: true }));
    case 'set_ruleset':
      return port.setRuleset(request.ruleset, src);
    case 'no_more_bets':
      return seqOf(await port.ingest({ t: 'no_more_bets', src }, { refuseIrregular: true }));
    case 'closing':
      return seqOf(await port.ingest({ t: 'closing', src }, { refuseIrregular: true }));
    case 'reopen':
      return seqOf(
        await port.ingest({ t: 'reopen', src, reason: request.reason }, { refuseIrregular: true }),
      );
  }
}
