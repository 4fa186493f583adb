/**
 * The plug-in contract's start-up check (issue 35 "Bad input"): a game that
 * lacks a part the contract requires, a view for one of its rulesets, a
 * ruleset name of its own (another game has it too), or a ruleset no
 * session opens for (no engine serves its game) is refused when the table
 * starts, with a message naming the game and what it lacks, never at the
 * first round.
 */
import type { GamePlugin } from './game.ts';

type Part = 'text' | 'function' | 'list' | 'table';

/**
 * Every part a plug-in must have, and what it is. Keyed by the contract's
 * own members, so the compiler refuses this table when the contract gains a
 * part it does not check (only the optional `nextShuffle` and `simulate` are left out).
 */
const REQUIRED_PARTS: Readonly<
  Record<Exclude<keyof GamePlugin, 'nextShuffle' | 'simulate'>, Part>
> = {
  id: 'text',
  tableNoun: 'text',
  rulesetNames: 'function',
  ruleset: 'function',
  deviceKinds: 'list',
  defaultDevices: 'table',
  simulator: 'text',
  simulatorHint: 'text',
  diagSimulation: 'text',
  inputTypes: 'list',
  requestOps: 'list',
  rulesetChangeRule: 'text',
  rotatesPerShoe: 'function',
  webView: 'function',
  webModules: 'list',
  webViews: 'function',
  scoreboard: 'function',
  shufflerBacks: 'function',
  dayHistory: 'function',
  resultWords: 'function',
  exposedOutcome: 'function',
  eventText: 'function',
  // gameweb: a game's own watch beside the web console, where its browser modules live
  webWatch: 'function',
  webFolder: 'text',
  openSession: 'function',
  ownsCheckpoint: 'function',
  restoreSession: 'function',
  publishedFolds: 'function',
  consolePress: 'function',
  consoleStep: 'function',
  viewLines: 'function',
  cli: 'function',
};

function isPart(value: unknown, part: Part): boolean {
  switch (part) {
    case 'text':
      return typeof value === 'string' && value.length > 0;
    case 'function':
      return typeof value === 'function';
    case 'list':
      return Array.isArray(value);
    case 'table':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
  }
}

const PART_WORDS: Readonly<Record<Part, string>> = {
  text: 'a text',
  function: 'a function',
  list: 'a list',
  table: 'a table',
};

/** What one plug-in lacks, each naming the part or the ruleset; empty when it keeps the contract. */
function partsMissing(plugin: GamePlugin, name: string): string[] {
  const problems: string[] = [];
  for (const [key, part] of Object.entries(REQUIRED_PARTS) as [keyof GamePlugin, Part][]) {
    if (!isPart(plugin[key], part)) {
      problems.push(
        `game ${name} has no ${key} (the plug-in contract needs ${PART_WORDS[part]}, games/game.ts)`,
      );
    }
  }
  return problems;
}

/** What one ruleset of a complete plug-in lacks: its identity, its view, a session. */
function rulesetProblems(plugin: GamePlugin, ruleset: string): string[] {
  const where = `game ${plugin.id}, ruleset ${ruleset}`;
  try {
    const identity = plugin.ruleset(ruleset);
    if (identity.name !== ruleset || typeof identity.game !== 'string' || identity.game === '') {
      return [
        `${where}: its identity names ${JSON.stringify(identity.name)} of game ${JSON.stringify(identity.game)}`,
      ];
    }
  } catch (error) {
    return [`${where}: no identity (${(error as Error).message})`];
  }
  const problems: string[] = [];
  try {
    const view: unknown = plugin.webView(ruleset);
    if (typeof view !== 'string' || view === '') problems.push(`${where}: has no web view`);
  } catch (error) {
    problems.push(`${where}: has no web view (${(error as Error).message})`);
  }
  try {
    const modules = new Set(plugin.webModules);
    for (const [part, module] of Object.entries(plugin.webViews(ruleset))) {
      if (typeof module === 'string' && !modules.has(module)) {
        problems.push(`${where}: its ${part} view ${module} is not one of its web modules`);
      }
    }
  } catch (error) {
    problems.push(`${where}: has no web views (${(error as Error).message})`);
  }
  try {
    plugin.openSession(ruleset, { autoRound: false });
  } catch (error) {
    problems.push(
      `${where}: no session opens, so no table could deal it (${(error as Error).message})`,
    );
  }
  return problems;
}

/**
 * Every way the plug-ins break the contract, each naming the game and what
 * it lacks; empty when they keep it. Pure: it opens a session of each
 * ruleset and writes nothing.
 */
export function checkGamePlugins(plugins: readonly GamePlugin[]): string[] {
  const problems: string[] = [];
  const owner = new Map<string, string>();
  const ids = new Set<string>();
  for (const [index, plugin] of plugins.entries()) {
    const name = typeof plugin.id === 'string' && plugin.id !== '' ? plugin.id : `#${index + 1}`;
    if (ids.has(name)) problems.push(`two games are named ${name}`);
    ids.add(name);
    const missing = partsMissing(plugin, name);
    if (missing.length > 0) {
      problems.push(...missing);
      continue;
    }
    for (const ruleset of plugin.rulesetNames()) {
      const other = owner.get(ruleset);
      if (other !== undefined) {
        problems.push(
          `game ${name}: ruleset id ${ruleset} is game ${other}'s too (ruleset names are one namespace across games)`,
        );
        continue;
      }
      owner.set(ruleset, name);
      problems.push(...rulesetProblems(plugin, ruleset));
    }
  }
  return problems;
}

/** The plug-ins break the contract: each problem names the game and what it lacks. */
export class GameContractError extends Error {
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`the games break the plug-in contract: ${problems.join('; ')}`);
    this.name = 'GameContractError';
    this.problems = problems;
  }
}
