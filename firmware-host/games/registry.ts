/**
 * The game registry (issue 26): every game a table can play, as a plug-in.
 * Ruleset names share one namespace across plug-ins, so a ruleset's name
 * says which plug-in plays it. Adding a game is a folder beside these and
 * one line in GAME_PLUGINS.
 *
 * The registry is a value (GameRegistry, built from a list of plug-ins):
 * the composition roots (`tableside`'s commands, the daemon) use the one
 * installed with useGameRegistry, the shipped games by default, so a test
 * plugs a game of its own without editing a shipped file.
 */
import { EngineError } from '../engine/errors.ts';
import type { DomainEvent } from '../table/events.ts';
import { cardGames } from './cards/plugin.ts';
import type { GamePlugin, RulesetIdentity } from './game.ts';
import { checkGamePlugins, GameContractError } from './plugin-check.ts';
import { roulette } from './roulette/plugin.ts';

/** The shipped games: adding one is its folder and a line here. */
export const GAME_PLUGINS: readonly GamePlugin[] = [cardGames, roulette];

export class GameRegistry {
  readonly plugins: readonly GamePlugin[];
  #byRuleset: ReadonlyMap<string, GamePlugin> | undefined;
  #checked = false;

  constructor(plugins: readonly GamePlugin[]) {
    this.plugins = plugins;
  }

