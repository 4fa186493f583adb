/**
 * SD-card wear (issue 36): what the built daemon writes per card, from the
 * Pi's point of view. The daemon runs as deployed (the unit's node flags, its
 * shoe on a socat pty, mosquitto); a shoe is dealt at a steady pace; the
 * kernel's own count of the bytes the process sent to storage
 * (`/proc/<pid>/io` write_bytes) and strace's record of every write and sync
 * system call, each with the file it went to, are read over the cards and
 * over an idle stretch after them.
 *
 * A durable write (a write to a file opened O_DSYNC, or an fsync/fdatasync)
 * makes the card program at least one flash page however few bytes it
 * carries, so the estimate counts flash pages, not bytes: each durable write
 * costs max(its bytes, one page). The page size and the card's endurance
 * are assumptions, stated in the figures: a common 32 GB TLC card of about
 * 1,000 program/erase cycles takes about 32 TB of page writes with ideal
 * wear levelling; real cards' controllers add their own amplification, so
 * the years are an upper bound to be divided by it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MqttClient } from 'mqtt';
import { openTransport } from '../../hardware/transports/url.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { startTestBroker } from '../helpers/broker.ts';
import { hasCommand } from '../helpers/tools.ts';
import {
  type ChildDaemon,
  type DaemonCode,
  LANE_RULESET,
  readyDaemon,
  round,
  sleep,
  spawnBuiltDaemon,
} from './built-daemon.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

/** Assumed flash page: what one small durable write programs at least. */
const PAGE_BYTES = 16 * 1024;
/** Assumed endurance of a common 32 GB TLC card: 1,000 P/E cycles × 32 GB. */
const CARD_ENDURANCE_BYTES = 1000 * 32e9;
/** An 8-deck shoe, about what a baccarat table deals from one. */
const CARDS_PER_SHOE = 416;

export interface WearFigures {
  cards: number;
  pace_ms: number;
  /** The kernel's count of bytes sent to storage over the cards, per card. */
  write_bytes_per_card: number;
  /** write/pwrite/writev calls per card, and those to files opened O_DSYNC (the journal). */
  write_calls_per_card: number;
  durable_writes_per_card: number;
  /** fsync and fdatasync calls per card (the cursor's folder, rotation). */
  syncs_per_card: number;
  /** Where the writes went: file kind → calls over the cards. */
  writes_by_file: Record<string, number>;
  /** The same counts over an idle stretch after the cards, per hour. */
  idle_seconds: number;
  idle_write_bytes_per_hour: number;
  idle_durable_writes_per_hour: number;
  /** Flash bytes per card (pages of durable writes) and the card's years, under the stated assumptions. */
  page_bytes_assumed: number;
  endurance_bytes_assumed: number;
  flash_bytes_per_card: number;
  flash_bytes_per_shoe: number;
  /** What the table writes in a day without cards (the idle stretch's rate over 24 h). */
  idle_flash_bytes_per_day: number;
  years_at_a_shoe_a_day: number;
  years_at_ten_shoes_a_day: number;
}

/** bytes written to storage by `pid`, as the kernel counts them. */
function writeBytes(pid: number): number {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return Number(/^write_bytes: (\d+)$/m.exec(io)?.[1] ?? Number.NaN);
}

interface TraceCounts {
  writes: number;
  durableWrites: number;
  syncs: number;
  byFile: Record<string, number>;
}

