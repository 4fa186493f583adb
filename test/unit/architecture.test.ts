/**
 * ARCHITECTURE.md's import rules, checked on every file: who may import whom,
 * and that pure code does no I/O and reads no clock.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Code without comments, so that a doc example does not count as a use. */
function code(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/** Our own modules a file imports, as paths from the repository root. */
function ownImports(path: string): string[] {
  const found: string[] = [];
  for (const match of code(path).matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    found.push(relative(ROOT, resolve(ROOT, path, '..', match[1]!)));
  }
  return found;
}

interface Rule {
  folder: string;
  may: string[];
}

// Most specific folder first.
const RULES: Rule[] = [
  { folder: 'device-protocol/', may: ['device-protocol/'] },
  { folder: 'hardware/', may: ['hardware/', 'device-protocol/'] },
  { folder: 'firmware-host/engine/', may: ['firmware-host/engine/', 'device-protocol/'] },
  {
    folder: 'firmware-host/table/',
    may: ['firmware-host/table/', 'firmware-host/engine/', 'device-protocol/'],
  },
  {
    folder: 'firmware-host/analysis/',
    may: ['firmware-host/analysis/', 'firmware-host/engine/', 'device-protocol/'],
  },
  // The composition roots run simulators for `simulate` devices, `sim` and `diag --simulate`.
  {
    folder: 'firmware-host/cli/',
    may: ['firmware-host/', 'device-protocol/', 'hardware/', 'simulators/'],
  },
  {
    folder: 'firmware-host/daemon/',
    may: ['firmware-host/', 'device-protocol/', 'hardware/', 'simulators/'],
  },
  {
    folder: 'firmware-host/diag/',
    may: ['firmware-host/', 'device-protocol/', 'hardware/', 'simulators/'],
  },
  { folder: 'firmware-host/', may: ['firmware-host/', 'device-protocol/', 'hardware/'] },
  {
    folder: 'simulators/',
    may: [
      'simulators/',
      'device-protocol/',
      'hardware/',
      'firmware-host/engine/',
      'firmware-host/table/',
    ],
  },
];

const PURE = [
  'device-protocol/',
  'firmware-host/engine/',
  'firmware-host/table/',
  'firmware-host/analysis/',
];
const PURE_NODE_MODULES = new Set(['node:stream', 'node:events', 'node:crypto', 'node:buffer']);
const CLOCK_OR_CHANCE =
  /\b(Date\.now\(|new Date\(|performance\.now\(|Math\.random\(|process\.hrtime)/;

const FILES = ['device-protocol', 'hardware', 'firmware-host', 'simulators'].flatMap(sourceFiles);

describe('architecture', () => {
  it('finds the sources it checks', () => {
    expect(FILES.length).toBeGreaterThan(50);
  });

  it('imports only what ARCHITECTURE.md allows each folder', () => {
    const broken: string[] = [];
    for (const file of FILES) {
      const rule = RULES.find((r) => file.startsWith(r.folder));
      if (!rule) continue;
      for (const target of ownImports(file)) {
        if (target === 'package.json') continue;
        if (!rule.may.some((allowed) => target.startsWith(allowed))) {
          broken.push(`${file} imports ${target}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('keeps pure code free of I/O, clocks and chance', () => {
    const broken: string[] = [];
    for (const file of FILES.filter((f) => PURE.some((folder) => f.startsWith(folder)))) {
      const text = code(file);
      for (const match of text.matchAll(/from\s+'(node:[^']+)'/g)) {
        if (!PURE_NODE_MODULES.has(match[1]!)) broken.push(`${file} imports ${match[1]}`);
      }
      const clock = CLOCK_OR_CHANCE.exec(text);
      if (clock) broken.push(`${file} uses ${clock[1]}`);
    }
    expect(broken).toEqual([]);
  });
});
