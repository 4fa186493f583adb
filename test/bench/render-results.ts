/**
 * The docs' figures table, rendered from `npm run bench`'s results files
 * (pure: `render-docs.ts` reads the files and writes the page). Each lane
 * is taken from the newest file that ran it, since `--only` runs write files
 * of a few lanes; each row names the run it comes from.
 */
import type { BenchResults, FigureResult } from './results.ts';

export const BEGIN_MARKER = '<!-- bench-figures:begin (rendered by npm run bench:docs) -->';
export const END_MARKER = '<!-- bench-figures:end -->';

export interface ResultsFile {
  /** The file's name, e.g. `2026-11-27T09-05-00Z.json`. */
  file: string;
  results: BenchResults;
}

interface Row {
  figure: FigureResult;
  from: ResultsFile;
}

/** Each lane's figures from the newest file that ran it without failing, in the figures' order. */
export function latestRows(files: readonly ResultsFile[]): Row[] {
  const newestFirst = [...files].sort((a, b) => b.results.date.localeCompare(a.results.date));
  const taken = new Map<string, ResultsFile>();
  for (const file of newestFirst) {
    const failed = new Set(file.results.failed.map((failure) => failure.lane));
    for (const lane of file.results.lanes) {
      if (!taken.has(lane) && !failed.has(lane)) taken.set(lane, file);
    }
  }
  const rows: Row[] = [];
  for (const [lane, from] of taken) {
    for (const figure of from.results.figures) {
      if (figure.name.split('.')[0] === lane) rows.push({ figure, from });
    }
  }
  return rows;
}

export function formatNumber(value: number): string {
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(Math.round(value * 1000) / 1000);
}

function spreadOf(measured: Pick<FigureResult, 'median' | 'min' | 'max' | 'p99'>, unit: string) {
  const median = formatNumber(measured.median);
  if (measured.min === undefined && measured.max === undefined) return `${median} ${unit}`.trim();
  const parts = [measured.min, measured.median, measured.max].map((value) =>
    value === undefined ? '-' : formatNumber(value),
  );
  const p99 = measured.p99 === undefined ? '' : ` (p99 ${formatNumber(measured.p99)})`;
  return `${parts.join(' / ')} ${unit}${p99}`.trim();
}

function cell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** The machines the rows were measured on, one line each, keyed by the run's file. */
function machinesOf(rows: readonly Row[]): string[] {
  const seen = new Map<string, ResultsFile>();
  for (const row of rows) seen.set(row.from.file, row.from);
  return [...seen.values()]
    .sort((a, b) => a.results.date.localeCompare(b.results.date))
    .map(({ file, results }) => {
      const { machine, build } = results;
      const load = machine.load_average
        ? `, load ${machine.load_average.map(formatNumber).join(' ')}`
        : '';
      return `- \`${file}\`: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB, Node ${machine.node}, ${machine.platform}${load}; commit ${build.commit}${build.dirty ? ' (with uncommitted changes)' : ''}; lanes ${results.lanes.join(', ')}`;
    });
}

/** The Markdown between the markers: the table, then the runs it comes from. */
export function renderFiguresTable(files: readonly ResultsFile[]): string {
  const rows = latestRows(files);
  if (rows.length === 0) {
    return 'No results yet: `npm run bench` writes them under `docs/bench/results/`.';
  }
  const lines = [
    '| Figure | What | min / median / max | Baseline (same run) | Target | Run |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(({ figure, from }) => {
      const baseline = figure.baseline
        ? `${spreadOf(figure.baseline, figure.unit)} (\`${figure.baseline.name}\`)`
        : '';
      const target = figure.target
        ? `${figure.target.text}: ${figure.target.met === null ? 'no value' : figure.target.met ? 'met' : '**not met**'}`
        : '';
      return `| \`${figure.name}\` | ${cell(figure.label)} | ${spreadOf(figure, figure.unit)} | ${cell(baseline)} | ${cell(target)} | ${from.results.date.slice(0, 10)} |`;
    }),
    '',
    'Measured on:',
    '',
    ...machinesOf(rows),
  ];
  return lines.join('\n');
}

/** `doc` with what lies between the markers replaced by `content`; throws when a marker is missing. */
export function replaceBetweenMarkers(doc: string, content: string): string {
  const begin = doc.indexOf(BEGIN_MARKER);
  const end = doc.indexOf(END_MARKER);
  if (begin < 0 || end < begin) {
    throw new Error(`the page has no "${BEGIN_MARKER}" … "${END_MARKER}" pair to render into`);
  }
  return `${doc.slice(0, begin + BEGIN_MARKER.length)}\n${content}\n${doc.slice(end)}`;
}
