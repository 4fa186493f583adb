/**
 * Prints `known-branches.ts` as the tree has it now, keeping the work noted
 * for each entry already listed and naming the default work for a new one.
 * After merges change the code:
 *
 *   npx tsx test/architecture/print-known.ts > /tmp/known.ts && mv /tmp/known.ts test/architecture/known-branches.ts && npx biome format --write test/architecture/known-branches.ts
 *
 * then read the diff: an entry that appeared is a new branch or import to
 * remove (or to justify), one that went is work done.
 */
import { resolve } from 'node:path';
import { branchKey } from './game-branches.ts';
import { gameOwning } from './game-ownership.ts';
import { KNOWN_BRANCHES, KNOWN_OWNERSHIP_IMPORTS } from './known-branches.ts';
import { censusSummary, importKey, takeCensus } from './ownership-census.ts';
import { readBrowserScripts, readSourceTree } from './tree.ts';
import { branchVocabulary } from './vocabulary.ts';

const ROOT = resolve(import.meta.dirname, '../..');

function workForBranch(key: string): string {
  if (key.includes(': spells out ')) {
    return "reads the kinds from the device kinds' profile registry (issue 35 item 2)";
  }
  if (key.includes('the device kind')) {
    return "asks the device kind's profile (issue 35 item 2)";
  }
  return "asks the game's plug-in (issue 35 item 1)";
}

function workForImport(file: string, game: string): string {
  return gameOwning(file) === undefined
    ? `asks the ${game} plug-in instead (issue 35 item 1)`
    : `the other game's code asks the ${game} plug-in instead (issue 35 item 1)`;
}

function entries(list: Map<string, string>): string {
  return [...list]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, work]) => `  ${JSON.stringify(key)}: ${JSON.stringify(work)},`)
    .join('\n');
}

const tree = new Map([...readSourceTree(ROOT), ...readBrowserScripts(ROOT)]);
const census = takeCensus(tree, branchVocabulary());
const branches = new Map<string, string>();
for (const key of census.branches.map(branchKey)) {
  branches.set(key, KNOWN_BRANCHES[key] ?? workForBranch(key));
}
const imports = new Map<string, string>();
for (const found of census.imports) {
  const key = importKey(found);
  const game = /imports (\S+)'s /.exec(found.what)?.[1] ?? 'game';
  imports.set(key, KNOWN_OWNERSHIP_IMPORTS[key] ?? workForImport(found.file, game));
}

process.stdout.write(`/**
 * What still branches on a game or a device kind outside its own code, and
 * what imports a game's module from outside the game (issue 35), each keyed
 * by its file and what it does (no line number) with the work that removes
 * it. The check fails on anything not listed and on a listed entry that is
 * gone, so these lists only shrink. Printed by print-known.ts; at printing:
 * ${censusSummary(census)}.
 */

/** Branch on a game's or a device kind's name → the work that removes it. */
export const KNOWN_BRANCHES: Readonly<Record<string, string>> = {
${entries(branches)}
};

/** Import of a game's module from outside that game → the work that removes it. */
export const KNOWN_OWNERSHIP_IMPORTS: Readonly<Record<string, string>> = {
${entries(imports)}
};
`);
