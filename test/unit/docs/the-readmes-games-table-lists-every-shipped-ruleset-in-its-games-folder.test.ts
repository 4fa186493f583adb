/**
 * Issue 35: "Update ... the README's games table". The table lists every
 * shipped ruleset once, and its last column names the folder its code lives
 * in: a folder that exists, inside the folder of the plug-in that plays it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { allRulesetNames, gameOf } from '../../../firmware-host/games/registry.ts';

const ROOT = resolve(import.meta.dirname, '../../..');

function gamesTable(): Map<string, string> {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('\n## Games\n')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map<string, string>();
  for (const line of section.split('\n')) {
    const row = /^\| `([^`]+)` \|.*\]\((firmware-host\/games\/[^)]+)\) \|$/.exec(line);
    if (row) rows.set(row[1]!, row[2]!);
  }
  return rows;
}

describe("the README's games table", () => {
  const table = gamesTable();

  it('lists every shipped ruleset, and nothing else', () => {
    expect([...table.keys()].sort()).toEqual([...allRulesetNames()].sort());
  });

  it.each([...allRulesetNames()])(
    "names %s's code: a folder in its plug-in's folder",
    (ruleset) => {
      const folder = table.get(ruleset);
      expect(folder, `${ruleset} has no row`).toBeDefined();
      expect(existsSync(join(ROOT, folder!)), `${folder} does not exist`).toBe(true);
      expect(folder!.startsWith(`firmware-host/games/${gameOf(ruleset).id}/`)).toBe(true);
    },
  );
});
