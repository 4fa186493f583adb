/**
 * Which view of the console a table's page shows, which game modules draw
 * it, and which console requests it takes: the ONE place the server asks,
 * and it asks the game's plug-in (games/registry.ts). The page takes `view`
 * and `views` from the table info (hello, /api/me) and never looks at the
 * game itself.
 */

import type { GameWebViews } from '../games/game.ts';
import { gameOf } from '../games/registry.ts';
import { gameModuleUrl } from './static-files.ts';

export type WebView = 'baccarat' | 'cards' | 'roulette';

/** The page's view for a table playing `ruleset`. */
export function webViewOf(ruleset: string): WebView {
  return gameOf(ruleset).webView(ruleset);
}

/** The URLs of the game's modules that draw its parts of the page (table, history, scoreboard). */
export function webViewUrlsOf(ruleset: string): GameWebViews {
  const plugin = gameOf(ruleset);
  return Object.fromEntries(
    Object.entries(plugin.webViews(ruleset)).map(([part, file]) => [
      part,
      gameModuleUrl(plugin.id, file),
    ]),
  );
}

/** The requests a table playing `ruleset` takes: its game's, and `set_ruleset`. */
export function requestOpsOf(ruleset: string): readonly string[] {
  return [...gameOf(ruleset).requestOps, 'set_ruleset'];
}
