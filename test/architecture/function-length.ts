/**
 * Issue 26 item 6: a function hundreds of lines long is a class or a table in
 * disguise. In the pure folders (the protocol, the engines, the table, the
 * analysis) no function may pass MAX_FUNCTION_LINES; the check measures each
 * function on the TypeScript AST, from its first line to its last.
 */
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 120;

/** The folders held to the limit: ARCHITECTURE.md's pure folders. */
export const LENGTH_CHECKED_FOLDERS = [
  'device-protocol/',
  'firmware-host/engine/',
  'firmware-host/table/',
  'firmware-host/analysis/',
] as const;

export interface FunctionLength {
  file: string;
  /** The declared name, or the variable, property or method it is assigned to. */
  name: string;
  /** 1-based line of its first line. */
  line: number;
  lines: number;
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText(source);
  }
  if (ts.isPropertyDeclaration(parent)) return parent.name.getText(source);
  return '(anonymous)';
}

/** Every function, arrow, method and accessor of one file, with its length in lines. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ file, name: nameOf(node, source), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The functions of the pure folders longer than the limit, as `file:line name (N lines)`. */
export function overlongFunctions(
  tree: ReadonlyMap<string, string>,
  max = MAX_FUNCTION_LINES,
): string[] {
  return [...tree]
    .filter(([file]) => LENGTH_CHECKED_FOLDERS.some((folder) => file.startsWith(folder)))
    .flatMap(([file, text]) => functionLengths(file, text))
    .filter((fn) => fn.lines > max)
    .map((fn) => `${fn.file}:${fn.line} ${fn.name} (${fn.lines} lines, limit ${max})`);
}
