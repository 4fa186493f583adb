/**
 * Issue 28: a test that waits a fixed time instead of on a condition is wrong
 * on a loaded machine (too short) and slow on a quiet one (too long). A fixed
 * wait that must stay (only time can show that nothing happens; a device's
 * real timing is emulated) says why on the comment line(s) just above it:
 *
 *   // fixed wait: <kind>: <why a condition cannot replace it>
 *
 * with `<kind>` one of FIXED_WAIT_KINDS. A helper that waits (a `sleep`, a
 * `settle`) carries the reason once, above its definition; each awaited call
 * of it is then a fixed wait with that reason, unless the call gives its own.
 * `until` (test/helpers/until.ts) polls on a condition: its poll interval is
 * no fixed wait. Pure: given file texts, returns what it finds.
 */
import { posix } from 'node:path';

/** The kinds a reason names, each with what it means (for the counts printed). */
export const FIXED_WAIT_KINDS = {
  'nothing happens':
    'the test asserts that something does NOT happen (no ACK, no alarm, no message): only time shows it',
  'emulated timing':
    "a device's or a person's real timing, emulated (a lid held open, a dealer's pace, an outage's length)",
  'scenario pause': 'the pause is the scenario under test (a kill at a random moment)',
  'picture settle':
    "a screenshot script lets the page's transitions finish before the picture; no test asserts on it",
  'timer under test':
    "real time is what the code under test works on (a rate limit's window; timers that must still fire)",
} as const;

export type FixedWaitKind = keyof typeof FIXED_WAIT_KINDS;

/** The one shared wait on a condition, whose poll interval is not a fixed wait. */
export const UNTIL_FILE = 'test/helpers/until.ts';

export interface FixedWait {
  /** `file:line`. */
  where: string;
  code: string;
  /** The reason's kind and text, or null when none is given (or its kind is unknown). */
  kind: FixedWaitKind | null;
  reason: string | null;
}

