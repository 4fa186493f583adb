/**
 * Which view of the console a table's page shows. The ONE place the server
 * decides it: the page takes `view` from the table info (hello, /api/me)
 * and never looks at the game itself. When the game plug-in registry names
 * each game's web view, these two functions ask it instead.
 */
import {
  getRouletteRuleset,
  getRuleset,
  isRouletteRuleset,
  type RouletteRuleset,
} from '../engine/rulesets/index.ts';

export type WebView = 'cards' | 'roulette';

/** The page's view for a ruleset's game. */
export function webViewOf(game: string): WebView {
  return game === 'roulette' ? 'roulette' : 'cards';
}

/** A ruleset's name, title and game, from whichever registry holds it. */
export function rulesetIdentityOf(name: string): { name: string; title: string; game: string } {
  const ruleset = isRouletteRuleset(name) ? getRouletteRuleset(name) : getRuleset(name);
  return { name: ruleset.name, title: ruleset.title, game: ruleset.game };
}

/** The roulette ruleset of that name (its wheel, for the wheel watch); undefined at a card table. */
export function rouletteRulesetOf(name: string): RouletteRuleset | undefined {
  return isRouletteRuleset(name) ? getRouletteRuleset(name) : undefined;
}
