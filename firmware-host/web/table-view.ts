/**
 * Which view of the console a table's page shows, and which console
 * requests it takes: the ONE place the server asks, and it asks the game's
 * plug-in (games/registry.ts). The page takes `view` from the table info
 * (hello, /api/me) and never looks at the game itself.
 */

import { findGameOf, gameOf } from '../games/registry.ts';
import { roulette } from '../games/roulette/plugin.ts';
import { getRouletteRuleset, type RouletteRuleset } from '../games/rulesets.ts';

export type WebView = 'baccarat' | 'cards' | 'roulette';

/** The page's view for a table playing `ruleset`. */
export function webViewOf(ruleset: string): WebView {
  return gameOf(ruleset).webView(ruleset);
}

/** The requests a table playing `ruleset` takes: its game's, and `set_ruleset`. */
export function requestOpsOf(ruleset: string): readonly string[] {
  return [...gameOf(ruleset).requestOps, 'set_ruleset'];
}

/** The roulette ruleset of that name (its wheel, for the wheel watch); undefined at a card table. */
export function rouletteRulesetOf(name: string): RouletteRuleset | undefined {
  return findGameOf(name) === roulette ? getRouletteRuleset(name) : undefined;
}
