/**
 * Issue 26 and 35: a table plays any game through its plug-in and any device
 * through its kind's profile, so nothing outside a game's own folder
 * (`firmware-host/games/<game>/`) asks which game, ruleset or game tag it
 * is, and nothing outside a device kind's profile asks which kind. Spelling
 * (`isRoulette…`) is not enough: this check finds every way code compares
 * with such a name, whatever the name is spelled like: `===`, `!==`, `==`,
 * `!=`, `case`, `.includes(…)`, `.startsWith(…)`, `.endsWith(…)`, a literal
 * list's `.includes`/`.has`/`.indexOf`, `in`, and a lookup keyed by the name
 * (`table['wheel']`, `({ shoe: a, wheel: b })[kind]`), in TypeScript and in
 * the web console's `public/*.js`; and a list or union type spelling out two
 * or more device kinds (`['shoe', 'shuffler']`, `'shoe' | 'wheel'`), which a
 * profile registry replaces. The names come from `vocabulary.ts`.
 */
import ts from 'typescript';
import { DEVICE_PROFILES } from '../../firmware-host/drivers/profiles/registry.ts';
import { gameOwning } from './game-ownership.ts';
import type { BranchName } from './vocabulary.ts';

/**
 * Where each device kind's profile lives, the only place that may branch on
 * the kind (issue 35 item 2): the drivers' profile of each shipped kind.
 */
export const DEVICE_KIND_PROFILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.keys(DEVICE_PROFILES).map((kind) => [kind, `firmware-host/drivers/profiles/${kind}.ts`]),
);

/** A name that asks whether something is one game: `isRoulette`, `isRouletteRuleset`, `isBaccaratTable`… */
const GAME_PREDICATE = /^(?:is|deals)(?:Roulette|PuntoBanco|Baccarat|Blackjack|TripleShot|Poker)/;

export interface Branch {
  file: string;
  line: number;
  /** What the code does, naming the name: `compares with the game 'roulette'`. */
  what: string;
  /** The device kind or game name it branches on (a game predicate: its game's word). */
  on: 'game' | 'device kind';
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);
/** Methods that ask a string about a name (`kind.startsWith('wheel')`). */
const STRING_TESTS = new Set(['includes', 'startsWith', 'endsWith', 'indexOf']);
/** Methods that look a value up in a list or a set (`['shoe', 'wheel'].includes(kind)`). */
const LIST_TESTS = new Set(['includes', 'has', 'indexOf', 'some', 'find']);

