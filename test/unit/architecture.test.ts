/**
 * ARCHITECTURE.md's rules, checked on every source file by
 * `test/architecture/check.ts`: who may import whom (static, type-only,
 * dynamic and `require`), which packages each folder may use, that pure
 * folders touch no timer, clock, chance, process or output, and that no
 * import circle exists. Each planted violation below must fail the check.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVICE_PROFILES } from '../../firmware-host/drivers/profiles/registry.ts';
import { GAME_PLUGINS } from '../../firmware-host/games/registry.ts';
import {
  checkTree,
  describeViolation,
  type FileFacts,
  type Violation,
} from '../architecture/check.ts';
import {
  functionLengths,
  MAX_FUNCTION_LINES,
  overlongFunctions,
} from '../architecture/function-length.ts';
import { branchKey, describeBranch } from '../architecture/game-branches.ts';
import { GAME_MODULES, gameFolder } from '../architecture/game-ownership.ts';
import { KNOWN_BRANCHES, KNOWN_OWNERSHIP_IMPORTS } from '../architecture/known-branches.ts';
import { KNOWN_VIOLATIONS, violationKey } from '../architecture/known-violations.ts';
import { censusSummary, importKey, takeCensus } from '../architecture/ownership-census.ts';
import { PLANTED_BRANCHES, PLANTED_IMPORTS } from '../architecture/planted-branches.ts';
import { renderRulesTable } from '../architecture/rules.ts';
import { unexplainedSilentCatches } from '../architecture/silent-catches.ts';
import { readBrowserScripts, readSourceTree } from '../architecture/tree.ts';
import { branchVocabulary } from '../architecture/vocabulary.ts';

const ROOT = resolve(import.meta.dirname, '../..');

const TREE = readSourceTree(ROOT);
const CACHE = new Map<string, { text: string; facts: FileFacts }>();

function unlisted(violations: Violation[]): string[] {
  const known = new Set(KNOWN_VIOLATIONS);
  return violations
    .filter((violation) => !known.has(violationKey(violation.file, violation.message)))
    .map(describeViolation);
}

interface PlantedViolation {
  kind: string;
  file: string;
  source: string;
  /** What the check must say about `file`. */
  says: RegExp;
}

