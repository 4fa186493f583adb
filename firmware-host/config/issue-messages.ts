/**
 * The config check's sentence for each schema issue, in the project's style:
 * what was wrong and what is allowed ("70000 is too large: expected at most
 * 65535"), never the schema library's own wording ("Too big: expected number
 * to be <=65535"). The path is put before it by the caller. A message the
 * schema writes itself (a refinement, a field's own error) is kept.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** What a value of the expected type is called in a sentence. */
const TYPE_NOUNS: Readonly<Record<string, string>> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping of settings',
  record: 'a mapping of names to settings',
  map: 'a mapping of names to settings',
  null: 'nothing (null)',
};

/** The value as the operator wrote it, short. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') {
    return value.length > 40 ? `"${value.slice(0, 37)}…"` : JSON.stringify(value);
  }
  if (typeof value === 'object') return 'a mapping';
  return String(value);
}

function typeNoun(expected: string): string {
  return TYPE_NOUNS[expected] ?? expected;
}

function bound(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const limit = issue.code === 'too_big' ? issue.maximum : issue.minimum;
  const big = issue.code === 'too_big';
  const inclusive = issue.inclusive !== false;
  switch (issue.origin) {
    case 'string':
      return `${big ? 'at most' : 'at least'} ${limit} character${Number(limit) === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      return `${big ? 'at most' : 'at least'} ${limit} entr${Number(limit) === 1 ? 'y' : 'ies'}`;
    default:
      return inclusive
        ? `${big ? 'at most' : 'at least'} ${limit}`
        : `${big ? 'less' : 'more'} than ${limit}`;
  }
}

function sizeOf(issue: Extract<Issue, { code: 'too_big' | 'too_small' }>): string {
  const input = issue.input;
  const big = issue.code === 'too_big';
  if (issue.origin === 'string' && typeof input === 'string') {
    return input.length === 0
      ? 'empty'
      : `${big ? 'too long' : 'too short'} (${input.length} characters)`;
  }
  if ((issue.origin === 'array' || issue.origin === 'set') && Array.isArray(input)) {
    return `${big ? 'too many' : 'too few'} entries (${input.length})`;
  }
  return `${describeValue(input)} is too ${big ? 'large' : 'small'}`;
}

/** The sentence for one issue (without its path). */
export function issueMessage(issue: Issue): string {
  const missing = 'input' in issue && issue.input === undefined;
  switch (issue.code) {
    case 'invalid_type':
      return missing
        ? `missing: expected ${typeNoun(issue.expected)}`
        : `expected ${typeNoun(issue.expected)}, got ${describeValue(issue.input)}`;
    case 'invalid_value': {
      const allowed = issue.values.map((value) => JSON.stringify(value)).join(', ');
      const expected = issue.values.length === 1 ? allowed : `one of ${allowed}`;
      return missing
        ? `missing: expected ${expected}`
        : `expected ${expected}, got ${describeValue(issue.input)}`;
    }
    case 'too_big':
    case 'too_small':
      return `${sizeOf(issue)}: expected ${bound(issue)}`;
    case 'not_multiple_of':
      return `expected a multiple of ${issue.divisor}, got ${describeValue(issue.input)}`;
    case 'invalid_format':
      // A field's own wording ("expected a SHA-256 as 64 hex digits") says it best.
      return issue.message.startsWith('Invalid')
        ? `expected ${issue.format === 'regex' ? 'the allowed form' : `a valid ${issue.format}`}, got ${describeValue(issue.input)}`
        : issue.message;
    case 'invalid_union':
      return issue.message.startsWith('Invalid')
        ? `expected one of the allowed forms, got ${describeValue(issue.input)}`
        : issue.message;
    case 'invalid_key':
      return `invalid name: ${issue.issues.map((nested) => issueMessage(nested)).join('; ')}`;
    case 'invalid_element':
      return `invalid entry: ${issue.issues.map((nested) => issueMessage(nested)).join('; ')}`;
    default:
      return issue.message;
  }
}
