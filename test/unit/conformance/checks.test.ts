import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../firmware-host/conformance/checks.ts';

const ROOT = join(import.meta.dirname, '../../..');

describe('the conformance checks', () => {
  it('each cite a PROTOCOL.md section and state a timeout (or are judged from the trace)', () => {
    for (const check of CHECKS) {
      expect(check.section, check.id).toMatch(/^§ \d/);
      if (check.trace) expect(check.timeoutMs, check.id).toBe(0);
      else expect(check.timeoutMs, check.id).toBeGreaterThan(0);
    }
    expect(new Set(CHECKS.map((check) => check.id)).size).toBe(CHECKS.length);
  });

  it("are each listed, with their sections, in the firmware author's page", () => {
    const page = readFileSync(join(ROOT, 'docs/firmware-author/conformance.md'), 'utf8');
    for (const check of CHECKS) {
      expect(page).toContain(`| \`${check.id}\` | ${check.section} |`);
    }
  });
});
