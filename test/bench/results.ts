/**
 * `npm run bench`'s results file: one dated JSON document per run under
 * docs/bench/results/, naming the machine, Node, the commit measured, and
 * each figure with its min/median/max (where the lane measures a spread or a
 * series of runs), its baseline from the same run and its target. The docs'
 * figures table is rendered from these files (`render-results.ts`), never
 * typed by hand. Building the document is pure; `saveResults` writes it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINES, type FigureSpec, figureSpecs } from './figures.ts';

export const RESULTS_SCHEMA = 1;

/** Where `npm run bench` keeps its results files. */
export const RESULTS_DIR = join(import.meta.dirname, '..', '..', 'docs', 'bench', 'results');

export interface Machine {
  cpu: string;
  cores: number;
  memory_gb: number;
  node: string;
  platform: string;
  /** os.loadavg() when the run started: a busy machine's figures are not a quiet one's. */
  load_average?: number[];
}

export interface Build {
  commit: string;
  /** Uncommitted changes to tracked files when the run started. */
  dirty: boolean;
}

export interface TargetResult {
  figure: string;
  target: string;
  value: number | null;
  met: boolean | null;
}

export interface FigureResult {
  /** The path in the bench's figures (`latency.back_to_back.daemon`, `burst.cards_per_s`). */
  name: string;
  unit: string;
  label: string;
  /** The figure: the median of a spread or a series, else the one value measured. */
  median: number;
  min?: number;
  max?: number;
  p99?: number;
  baseline?: { name: string; median: number; min?: number; max?: number; p99?: number };
  target?: { text: string; met: boolean | null };
}

export interface BenchResults {
  schema: typeof RESULTS_SCHEMA;
  date: string;
  machine: Machine;
  build: Build;
  /** The lanes that ran (`--only` runs some of them). */
  lanes: string[];
  run_seconds: number;
  figures: FigureResult[];
  /** Every target of the lanes that ran, met or not (also on its figure above). */
  targets: TargetResult[];
  /** Lanes that failed, with their error. */
  failed: { lane: string; error: string }[];
  /** Everything the lanes reported, for what the figures above leave out. */
  raw: Record<string, unknown>;
}

function numberAt(figures: unknown, path: string): number | undefined {
  let node: unknown = figures;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' && Number.isFinite(node) ? node : undefined;
}

type Measured = Pick<FigureResult, 'median' | 'min' | 'max' | 'p99'>;

/** A spec's numbers in `figures`, or undefined when its lane did not report it. */
function measured(figures: unknown, spec: FigureSpec, path = spec.path): Measured | undefined {
  const at = (key: string) => numberAt(figures, `${path}.${key}`);
  const defined = (found: Measured | undefined) =>
    found && Object.fromEntries(Object.entries(found).filter(([, v]) => v !== undefined));
  if (spec.kind === 'spread') {
    const median = at('p50_ms');
    if (median === undefined) return undefined;
    return defined({ median, min: at('min_ms'), p99: at('p99_ms'), max: at('max_ms') }) as Measured;
  }
  if (spec.kind === 'range') {
    const median = at(spec.key);
    if (median === undefined) return undefined;
    return defined({ median, min: at(`min_${spec.key}`), max: at(`max_${spec.key}`) }) as Measured;
  }
  const median = numberAt(figures, path);
  return median === undefined ? undefined : { median };
}

/** A spec's name in the results: a range is named by its key (`burst.cards_per_s`). */
function nameOf(spec: FigureSpec): string {
  return spec.kind === 'range' ? `${spec.path}.${spec.key}` : spec.path;
}

/** The results document of one run (pure: the caller reads the clock, the machine and git). */
export function benchResults(input: {
  figures: Record<string, unknown>;
  targets: readonly TargetResult[];
  machine: Machine;
  build: Build;
  date: string;
  runSeconds: number;
}): BenchResults {
  const lanes = Object.keys(input.figures).filter(
    (key) => !['machine', 'targets', 'run_seconds'].includes(key),
  );
  const failed = lanes.flatMap((lane) => {
    const value = input.figures[lane];
    return value !== null && typeof value === 'object' && 'error' in value
      ? [{ lane, error: String((value as { error: unknown }).error) }]
      : [];
  });
  const figures = figureSpecs().flatMap((spec): FigureResult[] => {
    const found = measured(input.figures, spec);
    if (!found) return [];
    const name = nameOf(spec);
    const result: FigureResult = { name, unit: spec.unit, label: spec.label, ...found };
    for (const baselineName of [BASELINES[name] ?? []].flat()) {
      const baselineSpec = figureSpecs().find((other) => nameOf(other) === baselineName);
      const baseline = measured(
        input.figures,
        baselineSpec ?? { kind: 'value', path: baselineName, unit: spec.unit, label: '' },
        baselineSpec?.path ?? baselineName,
      );
      if (baseline) {
        result.baseline = { name: baselineName, ...baseline };
        break;
      }
    }
    const target = input.targets.find((candidate) => candidate.figure === name);
    if (target) result.target = { text: target.target, met: target.met };
    return [result];
  });
  const raw = Object.fromEntries(
    Object.entries(input.figures).filter(([key]) => !['machine', 'targets'].includes(key)),
  );
  return {
    schema: RESULTS_SCHEMA,
    date: input.date,
    machine: input.machine,
    build: input.build,
    lanes,
    run_seconds: input.runSeconds,
    figures,
    targets: [...input.targets],
    failed,
    raw,
  };
}

/** `2026-11-27T09-05-00Z.json`: sorts by date, and a colon-free name for every file system. */
export function resultsFileName(date: string): string {
  return `${date.replace(/\.\d+Z$/, 'Z').replaceAll(':', '-')}.json`;
}

/** Writes the document into `dir` under its dated name; returns the path. */
export function saveResults(results: BenchResults, dir: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, resultsFileName(results.date));
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  return path;
}
