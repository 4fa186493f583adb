/**
 * The console's own page is game-neutral (issue 35 item 1): a game whose
 * plug-in names a Table view of its own brings its markup, its request
 * panel and what a supervisor confirms in that module; the core's
 * index.html and scripts name neither the game nor its requests.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_PLUGINS } from '../../../firmware-host/games/registry.ts';
import { gameWebDir, PUBLIC_DIR } from '../../../firmware-host/web/static-files.ts';

/** The core page's markup and scripts, by file name. */
const CORE = readdirSync(PUBLIC_DIR)
  .filter((name) => /\.(html|js)$/.test(name))
  .map((name) => [name, readFileSync(join(PUBLIC_DIR, name), 'utf8')] as const);

/** The plug-ins whose rulesets draw the Table page with a module of their own. */
const OWN_VIEWS = GAME_PLUGINS.flatMap((plugin) => {
  const table = plugin
    .rulesetNames()
    .map((name) => plugin.webViews(name).table)
    .find(Boolean);
  return table ? [{ plugin, table }] : [];
});

describe("the console's own page", () => {
  it('has a game that draws its own Table view to look at', () => {
    expect(OWN_VIEWS.map(({ plugin }) => plugin.id)).toContain('roulette');
  });

  for (const { plugin, table } of OWN_VIEWS) {
    it(`holds none of ${plugin.id}'s markup or request words: its view module does`, () => {
      const view = readFileSync(join(gameWebDir(plugin), table), 'utf8');
      for (const op of plugin.requestOps) {
        for (const [name, text] of CORE) {
          expect(text, `${name} names ${plugin.id}'s request ${op}`).not.toContain(`'${op}'`);
          expect(text, `${name} names ${plugin.id}'s request ${op}`).not.toContain(`"${op}"`);
          expect(text, `${name} names ${plugin.id}'s request ${op}`).not.toMatch(
            new RegExp(`\\b${op}:`),
          );
        }
        // Its button and what the supervisor confirms are the view's own.
        expect(view, `${table} has the ${op} button`).toContain(`'data-op': '${op}'`);
        expect(view, `${table} words the ${op} request`).toMatch(new RegExp(`\\b${op}: \\(`));
      }
      for (const [name, text] of CORE) {
        expect(text.toLowerCase(), `${name} names ${plugin.id}`).not.toContain(plugin.id);
      }
    });
  }
});