/** The kinds of violation the old check let through, and more: each must fail. */
const PLANTED: PlantedViolation[] = [
  {
    kind: 'a timer in pure code',
    file: 'firmware-host/engine/planted.ts',
    source: 'export const later = (f: () => void) => setTimeout(f, 10);\n',
    says: /uses setTimeout in pure code/,
  },
  {
    kind: 'the environment in pure code',
    file: 'firmware-host/table/planted.ts',
    source: "export const mode = process.env.MODE ?? 'x';\n",
    says: /uses process in pure code/,
  },
  {
    kind: 'output in pure code',
    file: 'firmware-host/analysis/planted.ts',
    source: "export function say(): void { console.log('hi'); }\n",
    says: /uses console in pure code/,
  },
  {
    kind: 'randomUUID imported into pure code',
    file: 'device-protocol/planted.ts',
    source: "import { randomUUID } from 'node:crypto';\nexport const id = () => randomUUID();\n",
    says: /uses randomUUID from node:crypto in pure code/,
  },
  {
    kind: 'crypto.randomUUID through a namespace in pure code',
    file: 'firmware-host/engine/planted.ts',
    source:
      "import * as crypto from 'node:crypto';\nexport const id = () => crypto.randomUUID();\n",
    says: /uses crypto\.randomUUID in pure code/,
  },
  {
    kind: 'the clock in pure code',
    file: 'firmware-host/table/planted.ts',
    source: 'export const now = () => Date.now();\n',
    says: /uses Date in pure code/,
  },
  {
    kind: 'a high-resolution clock in pure code',
    file: 'device-protocol/auth/planted.ts',
    source: 'export const now = () => performance.now();\n',
    says: /uses performance in pure code/,
  },
  {
    kind: 'chance in pure code',
    file: 'firmware-host/analysis/planted.ts',
    source: 'export const coin = () => Math.random() < 0.5;\n',
    says: /uses Math\.random in pure code/,
  },
  {
    kind: 'a dynamic import of the network in pure code',
    file: 'firmware-host/table/planted.ts',
    source: "export const net = () => import('node:net');\n",
    says: /imports the package node:net \(dynamically\)/,
  },
  {
    kind: 'a require in pure code',
    file: 'firmware-host/engine/planted.ts',
    source: "export const fs = require('node:fs');\n",
    says: /imports the package node:fs \(dynamically\)/,
  },
  {
    kind: 'serialport imported in the engine',
    file: 'firmware-host/engine/planted.ts',
    source: "import { SerialPort } from 'serialport';\nexport const Port = SerialPort;\n",
    says: /imports the package serialport, which firmware-host\/engine\/ may not use/,
  },
  {
    kind: 'the journal importing the daemon',
    file: 'firmware-host/journal/planted.ts',
    source:
      "import { TableDaemon } from '../daemon/table-daemon.ts';\nexport const Daemon = TableDaemon;\n",
    says: /imports firmware-host\/daemon\/table-daemon\.ts, but firmware-host\/journal\//,
  },
  {
    kind: 'the web console importing the daemon',
    file: 'firmware-host/web/planted.ts',
    source:
      "import type { TableDaemon } from '../daemon/table-daemon.ts';\nexport type D = TableDaemon;\n",
    says: /imports firmware-host\/daemon\/table-daemon\.ts, but firmware-host\/web\//,
  },
  {
    kind: 'mqtt importing web',
    file: 'firmware-host/mqtt/planted.ts',
    source: "export { WebConsole } from '../web/server.ts';\n",
    says: /imports firmware-host\/web\/server\.ts, but firmware-host\/mqtt\//,
  },
  {
    kind: 'device code importing host code, type-only',
    file: 'hardware/device/planted.ts',
    source:
      "import type { TableConfig } from '../../firmware-host/config/schema.ts';\nexport type C = TableConfig;\n",
    says: /imports firmware-host\/config\/schema\.ts, but hardware\//,
  },
  {
    kind: 'firmware importing the host (a diag report type)',
    file: 'hardware/firmware/planted.ts',
    source:
      "import type { CheckOutcome } from '../../firmware-host/diag/report.ts';\nexport type O = CheckOutcome;\n",
    says: /imports firmware-host\/diag\/report\.ts, but hardware\//,
  },
  {
    kind: 'a package the folder may not use',
    file: 'firmware-host/web/planted.ts',
    source: "import mqtt from 'mqtt';\nexport const m = mqtt;\n",
    says: /imports the package mqtt, which firmware-host\/web\/ may not use/,
  },
  {
    kind: 'a computed dynamic import',
    file: 'firmware-host/mqtt/planted.ts',
    source: 'export const load = (name: string) => import(name);\n',
    says: /imports a computed module name/,
  },
  {
    kind: 'an import circle',
    file: 'firmware-host/trust/planted-a.ts',
    source: "import { b } from './planted-b.ts';\nexport const a = () => b;\n",
    says: /is in an import circle with firmware-host\/trust\/planted-b\.ts/,
  },
];

/** The other half of the planted circle. */
const CIRCLE_PARTNER = [
  'firmware-host/trust/planted-b.ts',
  "import { a } from './planted-a.ts';\nexport const b = () => a;\n",
] as const;

describe('architecture', () => {
  it('reads the sources it checks', () => {
    expect(TREE.size).toBeGreaterThan(200);
  });

  it('finds no violation beyond the known ones that issue 26 removes', () => {
    expect(unlisted(checkTree(TREE, CACHE))).toEqual([]);
  });

  it('lists no known violation that no longer happens (the list only shrinks)', () => {
    const found = new Set(
      checkTree(TREE, CACHE).map((violation) => violationKey(violation.file, violation.message)),
    );
    expect(KNOWN_VIOLATIONS.filter((known) => !found.has(known))).toEqual([]);
  });

  it.each(PLANTED)('fails on $kind', ({ file, source, says }) => {
    const tree = new Map(TREE).set(file, source).set(...CIRCLE_PARTNER);
    const about = unlisted(checkTree(tree, CACHE)).filter((line) => line.startsWith(file));
    expect(
      about.some((line) => says.test(line)),
      about.join('\n'),
    ).toBe(true);
  });

  it('does not mistake a local name, a property or a type for a banned global', () => {
    const tree = new Map(TREE).set(
      'firmware-host/engine/planted.ts',
      [
        'export function schedule(setTimeout: (f: () => void) => void) { setTimeout(() => {}); }',
        'export const clock = { now: 0, Date: 1 };',
        'export type Stamp = { process: number };',
        'export const read = (o: { console: number }) => o.console;',
        '',
      ].join('\n'),
    );
    expect(unlisted(checkTree(tree, CACHE))).toEqual([]);
  });

  it('says what ARCHITECTURE.md says: its table is rendered from the rules', () => {
    const doc = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const between = /<!-- rules:begin -->\n([\s\S]*?)\n<!-- rules:end -->/.exec(doc);
    expect(between?.[1]).toBe(renderRulesTable());
  });
});

