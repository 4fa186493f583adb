/**
 * The machine's wake penalty: how much more the same work costs when it runs
 * once after a pause than back to back. A card at a dealer's pace is always
 * the first work after a pause, and on a shared VM whatever the daemon had in
 * the CPU's caches is gone by then; in a burst the next card finds it all
 * still there.
 *
 * The child (wake-penalty-child.mjs) runs with the systemd unit's node flags
 * on the built modules and times two pieces of pure work, no I/O, in the
 * same process: the daemon's for one card (card-work.mjs: link session,
 * validation, journal encoding and hashing, event payloads) and the bare
 * relay's (reframe and one payload). Each is timed back to back and after
 * pauses of 5, 50 and 500 ms. The ratio of the paced median to the
 * back-to-back one is this machine's factor, measured beside the latency
 * lanes' CPU per card so that the two can be read together.
 *
 * `npm run build` is ensured here. Run alone: `npx tsx test/bench/wake-penalty.ts`.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { deployedNodeFlags, ensureBuilt } from './built-daemon.ts';

const CHILD = join(import.meta.dirname, 'wake-penalty-child.mjs');
const GAPS_MS = [0, 5, 50, 500] as const;

export interface WorkAtGap {
  cards: number;
  p50_us: number;
  min_us: number;
  max_us: number;
  cpu_p50_us: number;
}

type Gap = (typeof GAPS_MS)[number];
type WorkFigures = Record<`gap_${Gap}ms`, WorkAtGap> & {
  counts: { cards: number; events: number; bytes: number };
};

export interface WakePenaltyFigures {
  node_flags: string;
  gaps_ms: number[];
  rounds: number;
  daemon: WorkFigures;
  relay: WorkFigures;
  /** Median after a 500 ms pause over the median back to back, per kind of work. */
  ratio_500ms: { daemon: number; relay: number };
  /** The same after a 5 ms pause. */
  ratio_5ms: { daemon: number; relay: number };
  build_note?: string;
}

const ratio = (work: WorkFigures, gap: Gap) =>
  Math.round((work[`gap_${gap}ms`].p50_us / work.gap_0ms.p50_us) * 10) / 10;

export async function benchWakePenalty(rounds = 2): Promise<WakePenaltyFigures> {
  const buildNote = await ensureBuilt();
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...deployedNodeFlags(), CHILD, GAPS_MS.join(','), String(rounds)],
    { timeout: 180_000 },
  );
  const figures = JSON.parse(stdout) as Omit<WakePenaltyFigures, 'ratio_500ms' | 'ratio_5ms'>;
  return {
    ...figures,
    ratio_500ms: { daemon: ratio(figures.daemon, 500), relay: ratio(figures.relay, 500) },
    ratio_5ms: { daemon: ratio(figures.daemon, 5), relay: ratio(figures.relay, 5) },
    ...(buildNote ? { build_note: buildNote } : {}),
  };
}

if (resolve(process.argv[1] ?? '') === resolve(import.meta.filename)) {
  benchWakePenalty().then(
    (figures) => process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).message}\n`);
      process.exitCode = 1;
    },
  );
}
