/**
 * The game registry (issue 26): every game a table can play, as a plug-in.
 * Ruleset names share one namespace across plug-ins, so a ruleset's name
 * says which plug-in plays it. Adding a game is a folder beside these and
 * one line in GAME_PLUGINS.
 */
import { EngineError } from '../engine/errors.ts';
import type { DomainEvent } from '../table/events.ts';
import { cardGames } from './cards/plugin.ts';
import type { GamePlugin, RulesetIdentity } from './game.ts';
import { roulette } from './roulette/plugin.ts';

export const GAME_PLUGINS: readonly GamePlugin[] = [cardGames, roulette];

let byRuleset: ReadonlyMap<string, GamePlugin> | undefined;

function rulesetIndex(): ReadonlyMap<string, GamePlugin> {
  if (byRuleset) return byRuleset;
  const index = new Map<string, GamePlugin>();
  for (const plugin of GAME_PLUGINS) {
    for (const name of plugin.rulesetNames()) {
      const other = index.get(name);
      if (other) {
        throw new EngineError(
          'bad_ruleset',
          `two rulesets are named ${name} (${other.id} and ${plugin.id})`,
        );
      }
      index.set(name, plugin);
    }
  }
  byRuleset = index;
  return index;
}

/** Every ruleset name a table may play, every game's. */
export function allRulesetNames(): readonly string[] {
  return [...rulesetIndex().keys()];
}

/** The known rulesets, by plug-in: "a, b (cards); c (roulette)". */
export function knownRulesetsText(): string {
  return GAME_PLUGINS.map((plugin) => `${plugin.rulesetNames().join(', ')} (${plugin.id})`).join(
    '; ',
  );
}

/** The plug-in that plays a ruleset, or undefined for a name no game has. */
export function findGameOf(ruleset: string): GamePlugin | undefined {
  return rulesetIndex().get(ruleset);
}

/** The plug-in that plays a ruleset; an unknown name is an EngineError listing the known ones. */
export function gameOf(ruleset: string): GamePlugin {
  const plugin = findGameOf(ruleset);
  if (plugin) return plugin;
  throw new EngineError(
    'unknown_ruleset',
    `unknown ruleset ${JSON.stringify(ruleset)}: known rulesets are ${knownRulesetsText()}`,
  );
}

/** Game, name and title of any ruleset. */
export function rulesetIdentity(ruleset: string): RulesetIdentity {
  const { game, name, title } = gameOf(ruleset).ruleset(ruleset);
  return { game, name, title };
}

/**
 * The rulesets a table playing `ruleset` may change to: its plug-in's of
 * the same game (`RulesetIdentity.game`). A table keeps its game for the
 * life of its journal.
 */
export function rulesetsOfGame(ruleset: string): readonly string[] {
  const { game } = rulesetIdentity(ruleset);
  return gameOf(ruleset)
    .rulesetNames()
    .filter((name) => rulesetIdentity(name).game === game);
}

/**
 * Why a table playing `from` cannot take `to` (another plug-in's, or
 * another game's ruleset), naming both; undefined when it may (between
 * shoes, between games: the session says when).
 */
export function rulesetChangeRefusal(from: string, to: string): string | undefined {
  const owner = gameOf(to);
  const plugin = gameOf(from);
  if (owner !== plugin) {
    return `${to} is a ${owner.tableNoun}'s ruleset; this ${plugin.tableNoun} plays ${from} and takes ${rulesetsOfGame(from).join(', ')}`;
  }
  if (rulesetsOfGame(from).includes(to)) return undefined;
  return `${to} is a ruleset of ${rulesetIdentity(to).game}; this ${plugin.tableNoun} plays ${from} (${rulesetIdentity(from).game}) and takes ${rulesetsOfGame(from).join(', ')}`;
}

/** The plug-in whose table takes a request op (none for the ops every table takes). */
export function gameOfRequest(op: string): GamePlugin | undefined {
  return GAME_PLUGINS.find((plugin) => plugin.requestOps.includes(op));
}

/** The plug-in whose session takes a table-log input of that type. */
export function gameOfInput(type: string): GamePlugin | undefined {
  return GAME_PLUGINS.find((plugin) => (plugin.inputTypes as readonly string[]).includes(type));
}

/** A result event in sentences, by the game it is a result of; undefined for any other event. */
export function resultWordsOf(event: DomainEvent): string[] | undefined {
  for (const plugin of GAME_PLUGINS) {
    const words = plugin.resultWords(event);
    if (words) return words;
  }
  return undefined;
}

export type { GamePlugin, GameSession, RulesetIdentity } from './game.ts';