describe('game and device-kind ownership (issue 35: ownership, not spelling)', () => {
  const NAMES = branchVocabulary();
  const WHOLE = new Map([...TREE, ...readBrowserScripts(ROOT)]);
  const CACHES = { facts: CACHE, branches: new Map() };
  const census = (tree: ReadonlyMap<string, string>) => takeCensus(tree, NAMES, CACHES);
  const unlistedBranches = (tree: ReadonlyMap<string, string>) =>
    census(tree)
      .branches.filter((branch) => !Object.hasOwn(KNOWN_BRANCHES, branchKey(branch)))
      .map(describeBranch);
  const unlistedImports = (tree: ReadonlyMap<string, string>) =>
    census(tree)
      .imports.filter((found) => !Object.hasOwn(KNOWN_OWNERSHIP_IMPORTS, importKey(found)))
      .map((found) => `${found.file}:${found.line}: ${found.what}`);

  it('reads every ruleset, game, tag and device kind from the code', () => {
    const rulesets = [...NAMES].filter(([, name]) => name.kind === 'ruleset').map(([id]) => id);
    expect(rulesets.sort()).toEqual(GAME_PLUGINS.flatMap((plugin) => plugin.rulesetNames()).sort());
    expect(rulesets).toHaveLength(13);
    const driverKinds = Object.keys(DEVICE_PROFILES);
    expect(driverKinds).toEqual(expect.arrayContaining(['shoe', 'shuffler', 'reader', 'wheel']));
    for (const kind of driverKinds) expect(NAMES.get(kind)?.kind).toBe('device kind');
    expect(NAMES.get('baccarat')).toEqual({ kind: 'game tag', game: 'cards' });
  });

  it("checks the web console's browser scripts too", () => {
    expect(WHOLE.size - TREE.size).toBeGreaterThan(10);
  });

  it('finds no branch on a game or a device kind outside its own code beyond the listed ones', () => {
    expect(unlistedBranches(WHOLE)).toEqual([]);
  });

  it("finds no import of a game's module from outside the game beyond the listed ones", () => {
    expect(unlistedImports(WHOLE)).toEqual([]);
  });

  it('lists nothing that no longer happens (the lists only shrink), and says how much is left', () => {
    const now = census(WHOLE);
    const branches = new Set(now.branches.map(branchKey));
    const imports = new Set(now.imports.map(importKey));
    console.log(censusSummary(now));
    expect(Object.keys(KNOWN_BRANCHES).filter((known) => !branches.has(known))).toEqual([]);
    expect(Object.keys(KNOWN_OWNERSHIP_IMPORTS).filter((known) => !imports.has(known))).toEqual([]);
  });

  it("maps each game's modules to files that exist, its own folder first", () => {
    for (const [game, places] of Object.entries(GAME_MODULES)) {
      expect(places[0]).toBe(gameFolder(game));
      for (const place of places.slice(1)) {
        expect(
          [...WHOLE.keys()].some((file) =>
            place.endsWith('/') ? file.startsWith(place) : file === place,
          ),
          place,
        ).toBe(true);
      }
    }
  });

  it.each(PLANTED_BRANCHES)('fails on $kind', ({ file, source, says }) => {
    const found = unlistedBranches(new Map(WHOLE).set(file, `${source}\n`));
    expect(
      found.some((branch) => branch.startsWith(`${file}:1:`) && says.test(branch)),
      found.filter((branch) => branch.startsWith(file)).join('\n'),
    ).toBe(true);
  });

  it.each([
    [
      'a game naming itself in its own folder',
      'firmware-host/games/roulette/planted.ts',
      "if (ruleset.game === 'roulette') start();",
    ],
    [
      'a game module still outside its folder naming its game',
      'firmware-host/games/roulette/engine/planted.ts',
      "if (ruleset.game === 'roulette') start();",
    ],
    [
      "a card table's dealer seat",
      'firmware-host/engine/planted.ts',
      "if (seat === 'dealer') reveal();",
    ],
    [
      'a comparison with a word no game or device kind is',
      'firmware-host/daemon/planted.ts',
      "if (state === 'open') start();",
    ],
  ])('lets through %s', (_kind, file, source) => {
    const found = unlistedBranches(new Map(WHOLE).set(file, `${source}\n`));
    expect(found.filter((branch) => branch.startsWith(file))).toEqual([]);
  });

  it.each(PLANTED_IMPORTS)('fails on $kind', ({ file, source, says }) => {
    const found = unlistedImports(new Map(WHOLE).set(file, `${source}\n`));
    expect(
      found.some((line) => line.startsWith(`${file}:1:`) && says.test(line)),
      found.filter((line) => line.startsWith(file)).join('\n'),
    ).toBe(true);
  });

  it.each([
    [
      "a game's folder importing its own module",
      'firmware-host/games/roulette/planted.ts',
      "import { bets } from './engine/bets.ts';",
    ],
    [
      'a game module outside its folder importing another of its game',
      'firmware-host/engine/rulesets/poker.ts',
      "import { x } from '../../games/cards/baccarat/rulesets.ts';",
    ],
    [
      'shared code importing shared code',
      'firmware-host/daemon/planted.ts',
      "import { x } from '../engine/errors.ts';",
    ],
  ])('lets through %s', (_kind, file, source) => {
    const found = unlistedImports(new Map(WHOLE).set(file, `${source}\n`));
    expect(found.filter((line) => line.startsWith(file))).toEqual([]);
  });
});