function literalOf(node: ts.Node | undefined): string | undefined {
  return node && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** The string literals of a list literal: `['a', 'b']`, `new Set(['a', 'b'])`. */
function listLiterals(node: ts.Expression): string[] {
  let list: ts.Node = node;
  while (ts.isParenthesizedExpression(list) || ts.isAsExpression(list)) list = list.expression;
  if (ts.isNewExpression(list) && list.arguments?.[0]) list = list.arguments[0];
  if (!ts.isArrayLiteralExpression(list)) return [];
  return list.elements.flatMap((element) => literalOf(element) ?? []);
}

/** The keys of an object literal: `{ shoe: a, 'wheel': b }`. */
function objectKeys(node: ts.Expression): string[] {
  let object: ts.Node = node;
  while (ts.isParenthesizedExpression(object) || ts.isAsExpression(object))
    object = object.expression;
  if (!ts.isObjectLiteralExpression(object)) return [];
  return object.properties.flatMap((property) => {
    const name = property.name;
    if (!name) return [];
    if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return [name.text];
    return [];
  });
}

/** A list a list test is called on (`['a', 'b'].includes(x)`): reported as that lookup. */
function isListTestReceiver(node: ts.Node): boolean {
  const holder = ts.isNewExpression(node.parent) ? node.parent : node;
  return ts.isPropertyAccessExpression(holder.parent) && LIST_TESTS.has(holder.parent.name.text);
}

/** Every branch on a game's or a device kind's name in one file, wherever it is. */
export function branchesIn(
  file: string,
  text: string,
  names: ReadonlyMap<string, BranchName>,
): (Branch & { name?: BranchName })[] {
  const kind = file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found: (Branch & { name?: BranchName })[] = [];
  const add = (node: ts.Node, literals: readonly string[], does: (named: string) => string) => {
    const named = literals.filter((literal) => names.has(literal));
    if (named.length === 0) return;
    const first = names.get(named[0]!)!;
    const what = named.map((literal) => `the ${names.get(literal)!.kind} '${literal}'`).join(', ');
    found.push({
      file,
      line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
      what: does(what),
      on: first.kind === 'device kind' ? 'device kind' : 'game',
      name: first,
    });
  };
  const deviceKindsOf = (literals: string[]) =>
    literals.filter((literal) => names.get(literal)?.kind === 'device kind');
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && GAME_PREDICATE.test(node.text)) {
      found.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        what: `asks ${node.text}`,
        on: 'game',
      });
    } else if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const literal = literalOf(node.left) ?? literalOf(node.right);
      add(node, literal === undefined ? [] : [literal], (what) => `compares with ${what}`);
    } else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InKeyword) {
      const literal = literalOf(node.left);
      add(node, literal === undefined ? objectKeys(node.right) : [literal], (what) =>
        literal === undefined
          ? `asks 'in' a table keyed by ${what}`
          : `asks whether ${what} is 'in' it`,
      );
    } else if (ts.isCaseClause(node)) {
      const literal = literalOf(node.expression);
      add(node, literal === undefined ? [] : [literal], (what) => `has a case for ${what}`);
    } else if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression)) {
      const method = node.expression.name.text;
      const literal = literalOf(node.arguments[0]);
      if (STRING_TESTS.has(method) && literal !== undefined) {
        add(node, [literal], (what) => `looks for ${what} with .${method}`);
      }
      if (LIST_TESTS.has(method)) {
        add(
          node,
          listLiterals(node.expression.expression),
          (what) => `looks up ${what} in a list with .${method}`,
        );
      }
    } else if (ts.isElementAccessExpression(node)) {
      const literal = literalOf(node.argumentExpression);
      add(node, literal === undefined ? objectKeys(node.expression) : [literal], (what) =>
        literal === undefined ? `looks up a table keyed by ${what}` : `looks up the key ${what}`,
      );
    } else if (ts.isArrayLiteralExpression(node) && !isListTestReceiver(node)) {
      const kinds = deviceKindsOf(node.elements.flatMap((element) => literalOf(element) ?? []));
      if (kinds.length >= 2) add(node, kinds, (what) => `spells out ${what}`);
    } else if (ts.isUnionTypeNode(node)) {
      const kinds = deviceKindsOf(
        node.types.flatMap((type) =>
          ts.isLiteralTypeNode(type) ? (literalOf(type.literal) ?? []) : [],
        ),
      );
      if (kinds.length >= 2) add(node, kinds, (what) => `spells out ${what}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * Whether `file` may branch on this name: a game's name in the game's own
 * code (its folder, or a module GAME_MODULES still places outside it, which
 * that map already counts), a device kind in its profile.
 */
function mayName(file: string, branch: Branch & { name?: BranchName }): boolean {
  if (branch.name === undefined) return gameOwning(file) !== undefined;
  const game = branch.name.game;
  if (game !== undefined) return gameOwning(file) === game;
  const profile = /'([^']+)'/.exec(branch.what)?.[1];
  const folder = profile === undefined ? undefined : DEVICE_KIND_PROFILES[profile];
  return folder !== undefined && file.startsWith(folder);
}

/** Every branch on a game or a device kind where the tree may not have one, as `file:line: what`. */
export function misplacedBranches(
  tree: ReadonlyMap<string, string>,
  names: ReadonlyMap<string, BranchName>,
  cache: Map<string, { text: string; branches: Branch[] }> = new Map(),
): Branch[] {
  return [...tree].flatMap(([file, text]) => {
    let cached = cache.get(file);
    if (cached?.text !== text) {
      const branches = branchesIn(file, text, names)
        .filter((branch) => !mayName(file, branch))
        .map(({ file: at, line, what, on }) => ({ file: at, line, what, on }));
      cached = { text, branches };
      cache.set(file, cached);
    }
    return cached.branches;
  });
}

/** The key a branch is listed under: its file and what it does, without the line. */
export function branchKey(branch: Branch): string {
  return `${branch.file}: ${branch.what}`;
}

/** One line per branch, for a test failure or the terminal. */
export function describeBranch(branch: Branch): string {
  return `${branch.file}:${branch.line}: ${branch.what}`;
}
