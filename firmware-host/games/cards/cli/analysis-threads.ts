/**
 * The long enumerations of a ruleset study run on every core: the work is
 * split into parts (analysis/ gives each enumeration a `...Part` function
 * and a way to add the parts up exactly), the main thread computes one part
 * and worker threads the others, and the sum is handed back to the analysis
 * (`provide...`), whose study then uses it instead of enumerating again.
 * analysis/ stays pure and single-threaded; only this composition root
 * starts threads. Nothing here is held by the daemon: the CLI exits after.
 */
import { availableParallelism, loadavg } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FULL_DECK } from '../../../analysis/suit-patterns.ts';
import type { Ruleset } from '../../../engine/rulesets/schema.ts';
import {
  holdemShowdownOfParts,
  holdemShowdownPart,
  provideHoldemShowdown,
} from '../poker/analysis/holdem-showdown.ts';
import {
  provideSixCardShowdown,
  type ShowdownPart,
  sixCardShowdownOfParts,
  sixCardShowdownPart,
} from '../poker/analysis/six-card-showdown.ts';
import { longEnumerationOf } from '../poker/analysis/study.ts';

/** One part of one enumeration, as a worker is asked for it. */
export type PartJob =
  | { kind: 'holdem'; qualifier: number; part: number; parts: number }
  | { kind: 'six-card'; part: number; parts: number };

export type Progress = (stage: string, done: number, total: number) => void;

/** Computes one part where it is called (a worker, or the main thread). */
export function runPart(job: PartJob, onProgress?: Progress): Float64Array | ShowdownPart {
  if (job.kind === 'holdem') {
    return holdemShowdownPart(job.qualifier, job.part, job.parts, (done, total) =>
      onProgress?.('boards', done * job.parts, total),
    );
  }
  return sixCardShowdownPart(FULL_DECK, job.part, job.parts, (done, total) =>
    onProgress?.('poker showdown', done, total),
  );
}

/** The worker entry next to this module, .ts from source and .js when built. */
const FROM_SOURCE = extname(fileURLToPath(import.meta.url)) === '.ts';
const WORKER = new URL(`./analysis-worker${FROM_SOURCE ? '.ts' : '.js'}`, import.meta.url);
/**
 * From source a worker needs the TypeScript loader the main thread runs
 * under, which Node 20 does not pass to worker threads: a one-line
 * bootstrap loads the entry through tsx's API.
 */
function startWorker(job: PartJob): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER, { workerData: job });
  const api = import.meta.resolve('tsx/esm/api');
  const bootstrap = `import(${JSON.stringify(api)}).then(({ tsImport }) => tsImport(${JSON.stringify(WORKER.href)}, ${JSON.stringify(WORKER.href)}))`;
  return new Worker(bootstrap, { eval: true, workerData: job });
}

function inWorker(job: PartJob): Promise<Float64Array | ShowdownPart> {
  return new Promise((resolve, reject) => {
    const worker = startWorker(job);
    let result: Float64Array | ShowdownPart | undefined;
    worker.once('message', (message: Float64Array | ShowdownPart) => {
      result = message;
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (result !== undefined) resolve(result);
      else
        reject(
          new Error(`an analysis worker stopped (exit code ${code}) before its part was done`),
        );
    });
  });
}

/**
 * How many parts to split an enumeration into: `TABLESIDE_ANALYSIS_THREADS`
 * when set (1..8), else one per idle core (the cores minus the load
 * average: on a busy machine a worker waits for a core and only adds its
 * start-up), and one from source, where a worker compiles the TypeScript
 * again (about a second, longer than the part it would take, now that the
 * longest study counts in about a second of CPU).
 */
export function analysisParts(
  env: NodeJS.ProcessEnv = process.env,
  fromSource = FROM_SOURCE,
  cores = availableParallelism(),
  load = loadavg()[0]!,
): number {
  const asked = env.TABLESIDE_ANALYSIS_THREADS;
  if (asked !== undefined && asked !== '') {
    const threads = Number(asked);
    if (!Number.isInteger(threads) || threads < 1 || threads > 8) {
      throw new Error(
        `TABLESIDE_ANALYSIS_THREADS must be a whole number from 1 to 8, got "${asked}"`,
      );
    }
    return threads;
  }
  if (fromSource) return 1;
  return Math.max(1, Math.min(8, Math.round(cores - load)));
}

/** Runs every part: the first here, the others in worker threads at the same time. */
async function allParts(
  make: (part: number, parts: number) => PartJob,
  onProgress?: Progress,
): Promise<Array<Float64Array | ShowdownPart>> {
  const parts = analysisParts();
  const others = Array.from({ length: parts - 1 }, (_, i) => inWorker(make(i + 1, parts)));
  // Started before the main thread's part, so the workers load while it counts.
  const mine = runPart(make(0, parts), onProgress);
  return [mine, ...(await Promise.all(others))];
}

/**
 * Computes a ruleset study's long enumerations on every core and provides
 * them to the analysis; a study that needs none (or `quick`) is left alone.
 */
export async function precomputeStudy(
  ruleset: Ruleset,
  quick: boolean,
  onProgress?: Progress,
): Promise<void> {
  if (quick) return;
  const enumeration = longEnumerationOf(ruleset);
  if (enumeration?.kind === 'holdem') {
    const { qualifier } = enumeration;
    const parts = await allParts(
      (part, count) => ({ kind: 'holdem', qualifier, part, parts: count }),
      onProgress,
    );
    provideHoldemShowdown(qualifier, holdemShowdownOfParts(parts as Float64Array[]));
  } else if (enumeration?.kind === 'six-card') {
    const parts = await allParts(
      (part, count) => ({ kind: 'six-card', part, parts: count }),
      onProgress,
    );
    provideSixCardShowdown(sixCardShowdownOfParts(FULL_DECK, parts as ShowdownPart[]));
  }
}
