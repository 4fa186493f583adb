/**
 * Canonical JSON (RFC 8785, JCS, for the values JSON.parse gives): object
 * keys sorted by UTF-16 code units, no whitespace, numbers and strings as
 * ECMAScript serialises them. Signer and verifier each serialise the same
 * value to the same bytes, whatever whitespace or key order travelled.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    // undefined, functions, symbols: not JSON; non-finite numbers serialise as null.
    if (text === undefined) throw new TypeError(`not a JSON value: ${String(value)}`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map(
      (key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`,
    );
  return `{${entries.join(',')}}`;
}

/** A timestamp for a message: ISO 8601, or the number itself when out of Date's range. */
export function isoTime(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}
