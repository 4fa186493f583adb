/**
 * Issue 17, item 3: an error response once echoed a 1 MB `transaction`.
 * A transaction longer than 128 characters is refused, the error says so,
 * and it is never echoed, whatever else is wrong with the request.
 */
import { describe, expect, it } from 'vitest';
import { parseRequest, TRANSACTION_MAX_LENGTH } from '../../../firmware-host/mqtt/requests.ts';

const huge = 'x'.repeat(1_000_000);

describe('an over-long transaction', () => {
  it('is refused with a reason and not echoed, on a known request', () => {
    const parsed = parseRequest('health_check', JSON.stringify({ transaction: huge }));
    expect(parsed.ok).toBe(false);
    expect(parsed.transaction).toBeUndefined();
    expect(parsed.ok ? '' : parsed.error).toContain(`at most ${TRANSACTION_MAX_LENGTH} characters`);
    expect(JSON.stringify(parsed).length).toBeLessThan(1_000);
  });

  it('is not echoed on an unknown request either, and the error says why', () => {
    const parsed = parseRequest('launch_rockets', JSON.stringify({ transaction: huge }));
    expect(parsed.transaction).toBeUndefined();
    expect(parsed.ok ? '' : parsed.error).toMatch(/unknown request.*transaction: at most 128/);
    expect(JSON.stringify(parsed).length).toBeLessThan(1_000);
  });

  it('still echoes one of 128 characters', () => {
    const limit = 'y'.repeat(TRANSACTION_MAX_LENGTH);
    const parsed = parseRequest('health_check', JSON.stringify({ transaction: limit }));
    expect(parsed).toEqual({ ok: true, request: { op: 'health_check' }, transaction: limit });
  });
});
