/**
 * The dependency check: reads every source file with the TypeScript parser
 * (no type checker, so it takes a second), collects what each file imports
 * (static, `export … from`, type-only, dynamic `import()` and `require()`)
 * and what globals pure code touches, and holds them against the rules in
 * `rules.ts`. Pure: it is handed the files' text, so the tests can check a
 * tree with a planted violation without writing it to disk.
 *
 * Why our own and not dependency-cruiser: the rules need the AST anyway for
 * the banned globals of pure folders (a `setTimeout`, `process.env` or
 * `Math.random` is not an import), and this check is one small module on the
 * `typescript` package the project already has, with no configuration
 * language of its own to keep in step with ARCHITECTURE.md.
 */
import { posix } from 'node:path';
import ts from 'typescript';
import {
  type FolderRule,
  PURE_BANNED_CRYPTO_IMPORTS,
  PURE_BANNED_GLOBALS,
  PURE_BANNED_MEMBERS,
  ruleFor,
} from './rules.ts';

export interface ImportEdge {
  /** What the file wrote: `../engine/games.ts`, `zod`, `node:net`. */
  specifier: string;
  /** Our own module, as a path from the repository root; undefined for a package. */
  target?: string;
  /** `type` imports exist only for the compiler. */
  typeOnly: boolean;
  /** `import(...)` or `require(...)`. */
  dynamic: boolean;
  line: number;
}

export interface FileFacts {
  imports: ImportEdge[];
  /** Dynamic imports or requires whose module is computed, not a string. */
  computedImports: number[];
  /** Globals pure code may not touch, with their line. */
  globals: { name: string; line: number }[];
}

export interface Violation {
  file: string;
  line: number;
  /** A sentence naming what is wrong and the rule it breaks. */
  message: string;
}

