/** A worker thread of analysis-threads.ts: computes the part it is given and posts it back. */
import { parentPort, workerData } from 'node:worker_threads';
import { type PartJob, runPart } from './analysis-threads.ts';

const result = runPart(workerData as PartJob);
parentPort?.postMessage(result);
