/**
 * `npm run bench:docs`: renders the figures table of
 * docs/developer/benchmarks.md from the results files under
 * docs/bench/results/ (written by `npm run bench`).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ResultsFile, renderFiguresTable, replaceBetweenMarkers } from './render-results.ts';
import { type BenchResults, RESULTS_DIR } from './results.ts';

const PAGE = join(import.meta.dirname, '..', '..', 'docs', 'developer', 'benchmarks.md');

const files: ResultsFile[] = readdirSync(RESULTS_DIR)
  .filter((name) => name.endsWith('.json'))
  .map((file) => ({
    file,
    results: JSON.parse(readFileSync(join(RESULTS_DIR, file), 'utf8')) as BenchResults,
  }));
writeFileSync(PAGE, replaceBetweenMarkers(readFileSync(PAGE, 'utf8'), renderFiguresTable(files)));
process.stdout.write(`rendered ${files.length} results file(s) into ${PAGE}\n`);