describe('silent catches', () => {
  it('every swallowed error in the sources says why it is safe to drop', () => {
    expect(unexplainedSilentCatches(TREE)).toEqual([]);
  });

  it.each([
    ['a promise catch that drops the error', 'await socket.close().catch(() => undefined);'],
    ['an empty catch block', 'try {\n  parse(text);\n} catch {}'],
    ['an empty catch block with a binding', 'try {\n  parse(text);\n} catch (error) {}'],
  ])('fails on %s without a comment', (_kind, source) => {
    const tree = new Map([['firmware-host/planted.ts', source]]);
    expect(unexplainedSilentCatches(tree)).toHaveLength(1);
  });

  it('accepts the reason on the same line or the line above', () => {
    const tree = new Map([
      [
        'firmware-host/planted.ts',
        [
          'await socket.close().catch(() => undefined); // may already be closed at shutdown',
          '// The socket may already be closed at shutdown.',
          'await socket.close().catch(() => undefined);',
        ].join('\n'),
      ],
    ]);
    expect(unexplainedSilentCatches(tree)).toEqual([]);
  });
});

describe('function length', () => {
  /** A function of `lines` lines: its head, `lines - 2` statements and its closing brace. */
  const functionOf = (name: string, lines: number) =>
    [
      `export function ${name}(): number {`,
      ...Array.from({ length: lines - 2 }, (_, i) => `  let v${i} = ${i};`),
      '}',
      '',
    ].join('\n');

  it(`no function in the pure folders is over ${MAX_FUNCTION_LINES} lines`, () => {
    expect(overlongFunctions(TREE)).toEqual([]);
  });

  it('measures a function from its first line to its last, arrows and methods too', () => {
    const source = [
      'export const arrow = () => {',
      '  return 1;',
      '};',
      'class Box {',
      '  open(): void {}',
      '}',
    ].join('\n');
    expect(
      functionLengths('firmware-host/engine/planted.ts', source).map(({ name, lines }) => [
        name,
        lines,
      ]),
    ).toEqual([
      ['arrow', 3],
      ['open', 1],
    ]);
  });

  it.each([
    'device-protocol/planted.ts',
    'firmware-host/engine/planted.ts',
    'firmware-host/table/planted.ts',
    'firmware-host/analysis/planted.ts',
  ])('fails on a function over the limit in %s', (file) => {
    const tree = new Map(TREE)
      .set(file, functionOf('planted', MAX_FUNCTION_LINES + 1))
      .set(file.replace('planted', 'at-limit'), functionOf('atLimit', MAX_FUNCTION_LINES));
    expect(overlongFunctions(tree)).toEqual([
      `${file}:1 planted (${MAX_FUNCTION_LINES + 1} lines, limit ${MAX_FUNCTION_LINES})`,
    ]);
  });

  it('leaves the folders that are not pure to their own judgement', () => {
    const tree = new Map([
      ['firmware-host/cli/planted.ts', functionOf('planted', MAX_FUNCTION_LINES + 1)],
    ]);
    expect(overlongFunctions(tree)).toEqual([]);
  });
});
