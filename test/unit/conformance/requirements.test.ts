/**
 * PROTOCOL.md's MUSTs and SHOULDs, the requirements table and the checks'
 * levels stay in step: every keyword a device is bound by is a row, every
 * row stands in its section, a MUST is tested by a check or says why not,
 * and a check is required exactly when it tests a MUST, citing its section.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../firmware-host/conformance/checks.ts';
import {
  AUTHENTICATION_CHECKS,
  REQUIREMENTS,
} from '../../../firmware-host/conformance/requirements.ts';

const ROOT = join(import.meta.dirname, '../../..');
const PROTOCOL = readFileSync(join(ROOT, 'device-protocol/PROTOCOL.md'), 'utf8');

/**
 * Sections another part of the text owns the keywords of: authentication
 * (§ 5) and versions (§ 4.4), whose levels come with their own rewrite, and
 * the examples and history (§ 8, § 9, § 11), which state no rule.
 */
const NOT_MAPPED = /^(4\.4|5|8|9|11)(\.|$)/;

/** Each numbered section's text from its heading to the next, line breaks read as spaces. */
function sections(): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | undefined;
  let lines: string[] = [];
  const close = () => {
    if (current !== undefined) found.set(current, lines.join(' ').replace(/\s+/g, ' '));
  };
  for (const text of PROTOCOL.split('\n')) {
    const heading = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(text);
    if (heading) {
      close();
      current = heading[1]!;
      lines = [];
    } else lines.push(text);
  }
  close();
  return found;
}

const KEYWORD = /\b(MUST NOT|MUST|SHALL NOT|SHALL|REQUIRED|SHOULD NOT|SHOULD|RECOMMENDED)\b/g;

/** Whether a check citing `cited` (`§ 3.3, § 7.2-7.4`) cites section `section`. */
function cites(cited: string, section: string): boolean {
  return cited.split(', ').some((part) => {
    const range = /^§ (\d+)\.(\d+)-\1\.(\d+)$/.exec(part);
    if (range) {
      const [major, minor] = section.split('.');
      const at = Number(minor);
      return major === range[1] && at >= Number(range[2]) && at <= Number(range[3]);
    }
    const one = part.replace(/^§ /, '');
    return one === section || one.startsWith(`${section}.`);
  });
}

describe('the requirements of PROTOCOL.md', () => {
  const text = sections();

  it('each stand in their section, with their level', () => {
    for (const requirement of REQUIREMENTS) {
      const body = text.get(requirement.section);
      expect(body, `§ ${requirement.section}`).toBeDefined();
      expect(body, requirement.says).toContain(requirement.says);
      expect(requirement.says, requirement.says).toContain(requirement.level);
      expect(requirement.says.replace(/SHOULD|MUST/, ''), requirement.says).not.toMatch(
        requirement.level === 'MUST' ? /SHOULD/ : /MUST/,
      );
    }
  });

  it('cover every MUST and SHOULD a device is bound by, once', () => {
    const unmapped: string[] = [];
    for (const [section, body] of text) {
      if (NOT_MAPPED.test(section)) continue;
      const rows = REQUIREMENTS.filter((requirement) => requirement.section === section);
      const covered = rows.map((row) => {
        const at = body.indexOf(row.says);
        return [at, at + row.says.length] as const;
      });
      for (const match of body.matchAll(KEYWORD)) {
        const within = covered.filter(([from, to]) => match.index >= from && match.index < to);
        if (within.length !== 1) {
          const around = body.slice(Math.max(0, match.index - 60), match.index + 40);
          unmapped.push(`§ ${section} (${within.length} rows): ...${around}...`);
        }
      }
    }
    expect(unmapped).toEqual([]);
  });

  it('are each tested by a check that cites their section, or say why none can', () => {
    for (const requirement of REQUIREMENTS) {
      const name = `§ ${requirement.section} ${requirement.says}`;
      if (requirement.checks.length === 0) expect(requirement.untested, name).toBeTruthy();
      for (const id of requirement.checks) {
        const check = CHECKS.find((candidate) => candidate.id === id);
        expect(check, `${name}: ${id}`).toBeDefined();
        expect(cites(check!.section, requirement.section), `${id} cites ${name}`).toBe(true);
      }
      expect(requirement.breaks, name).toBeTruthy();
      if (requirement.shownBy !== undefined) {
        expect(existsSync(join(ROOT, requirement.shownBy)), requirement.shownBy).toBe(true);
      }
    }
  });

  it('make a check required exactly when it tests a MUST, optional when it tests SHOULDs only', () => {
    const levels = CHECKS.filter((check) => !AUTHENTICATION_CHECKS.includes(check.id)).map(
      (check) => {
        const tested = REQUIREMENTS.filter((requirement) => requirement.checks.includes(check.id));
        return {
          id: check.id,
          required: check.required,
          tests: tested.length === 0 ? 'nothing' : tested.some((row) => row.level === 'MUST'),
        };
      },
    );
    for (const level of levels) {
      expect(level.tests, `${level.id} tests a requirement`).not.toBe('nothing');
      expect(level.required, `${level.id} is required exactly when it tests a MUST`).toBe(
        level.tests,
      );
    }
  });

  it('that are MUSTs each name what breaks at the host: a card lost, doubled, reordered or stalled', () => {
    for (const requirement of REQUIREMENTS.filter((row) => row.level === 'MUST')) {
      expect(requirement.breaks, requirement.says).toMatch(/^(lost|doubled|reordered|stalled)/);
    }
  });
});