/** What a file a write went to is, for the figures: the journal, its cursor, the log... */
function fileKind(path: string): string {
  if (/journal\/[^/]*\.jsonl$/.test(path)) return 'journal';
  if (/cursor/.test(path)) return 'cursor';
  if (/\.log$/.test(path)) return 'log';
  if (/^(socket|pipe|anon_inode):|^\/dev\//.test(path) || path === '') return 'not storage';
  return path.replace(/^.*\//, '');
}

/** Counts strace's `-y` lines: each write with its file, and each sync. */
export function countTrace(trace: string, durablePaths: (path: string) => boolean): TraceCounts {
  const counts: TraceCounts = { writes: 0, durableWrites: 0, syncs: 0, byFile: {} };
  for (const line of trace.split('\n')) {
    const call = /\b(write|pwrite64|writev|pwritev2?|fsync|fdatasync)\(\d+<([^>]*)>/.exec(line);
    if (!call) continue;
    const [, name, path] = call as unknown as [string, string, string];
    const kind = fileKind(path);
    if (kind === 'not storage') continue;
    if (name === 'fsync' || name === 'fdatasync') {
      counts.syncs++;
      counts.byFile[`${kind} (sync)`] = (counts.byFile[`${kind} (sync)`] ?? 0) + 1;
      continue;
    }
    counts.writes++;
    if (durablePaths(path)) counts.durableWrites++;
    counts.byFile[kind] = (counts.byFile[kind] ?? 0) + 1;
  }
  return counts;
}

/** strace attached to `pid` and its threads, writing its record to `file` until stopped. */
async function attachStrace(pid: number, file: string): Promise<() => Promise<string>> {
  const child: ChildProcess = spawn(
    'strace',
    [
      '-f',
      '-qq',
      '-y',
      '-e',
      'trace=write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync',
      '-o',
      file,
      '-p',
      String(pid),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // strace says nothing once attached; its record file appears at once.
  for (let waited = 0; ; waited += 20) {
    const started = await readFile(file, 'utf8').then(
      () => true,
      () => false,
    );
    if (started) break;
    if (child.exitCode !== null || waited > 5000) throw new Error('strace did not attach');
    await sleep(20);
  }
  // fixed wait: emulated timing: strace gives no sign that every thread is attached.
  await sleep(200);
  return async () => {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await exited;
    return readFile(file, 'utf8');
  };
}

export async function benchWear(
  options: { cards?: number; paceMs?: number; idleSeconds?: number; daemon?: DaemonCode } = {},
): Promise<WearFigures> {
  if (!SOCAT) throw new Error('socat is not installed: the wear lane deals over a pty');
  if (!hasCommand('strace')) throw new Error('strace is not installed: apt-get install strace');
  const cards = options.cards ?? 200;
  const paceMs = options.paceMs ?? 50;
  const idleSeconds = options.idleSeconds ?? 20;
  await readyDaemon(options.daemon ?? 'built');
  const broker = await startTestBroker();
  const pair = new BenchPtyPair();
  const dir = await mkdtemp(join(tmpdir(), 'tableside-bench-wear-'));
  const { connectAsync } = await import('mqtt');
  let client: MqttClient | undefined;
  let daemon: ChildDaemon | undefined;
  let sim: SimulatedDevice | undefined;
  try {
    await pair.start();
    client = await connectAsync(broker.url, {
      clientId: `bench-wear-${process.pid}`,
      reconnectPeriod: 0,
    });
    daemon = await spawnBuiltDaemon({
      dir,
      table: 'wear-1',
      devicePath: pair.a,
      brokerUrl: broker.url,
      client,
      code: options.daemon ?? 'built',
    });
    const cardTopic = daemon.topics.events('card');
    let received = 0;
    client.on('message', (topic) => {
      if (topic === cardTopic) received++;
    });
    await client.subscribeAsync(cardTopic, { qos: 1 });
    sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: LANE_RULESET,
      seed: 21,
      transport: openTransport(pair.b),
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 'rest' }] },
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    sim.start();
    await sim.whenReady();
    await daemon.newShoe(client);
    const dealOne = async () => {
      for (;;) {
        const before = received;
        const next = sim!.upcoming();
        if (!next) throw new Error('the shoe ran out of cards');
        if (!(await sim!.step())) throw new Error('nothing left to deal');
        if (next.kind !== 'card') continue;
        for (let waited = 0; received === before; waited += 2) {
          if (waited > 5000) throw new Error('no card event within 5 s');
          await sleep(2);
        }
        return;
      }
    };
    // A few cards first: the shoe's first records, the files opened.
    for (let card = 0; card < 5; card++) await dealOne();

    const cardsTrace = join(dir, 'cards.strace');
    const stopCards = await attachStrace(daemon.pid, cardsTrace);
    const bytesBefore = writeBytes(daemon.pid);
    for (let card = 0; card < cards; card++) {
      await dealOne();
      // fixed wait: emulated timing: a dealer's steady pace between cards.
      await sleep(paceMs);
    }
    // The records' cursor is deferred up to 5 s: let the last one land inside the count.
    // fixed wait: emulated timing: the cursor's deferred write interval.
    await sleep(5500);
    const bytesCards = writeBytes(daemon.pid) - bytesBefore;
    const cardsCounts = countTrace(await stopCards(), (path) => fileKind(path) === 'journal');

    const idleTrace = join(dir, 'idle.strace');
    const stopIdle = await attachStrace(daemon.pid, idleTrace);
    const idleBefore = writeBytes(daemon.pid);
    // fixed wait: emulated timing: an idle table between shoes, for its writes per hour.
    await sleep(idleSeconds * 1000);
    const idleBytes = writeBytes(daemon.pid) - idleBefore;
    const idleCounts = countTrace(await stopIdle(), (path) => fileKind(path) === 'journal');

    const perCard = (value: number) => round(value / cards, 3);
    const durablePerCard = (cardsCounts.durableWrites + cardsCounts.syncs) / cards;
    // Each durable write or sync programs at least a page; the rest of the bytes ride along.
    const flashPerCard = Math.max(bytesCards / cards, durablePerCard * PAGE_BYTES);
    const perShoe = flashPerCard * CARDS_PER_SHOE;
    const perHour = (value: number) => round((value * 3600) / idleSeconds, 1);
    const idleFlashPerDay =
      24 *
      Math.max(
        perHour(idleBytes),
        perHour(idleCounts.durableWrites + idleCounts.syncs) * PAGE_BYTES,
      );
    const years = (shoesPerDay: number) =>
      round(CARD_ENDURANCE_BYTES / (perShoe * shoesPerDay + idleFlashPerDay) / 365, 1);
    return {
      cards,
      pace_ms: paceMs,
      write_bytes_per_card: perCard(bytesCards),
      write_calls_per_card: perCard(cardsCounts.writes),
      durable_writes_per_card: perCard(cardsCounts.durableWrites),
      syncs_per_card: perCard(cardsCounts.syncs),
      writes_by_file: cardsCounts.byFile,
      idle_seconds: idleSeconds,
      idle_write_bytes_per_hour: perHour(idleBytes),
      idle_durable_writes_per_hour: perHour(idleCounts.durableWrites + idleCounts.syncs),
      page_bytes_assumed: PAGE_BYTES,
      endurance_bytes_assumed: CARD_ENDURANCE_BYTES,
      flash_bytes_per_card: Math.round(flashPerCard),
      flash_bytes_per_shoe: Math.round(perShoe),
      idle_flash_bytes_per_day: Math.round(idleFlashPerDay),
      years_at_a_shoe_a_day: years(1),
      years_at_ten_shoes_a_day: years(10),
    };
  } finally {
    await sim?.stop().catch(() => undefined);
    await daemon?.stop();
    await client?.endAsync().catch(() => undefined);
    await pair.stop();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}