  /**
   * Throws a GameContractError naming each game and what it lacks (a part
   * of the contract, a view, a ruleset another game has too, a ruleset no
   * session opens for): what start-up checks before the first round.
   */
  check(): this {
    if (this.#checked) return this;
    const problems = checkGamePlugins(this.plugins);
    if (problems.length > 0) throw new GameContractError(problems);
    this.#checked = true;
    return this;
  }

  #rulesetIndex(): ReadonlyMap<string, GamePlugin> {
    if (this.#byRuleset) return this.#byRuleset;
    const index = new Map<string, GamePlugin>();
    for (const plugin of this.plugins) {
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
    this.#byRuleset = index;
    return index;
  }

  /** Every ruleset name a table may play, every game's. */
  allRulesetNames(): readonly string[] {
    return [...this.#rulesetIndex().keys()];
  }

  /** The known rulesets, by plug-in: "a, b (cards); c (roulette)". */
  knownRulesetsText(): string {
    return this.plugins
      .map((plugin) => `${plugin.rulesetNames().join(', ')} (${plugin.id})`)
      .join('; ');
  }

  findGameOf(ruleset: string): GamePlugin | undefined {
    return this.#rulesetIndex().get(ruleset);
  }

  gameOf(ruleset: string): GamePlugin {
    const plugin = this.findGameOf(ruleset);
    if (plugin) return plugin;
    throw new EngineError(
      'unknown_ruleset',
      `unknown ruleset ${JSON.stringify(ruleset)}: known rulesets are ${this.knownRulesetsText()}`,
    );
  }

  rulesetIdentity(ruleset: string): RulesetIdentity {
    const { game, name, title } = this.gameOf(ruleset).ruleset(ruleset);
    return { game, name, title };
  }

  rulesetsOfGame(ruleset: string): readonly string[] {
    const { game } = this.rulesetIdentity(ruleset);
    return this.gameOf(ruleset)
      .rulesetNames()
      .filter((name) => this.rulesetIdentity(name).game === game);
  }

  rulesetChangeRefusal(from: string, to: string): string | undefined {
    const owner = this.gameOf(to);
    const plugin = this.gameOf(from);
    const takes = this.rulesetsOfGame(from).join(', ');
    if (owner !== plugin) {
      return `${to} is a ${owner.tableNoun}'s ruleset; this ${plugin.tableNoun} plays ${from} and takes ${takes}`;
    }
    if (this.rulesetsOfGame(from).includes(to)) return undefined;
    return `${to} is a ruleset of ${this.rulesetIdentity(to).game}; this ${plugin.tableNoun} plays ${from} (${this.rulesetIdentity(from).game}) and takes ${takes}`;
  }

  gameOfRequest(op: string): GamePlugin | undefined {
    return this.plugins.find((plugin) => plugin.requestOps.includes(op));
  }

  gameOfInput(type: string): GamePlugin | undefined {
    return this.plugins.find((plugin) => (plugin.inputTypes as readonly string[]).includes(type));
  }

  exposedOutcomeOf(outcome: Record<string, unknown>): Record<string, unknown> {
    for (const plugin of this.plugins) {
      const exposed = plugin.exposedOutcome(outcome);
      if (exposed) return exposed;
    }
    return { game: outcome.game, bets: outcome.bets, withheld: true };
  }

  eventTextOf(event: DomainEvent): string {
    for (const plugin of this.plugins) {
      const text = plugin.eventText(event);
      if (text !== undefined) return text;
    }
    return event.type;
  }

  resultWordsOf(event: DomainEvent): string[] | undefined {
    // A result is first its own game's to word: the plug-in that exposes its outcome.
    const owner =
      event.type === 'result'
        ? this.plugins.find((plugin) => plugin.exposedOutcome(event.outcome) !== undefined)
        : undefined;
    const own = owner?.resultWords(event);
    if (own) return own;
    for (const plugin of this.plugins) {
      const words = plugin.resultWords(event);
      if (words) return words;
    }
    return undefined;
  }
}

let installed = new GameRegistry(GAME_PLUGINS);

/** The games this process plays: the shipped ones unless a composition root installed others. */
export function installedGames(): GameRegistry {
  return installed;
}

/**
 * Installs the games a composition root plays (a test's registry with a
 * fixture game). The start (`tableside run`, the daemon's start) checks
 * them: a plug-in that breaks the contract is refused there, naming the game
 * and what it lacks, never at the first round.
 */
export function useGameRegistry(registry: GameRegistry): void {
  installed = registry;
}

/** Every ruleset name a table may play, every game's. */
export function allRulesetNames(): readonly string[] {
  return installed.allRulesetNames();
}

/** The known rulesets, by plug-in: "a, b (cards); c (roulette)". */
export function knownRulesetsText(): string {
  return installed.knownRulesetsText();
}

/** The plug-in that plays a ruleset, or undefined for a name no game has. */
export function findGameOf(ruleset: string): GamePlugin | undefined {
  return installed.findGameOf(ruleset);
}

/** The plug-in that plays a ruleset; an unknown name is an EngineError listing the known ones. */
export function gameOf(ruleset: string): GamePlugin {
  return installed.gameOf(ruleset);
}

/** Game, name and title of any ruleset. */
export function rulesetIdentity(ruleset: string): RulesetIdentity {
  return installed.rulesetIdentity(ruleset);
}

/**
 * The rulesets a table playing `ruleset` may change to: its plug-in's of
 * the same game (`RulesetIdentity.game`). A table keeps its game for the
 * life of its journal.
 */
export function rulesetsOfGame(ruleset: string): readonly string[] {
  return installed.rulesetsOfGame(ruleset);
}

/**
 * Why a table playing `from` cannot take `to` (another plug-in's, or
 * another game's ruleset), naming both; undefined when it may (between
 * shoes, between games: the session says when).
 */
export function rulesetChangeRefusal(from: string, to: string): string | undefined {
  return installed.rulesetChangeRefusal(from, to);
}

/** The plug-in whose table takes a request op (none for the ops every table takes). */
export function gameOfRequest(op: string): GamePlugin | undefined {
  return installed.gameOfRequest(op);
}

/** The plug-in whose session takes a table-log input of that type. */
export function gameOfInput(type: string): GamePlugin | undefined {
  return installed.gameOfInput(type);
}

/**
 * A result's outcome as the table exposed it, by the game it is an outcome
 * of. An outcome of a game this build does not know (an older or newer
 * journal) shows only its bets: what it names of cards cannot be judged, so
 * none of it goes out.
 */
export function exposedOutcomeOf(outcome: Record<string, unknown>): Record<string, unknown> {
  return installed.exposedOutcomeOf(outcome);
}

/** One line for an event of a game's own, by its game; its type where no game words it. */
export function eventTextOf(event: DomainEvent): string {
  return installed.eventTextOf(event);
}

/** A result event in sentences, by the game it is a result of; undefined for any other event. */
export function resultWordsOf(event: DomainEvent): string[] | undefined {
  return installed.resultWordsOf(event);
}

export type { GamePlugin, GameSession, RulesetIdentity } from './game.ts';
export { GameContractError } from './plugin-check.ts';
