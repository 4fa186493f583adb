/**
 * Where the built daemon's CPU goes on the card path: card-cpu.ts's run (the
 * built daemon with the unit's flags, a shoe on a socat pty, mosquitto) with
 * `--cpu-prof` on the child, then the samples taken while the counted cards
 * were dealt (the profile's clock is the monotonic one process.hrtime reads,
 * so the window is exact), summed per function (self) and per source file
 * (inclusive: a file counts once per sample however deep it is on the stack).
 *
 *   npx tsx test/bench/profile-card-path.ts [paceMs] [cards] [--top N] [--tree MS] [--keep DIR]
 *
 * Default: a dealer's pace (500 ms), 40 cards. `npm run build` first (this
 * script measures dist/ as it is). TABLESIDE_CARD_CPU_CLI names another build.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { deployedNodeFlags, REPO } from './built-daemon.ts';
import { measureCardCpu } from './card-cpu.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const microseconds = () => Number(process.hrtime.bigint() / 1000n);

function where(url: string): string {
  if (!url) return '(native)';
  const path = url.replace(/^file:\/\//, '');
  const inRepo = relative(REPO, path);
  if (!inRepo.startsWith('..')) return inRepo.replace(/^node_modules\//, 'npm:');
  return path.startsWith('node:') ? path : basename(path);
}

/** Self ms per function and inclusive ms per file, over the samples within [from, to] µs. */
function summarise(profile: CpuProfile, from: number, to: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  /** Inclusive ms per node id: the call tree. */
  const tree = new Map<number, number>();
  let total = 0;
  let at = profile.startTime;
  for (let index = 0; index < profile.samples.length; index++) {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < from || at > to) continue;
    // A sample stands for the time since the one before it.
    const ms = delta / 1000;
    const leaf = byId.get(profile.samples[index]!)!;
    total += ms;
    const frame = leaf.callFrame;
    const name = `${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + ms);
    const files = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      tree.set(id, (tree.get(id) ?? 0) + ms);
      files.add(node.callFrame.url ? where(node.callFrame.url) : node.callFrame.functionName);
    }
    for (const file of files) inclusive.set(file, (inclusive.get(file) ?? 0) + ms);
  }
  const lines: string[] = [];
  const walk = (id: number, depth: number, floor: number) => {
    const node = byId.get(id)!;
    const ms = tree.get(id) ?? 0;
    if (ms < floor || node.callFrame.functionName === '(idle)') return;
    const frame = node.callFrame;
    if (depth > 0)
      lines.push(
        `${ms.toFixed(1).padStart(8)}  ${'  '.repeat(depth - 1)}${frame.functionName || '(anonymous)'} ${where(frame.url)}:${frame.lineNumber + 1}`,
      );
    for (const child of (node.children ?? []).sort(
      (a, b) => (tree.get(b) ?? 0) - (tree.get(a) ?? 0),
    ))
      walk(child, depth + 1, floor);
  };
  return {
    total,
    self,
    inclusive,
    tree: (floor: number) => {
      lines.length = 0;
      walk(profile.nodes[0]!.id, 0, floor);
      return lines;
    },
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    if (at < 0) return undefined;
    return args.splice(at, 2)[1];
  };
  const top = Number(option('--top') ?? 25);
  const keep = option('--keep');
  const floor = Number(option('--tree') ?? 0);
  const idleMs = Number(option('--idle') ?? 2000);
  const paceMs = Number(args[0] ?? 500);
  const cards = Number(args[1] ?? 40);
  const dir = keep ?? (await mkdtemp(join(tmpdir(), 'tableside-card-prof-')));
  let window: { from: number; to: number } = { from: 0, to: 0 };
  let idleWindow: { from: number; to: number } = { from: 0, to: 0 };
  try {
    const cli = process.env.TABLESIDE_CARD_CPU_CLI;
    const figures = await measureCardCpu({
      paceMs,
      cards,
      flags: [
        ...deployedNodeFlags(),
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        '--cpu-prof-interval=250',
      ],
      ...(cli ? { cli } : {}),
      idleMs,
      mark: (moment) => {
        if (moment === 'idling') idleWindow = { from: microseconds(), to: 0 };
        else if (moment === 'idled') idleWindow.to = microseconds();
        else if (moment === 'dealing') window = { from: microseconds(), to: 0 };
        else window.to = microseconds();
      },
    });
    const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
    if (!file) throw new Error(`no .cpuprofile in ${dir}: did the daemon exit cleanly?`);
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const { total, self, inclusive, tree } = summarise(profile, window.from, window.to);
    const perCard = (ms: number) => (ms / cards).toFixed(3);
    console.log(
      `pace ${paceMs} ms, ${cards} cards: ${figures.cpu_ms_per_card} ms CPU per card (all threads), p50 ${figures.latency_ms.p50} ms; profiled main thread ${perCard(total)} ms per card (idle included)`,
    );
    const table = (title: string, entries: Map<string, number>) => {
      console.log(`\n${title} (ms per card)`);
      for (const [name, ms] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top))
        console.log(`${perCard(ms).padStart(8)}  ${name}`);
    };
    table('self, per function', self);
    table('inclusive, per file', inclusive);
    if (floor > 0) {
      console.log(`\ncall tree, ms over all ${cards} cards, branches of at least ${floor} ms`);
      for (const line of tree(floor)) console.log(line);
    }
    // What the daemon does with its shoe connected and no card: a table pays
    // it between cards, so at a dealer's pace it is part of the cost per card.
    const idle = summarise(profile, idleWindow.from, idleWindow.to);
    const seconds = (idleWindow.to - idleWindow.from) / 1e6;
    console.log(
      `\nidle, ${seconds.toFixed(1)} s with the shoe connected and no card: ${figures.idle_cpu_ms_per_s} ms CPU per s (all threads); main thread busy ${((idle.total - (idle.self.get('(idle) (native):0') ?? 0)) / seconds).toFixed(3)} ms per s`,
    );
    for (const line of idle.tree(floor > 0 ? floor / 10 : 0.5)) console.log(line);
  } finally {
    if (!keep) await rm(dir, { recursive: true, force: true });
  }
}

await main();
