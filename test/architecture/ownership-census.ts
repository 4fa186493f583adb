/**
 * The whole tree's game and device-kind census (issue 35): every misplaced
 * branch and every ownership import, against the known lists, and the
 * one-line summary a closing note quotes for its before/after figures.
 */

import type { FileFacts } from './check.ts';
import { type Branch, branchKey, misplacedBranches } from './game-branches.ts';
import {
  linesOutsideGameFolders,
  type OwnershipImport,
  ownershipImports,
} from './game-ownership.ts';
import type { BranchName } from './vocabulary.ts';

export interface Census {
  branches: Branch[];
  imports: OwnershipImport[];
  /** Per game: the lines and files of its modules outside its folder. */
  outside: Record<string, { lines: number; files: number }>;
}

export interface CensusCaches {
  facts: Map<string, { text: string; facts: FileFacts }>;
  branches: Map<string, { text: string; branches: Branch[] }>;
}

export function takeCensus(
  tree: ReadonlyMap<string, string>,
  names: ReadonlyMap<string, BranchName>,
  caches: CensusCaches = { facts: new Map(), branches: new Map() },
): Census {
  return {
    branches: misplacedBranches(tree, names, caches.branches),
    imports: ownershipImports(tree, caches.facts),
    outside: linesOutsideGameFolders(tree),
  };
}

/** The key an ownership import is listed under: its file and what it imports, without the line. */
export function importKey(found: OwnershipImport): string {
  return `${found.file}: ${found.what}`;
}

/** The one line a closing note quotes: counts of sites (keys in brackets). */
export function censusSummary(census: Census): string {
  const game = census.branches.filter((branch) => branch.on === 'game');
  const device = census.branches.filter((branch) => branch.on === 'device kind');
  const keys = (list: Branch[]) => new Set(list.map(branchKey)).size;
  const importKeys = new Set(census.imports.map(importKey)).size;
  const outside = Object.entries(census.outside)
    .map(([name, { lines, files }]) => `${name} ${lines} lines in ${files} files`)
    .join(', ');
  return (
    `ownership: ${game.length} game branches (${keys(game)} listed keys), ` +
    `${device.length} device-kind branches (${keys(device)}), ` +
    `${census.imports.length} imports of a game's module from outside it (${importKeys}); ` +
    `outside its folder: ${outside}`
  );
}