/** The package a specifier names: `mqtt/lib/client` → `mqtt`, `@a/b/c` → `@a/b`, `node:fs/promises` → `node:fs`. */
export function packageOf(specifier: string): string {
  if (specifier.startsWith('node:')) return specifier.split('/')[0]!;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

/** Reads one file's imports and the banned globals it uses. */
export function factsOf(path: string, text: string): FileFacts {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const facts: FileFacts = { imports: [], computedImports: [], globals: [] };
  const lineOf = (node: ts.Node) =>
    source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const declared = declaredNames(source);
  const add = (specifier: string, node: ts.Node, typeOnly: boolean, dynamic: boolean) => {
    const target = isRelative(specifier)
      ? posix.normalize(posix.join(posix.dirname(path), specifier))
      : undefined;
    facts.imports.push({ specifier, target, typeOnly, dynamic, line: lineOf(node) });
  };

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, node, typeOnly, false);
      if (
        node.moduleSpecifier.text === 'node:crypto' &&
        clause?.namedBindings &&
        ts.isNamedImports(clause.namedBindings)
      ) {
        for (const element of clause.namedBindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (PURE_BANNED_CRYPTO_IMPORTS.has(imported)) {
            facts.globals.push({ name: `${imported} from node:crypto`, line: lineOf(element) });
          }
        }
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node, node.isTypeOnly, false);
    } else if (ts.isImportTypeNode(node)) {
      // `typeof import('x')` in a type position.
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
        add(argument.literal.text, node, true, false);
      }
    } else if (ts.isCallExpression(node)) {
      const isImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isImport || isRequire) {
        const first = node.arguments[0];
        if (first && ts.isStringLiteralLike(first)) add(first.text, node, false, true);
        else facts.computedImports.push(lineOf(node));
      }
    }
    if (ts.isIdentifier(node) && PURE_BANNED_GLOBALS.has(node.text) && isGlobalUse(node)) {
      if (!declared.has(node.text)) facts.globals.push({ name: node.text, line: lineOf(node) });
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const member = `${node.expression.text}.${node.name.text}`;
      if (PURE_BANNED_MEMBERS.has(member)) facts.globals.push({ name: member, line: lineOf(node) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return facts;
}

/** Names the file declares itself (a local `console` is not the global one). */
function declaredNames(source: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (node: ts.Node): void => {
    if (
      (ts.isVariableDeclaration(node) ||
        ts.isFunctionDeclaration(node) ||
        ts.isClassDeclaration(node) ||
        ts.isParameter(node) ||
        ts.isImportSpecifier(node) ||
        ts.isImportClause(node) ||
        ts.isNamespaceImport(node)) &&
      node.name &&
      ts.isIdentifier(node.name)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return names;
}

/** An identifier used as a value in its own right, not a property name, a key or a type. */
function isGlobalUse(node: ts.Identifier): boolean {
  const parent = node.parent;
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false;
  if (ts.isPropertyAssignment(parent) && parent.name === node) return false;
  if (ts.isMethodDeclaration(parent) || ts.isPropertyDeclaration(parent)) return false;
  if (ts.isPropertySignature(parent) || ts.isMethodSignature(parent)) return false;
  if (ts.isQualifiedName(parent) || ts.isTypeReferenceNode(parent)) return false;
  if (ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false;
  if (ts.isTypeQueryNode(parent)) return false;
  return true;
}

/** Our own module a specifier resolves to, among the files we know. */
export function resolveOwn(target: string, files: ReadonlySet<string>): string | undefined {
  if (files.has(target)) return target;
  for (const candidate of [
    target.replace(/\.js$/, '.ts'),
    `${target}.ts`,
    posix.join(target, 'index.ts'),
  ]) {
    if (files.has(candidate)) return candidate;
  }
  return undefined;
}

/** Import circles among our own modules (runtime and type imports alike), each as its files, sorted. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  // Tarjan's strongly connected components, iterative so a deep chain cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work.at(-1)!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = (graph.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) cycles.push(component.sort());
      }
    }
  }
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

function allowedPackage(rule: FolderRule, specifier: string): boolean {
  const name = packageOf(specifier);
  return rule.packages.some((allowed) =>
    allowed.endsWith('*') ? name.startsWith(allowed.slice(0, -1)) : name === allowed,
  );
}

/** A file's facts, parsed once for each text it has. */
export function cachedFacts(
  file: string,
  text: string,
  cache: Map<string, { text: string; facts: FileFacts }>,
): FileFacts {
  let cached = cache.get(file);
  if (cached?.text !== text) {
    cached = { text, facts: factsOf(file, text) };
    cache.set(file, cached);
  }
  return cached.facts;
}

/**
 * Every violation in a tree of source files (path from the repository root →
 * text): imports against the folder rules, packages a folder may not use,
 * banned globals in pure folders, computed dynamic imports, import circles.
 * `cache` keeps each file's parse for the next call with the same text.
 */
export function checkTree(
  files: ReadonlyMap<string, string>,
  cache: Map<string, { text: string; facts: FileFacts }> = new Map(),
): Violation[] {
  const known = new Set(files.keys());
  const violations: Violation[] = [];
  const graph = new Map<string, string[]>();
  for (const [file, text] of files) {
    const rule = ruleFor(file);
    const facts = cachedFacts(file, text, cache);
    const edges: string[] = [];
    graph.set(file, edges);
    for (const edge of facts.imports) {
      if (edge.target !== undefined) {
        const target = resolveOwn(edge.target, known) ?? edge.target;
        if (known.has(target)) edges.push(target);
        if (!rule) continue;
        if (target === 'package.json') continue;
        if (!rule.ours.some((folder) => target.startsWith(folder))) {
          violations.push({
            file,
            line: edge.line,
            message: `imports ${target}, but ${rule.folder} may import only ${rule.ours.join(', ')}`,
          });
        }
      } else if (rule && !allowedPackage(rule, edge.specifier)) {
        violations.push({
          file,
          line: edge.line,
          message: `imports the package ${edge.specifier}${edge.dynamic ? ' (dynamically)' : ''}, which ${rule.folder} may not use (allowed: ${rule.packages.join(', ') || 'none'})`,
        });
      }
    }
    if (rule && !rule.computedImports) {
      for (const line of facts.computedImports) {
        violations.push({
          file,
          line,
          message: `imports a computed module name, which ${rule.folder} may not (name the module so the rules can check it)`,
        });
      }
    }
    if (rule?.pure) {
      for (const use of facts.globals) {
        violations.push({
          file,
          line: use.line,
          message: `uses ${use.name} in pure code (${rule.folder}): time, chance, the process and output come in as values`,
        });
      }
    }
  }
  for (const cycle of findCycles(graph)) {
    violations.push({
      file: cycle[0]!,
      line: 0,
      message: `is in an import circle with ${cycle.slice(1).join(', ')}`,
    });
  }
  return violations;
}

/** One line per violation, for a test failure or the terminal. */
export function describeViolation(violation: Violation): string {
  return `${violation.file}${violation.line ? `:${violation.line}` : ''} ${violation.message}`;
}
