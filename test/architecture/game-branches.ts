/**
 * Issue 26: a table plays any game through its plug-in
 * (`firmware-host/games/`), so nothing outside a game's own code asks which
 * game it is. This check finds what would: a name starting `isRoulette` (and
 * its kin for other games), and a comparison (`===`, `!==`, `==`, `!=`,
 * `case`) with a string literal that is a game id or a game kind. A game's
 * own code (the registry and its plug-ins, the engines and rulesets, the
 * studies) may.
 */
import ts from 'typescript';

/** Where a game's own code lives: it may name its game. */
export const GAME_OWN_FOLDERS = [
  'firmware-host/games/',
  'firmware-host/engine/',
  'firmware-host/analysis/',
] as const;

/** A name that asks whether something is one game: `isRoulette`, `isRouletteRuleset`, `isBaccaratTable`… */
const GAME_PREDICATE = /^(?:is|deals)(?:Roulette|PuntoBanco|Baccarat|Blackjack|TripleShot|Poker)/;

function lineOf(source: ts.SourceFile, node: ts.Node): number {
  return source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
}

function literalOf(node: ts.Node): string | undefined {
  return ts.isStringLiteralLike(node) ? node.text : undefined;
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** Every branch on a game's name in one file, as `file:line: what`. */
export function gameBranchesIn(
  file: string,
  text: string,
  gameNames: ReadonlySet<string>,
): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && GAME_PREDICATE.test(node.text)) {
      found.push(`${file}:${lineOf(source, node)}: asks ${node.text}`);
    } else if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      const literal = literalOf(node.left) ?? literalOf(node.right);
      if (literal !== undefined && gameNames.has(literal)) {
        found.push(`${file}:${lineOf(source, node)}: compares with the game '${literal}'`);
      }
    } else if (ts.isCaseClause(node)) {
      const literal = literalOf(node.expression);
      if (literal !== undefined && gameNames.has(literal)) {
        found.push(`${file}:${lineOf(source, node)}: has a case for the game '${literal}'`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * What still branches on a game today, each with the work that removes it;
 * as with KNOWN_VIOLATIONS the check fails on anything else and on a listed
 * branch that is gone, so this list only shrinks. Keyed without line numbers.
 */
export const KNOWN_GAME_BRANCHES: readonly string[] = [
  // None left: the table asks the game's engine (`seatsBoxes`, `dealerReveal`), the CLI its plug-in and the games' own text and studies.
];

/** The key a branch is listed under: its file and what it does, without the line. */
export function gameBranchKey(branch: string): string {
  return branch.replace(/^([^:]+):\d+: /, '$1: ');
}

/** Every branch on a game's name outside the games' own folders. */
export function gameBranches(
  tree: ReadonlyMap<string, string>,
  gameNames: ReadonlySet<string>,
): string[] {
  return [...tree].flatMap(([file, text]) =>
    GAME_OWN_FOLDERS.some((folder) => file.startsWith(folder))
      ? []
      : gameBranchesIn(file, text, gameNames),
  );
}