/** A promise resolved by a timer: `new Promise((resolve) => setTimeout(resolve, ms))`. */
const TIMED_PROMISE = /\bsetTimeout\(\s*(?:resolve|res|r)\s*,/;
/** A browser page's own fixed wait (Playwright). */
const PAGE_TIMEOUT = /\.waitForTimeout\(/;
const REASON = /^\/\/\s*fixed wait:\s*(.*)$/;
/** A helper defined on the timed promise's line (`const sleep = (ms) => new Promise(...)`). */
const DEFINED_HERE =
  /(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\([^()]*\)[^=]*=>|function\s+(\w+)\s*\(/;
/** A function head on the line above the timed promise (`function settle(ms) {`). */
const HEAD_ABOVE =
  /function\s+(\w+)\s*\(.*\{\s*$|(?:const|let)\s+(\w+)\s*=\s*(?:async\s*)?\([^()]*\)[^=]*=>\s*\{\s*$/;
const IMPORT = /import\s*\{([^}]*)\}\s*from\s*'(\.[^']*)'/g;

interface Reason {
  kind: FixedWaitKind | null;
  reason: string | null;
}

const NO_REASON: Reason = { kind: null, reason: null };

/** The `// fixed wait:` reason in the run of comment lines ending just above `index`. */
function reasonAbove(lines: readonly string[], index: number): Reason {
  for (let at = index - 1; at >= 0; at--) {
    const line = lines[at]?.trim() ?? '';
    if (!line.startsWith('//')) return NO_REASON;
    const match = REASON.exec(line);
    if (!match) continue;
    const text = match[1] ?? '';
    const kind = Object.keys(FIXED_WAIT_KINDS).find((known) => text.startsWith(`${known}:`));
    return kind
      ? { kind: kind as FixedWaitKind, reason: text.slice(kind.length + 1).trim() }
      : NO_REASON;
  }
  return NO_REASON;
}

interface Helper {
  exported: boolean;
  reason: Reason;
}

/** The name of the helper whose definition holds the timed promise at `index`, if it is one. */
function definedName(lines: readonly string[], index: number): string | undefined {
  const line = lines[index] ?? '';
  const here = DEFINED_HERE.exec(line.slice(0, line.indexOf('new Promise') + 1 || undefined));
  const above = here ? null : HEAD_ABOVE.exec(lines[index - 1] ?? '');
  return here?.[1] ?? here?.[2] ?? above?.[1] ?? above?.[2];
}

/** The helpers that wait a fixed time, by name, as defined in a file. */
function helpersIn(lines: readonly string[]): Map<string, Helper> {
  const helpers = new Map<string, Helper>();
  lines.forEach((line, index) => {
    if (!TIMED_PROMISE.test(line)) return;
    const name = definedName(lines, index);
    if (!name) return;
    const head = definedName([lines[index] ?? ''], 0) ? index : index - 1;
    const inside = reasonAbove(lines, index);
    const reason = inside.kind ? inside : reasonAbove(lines, head);
    helpers.set(name, { exported: /^\s*export\b/.test(lines[head] ?? ''), reason });
  });
  return helpers;
}

/**
 * The helpers `file` imports from a relative path (`import { a, b as c } from
 * './x.ts'`), by the name it calls them, from `exported` (keyed `file#name`).
 */
function importedHelpers(
  file: string,
  text: string,
  exported: ReadonlyMap<string, Helper>,
): Map<string, Helper> {
  const helpers = new Map<string, Helper>();
  for (const match of text.matchAll(IMPORT)) {
    const from = posix.normalize(posix.join(posix.dirname(file), match[2] ?? ''));
    for (const part of (match[1] ?? '').split(',')) {
      const [name, local = name] = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/);
      const helper = name ? exported.get(`${from}#${name}`) : undefined;
      if (helper && local) helpers.set(local, helper);
    }
  }
  return helpers;
}

/**
 * Every fixed wait in `tree` (file path → text): each timed promise awaited in
 * place, and each awaited call of a waiting helper (defined in the file or
 * imported from another), with its reason or none.
 */
export function fixedWaits(tree: ReadonlyMap<string, string>): FixedWait[] {
  const linesOf = new Map([...tree].map(([file, text]) => [file, text.split('\n')] as const));
  const exportedHelpers = new Map<string, Helper>();
  const ownHelpers = new Map<string, Map<string, Helper>>();
  for (const [file, lines] of linesOf) {
    if (file === UNTIL_FILE) continue;
    const helpers = helpersIn(lines);
    ownHelpers.set(file, helpers);
    for (const [name, helper] of helpers) {
      if (helper.exported) exportedHelpers.set(`${file}#${name}`, helper);
    }
  }

  const found: FixedWait[] = [];
  for (const [file, lines] of linesOf) {
    if (file === UNTIL_FILE) continue;
    const own = ownHelpers.get(file) ?? new Map<string, Helper>();
    const imported = importedHelpers(file, tree.get(file) ?? '', exportedHelpers);
    const helperNamed = (name: string) => own.get(name) ?? imported.get(name);
    lines.forEach((line, index) => {
      const where = `${file}:${index + 1}`;
      const code = line.trim();
      const given = reasonAbove(lines, index);
      if (PAGE_TIMEOUT.test(line)) {
        found.push({ where, code, ...given });
        return;
      }
      if (TIMED_PROMISE.test(line)) {
        // A helper's definition is not a wait: its calls are.
        if (!definedName(lines, index)) found.push({ where, code, ...given });
        return;
      }
      for (const call of line.matchAll(/(?<![.\w])await\s+(\w+)\(/g)) {
        const helper = helperNamed(call[1] ?? '');
        if (!helper) continue;
        found.push({ where, code, ...(given.kind ? given : helper.reason) });
      }
    });
  }
  return found;
}

/** The waits without a reason (or with a kind not in FIXED_WAIT_KINDS), as `file:line: code`. */
export function unexplainedFixedWaits(tree: ReadonlyMap<string, string>): string[] {
  return fixedWaits(tree)
    .filter((wait) => wait.kind === null)
    .map((wait) => `${wait.where}: ${wait.code}`);
}

/** `fixed waits: N (nothing happens 25, emulated timing 9, ...)`, for the closing note. */
export function summarizeFixedWaits(waits: readonly FixedWait[]): string {
  const byKind = new Map<string, number>();
  for (const wait of waits) {
    const kind = wait.kind ?? 'NO REASON';
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  const parts = [...byKind].sort((a, b) => b[1] - a[1]).map(([kind, n]) => `${kind} ${n}`);
  return `fixed waits: ${waits.length} (${parts.join(', ')})`;
}
