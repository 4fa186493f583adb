/**
 * Issue 35: "the architecture check enforces ownership, not spelling: only a
 * game's own folder imports its modules". GAME_MODULES says, per game (its
 * plug-in's id), where its code lives today: its own folder
 * (`firmware-host/games/<game>/`) and each file or folder still outside it.
 * An import of a game's module from anywhere that is not that game's is an
 * ownership violation; the lines of a game's modules outside its folder are
 * counted, so the move has a figure to shrink.
 */
import { cachedFacts, type FileFacts, resolveOwn } from './check.ts';

/** A game's own folder: the only place its code belongs and that may name the game. */
export const gameFolder = (game: string) => `firmware-host/games/${game}/`;

/**
 * Each game's modules today: its folder first, then what still lives outside
 * it (a folder ends in `/`). Moving a file into the game's folder removes its
 * line here and the known imports of it.
 */
export const GAME_MODULES: Readonly<Record<string, readonly string[]>> = {
  cards: [
    gameFolder('cards'),
    // The poker rulesets' schemas join the card rulesets' union in engine/rulesets/schema.ts, the engine's contract.
    'firmware-host/engine/rulesets/poker.ts',
  ],
  roulette: [gameFolder('roulette')],
};

/** The registry reaches each game through its plug-in, and only through it. */
const REGISTRY = 'firmware-host/games/registry.ts';
const pluginOf = (game: string) => `${gameFolder(game)}plugin.ts`;

/** The game a file is a module of, or undefined for shared code. */
export function gameOwning(file: string): string | undefined {
  for (const [game, places] of Object.entries(GAME_MODULES)) {
    if (places.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place))) {
      return game;
    }
  }
  return undefined;
}

export interface OwnershipImport {
  file: string;
  line: number;
  /** `imports roulette's firmware-host/games/roulette/engine/bets.ts`. */
  what: string;
}

/** Every import of a game's module by code that is not that game's. */
export function ownershipImports(
  tree: ReadonlyMap<string, string>,
  cache: Map<string, { text: string; facts: FileFacts }> = new Map(),
): OwnershipImport[] {
  const files = new Set(tree.keys());
  const found: OwnershipImport[] = [];
  for (const [file, text] of tree) {
    const own = gameOwning(file);
    for (const edge of cachedFacts(file, text, cache).imports) {
      if (edge.target === undefined) continue;
      const target = resolveOwn(edge.target, files) ?? edge.target;
      const game = gameOwning(target);
      if (game === undefined || game === own) continue;
      if (file === REGISTRY && target === pluginOf(game)) continue;
      found.push({ file, line: edge.line, what: `imports ${game}'s ${target}` });
    }
  }
  return found;
}

/** Per game, the lines and files of its modules that are outside its own folder. */
export function linesOutsideGameFolders(
  tree: ReadonlyMap<string, string>,
): Record<string, { lines: number; files: number }> {
  const outside: Record<string, { lines: number; files: number }> = {};
  for (const game of Object.keys(GAME_MODULES)) outside[game] = { lines: 0, files: 0 };
  for (const [file, text] of tree) {
    const game = gameOwning(file);
    if (game === undefined || file.startsWith(gameFolder(game))) continue;
    outside[game]!.lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    outside[game]!.files++;
  }
  return outside;
}
