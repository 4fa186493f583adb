/**
 * `npm run bench` writes dated results files; `npm run bench:docs` renders
 * the docs' figures table from them. Checked on two fixture files: an older
 * full run and a newer one of a few lanes, one of which failed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BEGIN_MARKER,
  END_MARKER,
  type ResultsFile,
  renderFiguresTable,
  replaceBetweenMarkers,
} from '../../bench/render-results.ts';
import { type BenchResults, benchResults, resultsFileName } from '../../bench/results.ts';

const FIXTURES = join(import.meta.dirname, '../../fixtures/bench');
const files: ResultsFile[] = readdirSync(FIXTURES).map((file) => ({
  file,
  results: JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as BenchResults,
}));
const rowOf = (table: string, figure: string) =>
  table.split('\n').find((line) => line.startsWith(`| \`${figure}\``));

describe('the figures table', () => {
  const table = renderFiguresTable(files);

  it('takes each lane from the newest run that measured it without failing', () => {
    expect(rowOf(table, 'signing.verify_request_us')).toContain('1,147 µs');
    expect(rowOf(table, 'signing.verify_request_us')).toContain('| 2026-02-20 |');
    // The newer run's latency lane failed: the older run's figures stay.
    expect(rowOf(table, 'latency.back_to_back.daemon')).toContain('| 2026-01-10 |');
    expect(table).not.toContain('socat is not installed');
  });

  it('shows a spread as min / median / max with its p99, and its baseline from the same run', () => {
    expect(rowOf(table, 'latency.back_to_back.daemon')).toBe(
      '| `latency.back_to_back.daemon` | built daemon, back to back | 0.61 / 0.91 / 4.84 ms (p99 3.35) | 0.33 / 0.55 / 4.55 ms (p99 2.87) (`latency.back_to_back.relay`) |  | 2026-01-10 |',
    );
    expect(rowOf(table, 'burst.cards_per_s')).toContain('1,844 / 2,461 / 3,026 cards/s');
  });

  it('says whether each target was met, and escapes a | in a label', () => {
    expect(rowOf(table, 'latency.p99_ms')).toContain('≤ 5 ms: met');
    expect(rowOf(table, 'signing.verify_request_us')).toContain(
      '≤ 1,000 µs per request: **not met**',
    );
    expect(rowOf(table, 'burst.cards_per_s')).toContain('a \\| in a label');
  });

  it('names every run it took a figure from: machine, Node, load, commit', () => {
    expect(table).toContain(
      '- `2026-01-10T08-00-00Z.json`: Test CPU, 2 cores, 4 GB, Node v20.19.0, linux x64, load 0.1 0.2 0.3; commit 1111111111111111111111111111111111111111; lanes latency, signing',
    );
    expect(table).toContain(
      'commit 2222222222222222222222222222222222222222 (with uncommitted changes)',
    );
  });

  it('says how to get results when there are none', () => {
    expect(renderFiguresTable([])).toContain('npm run bench');
  });
});

describe('the page', () => {
  it('is rewritten between its markers only', () => {
    const page = `# Benchmarks\n\nintro\n\n${BEGIN_MARKER}\nold table\n${END_MARKER}\n\nparagraphs\n`;
    expect(replaceBetweenMarkers(page, 'new table')).toBe(
      `# Benchmarks\n\nintro\n\n${BEGIN_MARKER}\nnew table\n${END_MARKER}\n\nparagraphs\n`,
    );
  });

  it('without its markers is an error naming them', () => {
    expect(() => replaceBetweenMarkers('# Benchmarks\n', 'table')).toThrow(/bench-figures:begin/);
  });
});

describe('a results file', () => {
  const results = benchResults({
    figures: {
      machine: { cpu: 'Test CPU' },
      latency: {
        back_to_back: {
          daemon: { min_ms: 0.6, p50_ms: 0.9, p99_ms: 3.3, max_ms: 4.8 },
          relay: { min_ms: 0.3, p50_ms: 0.5, p99_ms: 2.8, max_ms: 4.5 },
        },
        p99_ms: 3.3,
      },
      burst: { cards_per_s: 2400, min_cards_per_s: 1800, max_cards_per_s: 3000 },
      wheel: { error: 'the wheel lane broke' },
      targets: [],
      run_seconds: 12,
    },
    targets: [
      { figure: 'latency.p99_ms', target: '≤ 5 ms', value: 3.3, met: true },
      { figure: 'burst.cards_per_s', target: '≥ 2,000 cards/s', value: 2400, met: true },
    ],
    machine: { cpu: 'Test CPU', cores: 2, memory_gb: 4, node: 'v20.19.0', platform: 'linux x64' },
    build: { commit: 'abc', dirty: false },
    date: '2026-03-01T10:20:30.456Z',
    runSeconds: 12,
  });
  const figure = (name: string) => results.figures.find((found) => found.name === name);

  it('holds each figure with its min/median/max, its baseline and its target', () => {
    expect(figure('latency.back_to_back.daemon')).toEqual({
      name: 'latency.back_to_back.daemon',
      unit: 'ms',
      label: 'built daemon, back to back',
      median: 0.9,
      min: 0.6,
      p99: 3.3,
      max: 4.8,
      baseline: { name: 'latency.back_to_back.relay', median: 0.5, min: 0.3, p99: 2.8, max: 4.5 },
    });
    expect(figure('burst.cards_per_s')).toMatchObject({ median: 2400, min: 1800, max: 3000 });
    expect(figure('burst.cards_per_s')?.target).toEqual({ text: '≥ 2,000 cards/s', met: true });
    expect(results.targets.map((target) => target.figure)).toEqual([
      'latency.p99_ms',
      'burst.cards_per_s',
    ]);
  });

  it('reads the daemon against the durable relay where the run measured it', () => {
    const withDurable = benchResults({
      figures: {
        machine: { cpu: 'Test CPU' },
        latency: {
          back_to_back: {
            daemon: { min_ms: 0.6, p50_ms: 0.9, p99_ms: 3.3, max_ms: 4.8 },
            durable: { min_ms: 0.5, p50_ms: 0.8, p99_ms: 3, max_ms: 4.6 },
            relay: { min_ms: 0.3, p50_ms: 0.5, p99_ms: 2.8, max_ms: 4.5 },
          },
        },
      },
      targets: [],
      machine: { cpu: 'Test CPU', cores: 2, memory_gb: 4, node: 'v20.19.0', platform: 'linux x64' },
      build: { commit: 'abc', dirty: false },
      date: '2026-03-01T10:20:30.456Z',
      runSeconds: 12,
    });
    const find = (name: string) => withDurable.figures.find((found) => found.name === name);
    expect(find('latency.back_to_back.daemon')?.baseline).toMatchObject({
      name: 'latency.back_to_back.durable',
      median: 0.8,
    });
    expect(find('latency.back_to_back.durable')?.baseline).toMatchObject({
      name: 'latency.back_to_back.relay',
      median: 0.5,
    });
  });

  it('lists the lanes that ran and the ones that failed, with their error', () => {
    expect(results.lanes).toEqual(['latency', 'burst', 'wheel']);
    expect(results.failed).toEqual([{ lane: 'wheel', error: 'the wheel lane broke' }]);
    expect(results.figures.some((found) => found.name.startsWith('wheel.'))).toBe(false);
  });

  it('is named by its date, sortable and free of colons', () => {
    expect(resultsFileName(results.date)).toBe('2026-03-01T10-20-30Z.json');
  });
});
