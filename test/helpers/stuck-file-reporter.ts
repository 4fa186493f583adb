/**
 * The stuck-file watchdog: a vitest reporter that notices a test file whose
 * worker has reported nothing for longer than anything in it may take
 * (stuck-files.ts), so that a run never hangs without a name. It writes which
 * file, what it was doing, the IPC state of the run's main process, and asks
 * the file's worker (worker-dump.ts) for its own; then it ends that worker, so
 * that vitest reports the file failed ("Worker exited unexpectedly") and the
 * run goes on and ends, failed. Files no worker ever started while the run is
 * silent are named the same way, and their idle workers ended.
 *
 * TABLESIDE_STUCK_MARGIN_S sets what a loaded machine may add to a timeout
 * (default 120 s).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type {
  ReportedHookContext,
  Reporter,
  TestCase,
  TestModule,
  TestSpecification,
  Vitest,
} from 'vitest/node';
import { ipcPipeLines } from './ipc-state.ts';
import { describeStuck, StuckFileWatch, WORKER_LABELS } from './stuck-files.ts';

const DEFAULT_MARGIN_S = 120;
/** The share of a look's interval the main process must have used the CPU to count as busy (its own looks cost far less). */
const MAIN_BUSY_SHARE = 0.1;
/** Time for a worker to write its dump before it is ended. */
const DUMP_GRACE_MS = 3_000;

function moduleOf(hook: ReportedHookContext): string {
  const { entity } = hook;
  return entity.type === 'module' ? entity.moduleId : entity.module.moduleId;
}

function projectTimeoutMs(module: TestModule): number {
  const { testTimeout, hookTimeout } = module.project.config;
  return Math.max(testTimeout, hookTimeout);
}

export default class StuckFileReporter implements Reporter {
  private watch: StuckFileWatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private root = process.cwd();
  private readonly reported = new Set<string>();
  /** Each worker's CPU time at the last look. */
  private readonly cpuTicks = new Map<number, number>();
  private mainCpu = process.cpuUsage();
  private intervalMs = 10_000;

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    const marginMs = (Number(process.env.TABLESIDE_STUCK_MARGIN_S) || DEFAULT_MARGIN_S) * 1000;
    const longest = Math.max(
      ...vitest.projects.map(({ config }) => Math.max(config.testTimeout, config.hookTimeout)),
    );
    this.watch = new StuckFileWatch(marginMs, longest);
    this.intervalMs = Math.min(10_000, marginMs / 2);
    this.timer = setInterval(() => this.check(), this.intervalMs);
    this.timer.unref();
  }

  onTestRunStart(specifications: ReadonlyArray<TestSpecification>): void {
    this.watch?.runStarted(
      specifications.map((specification) => specification.moduleId),
      Date.now(),
    );
  }

  onTestModuleQueued(module: TestModule): void {
    this.watch?.started(module.moduleId, projectTimeoutMs(module), Date.now());
  }

  onTestModuleCollected(module: TestModule): void {
    this.watch?.progress(module.moduleId, { kind: 'between-tests' }, Date.now());
  }

  onTestCaseReady(test: TestCase): void {
    this.watch?.progress(
      test.module.moduleId,
      { kind: 'running', test: test.fullName, timeoutMs: test.options.timeout },
      Date.now(),
    );
  }

  onTestCaseResult(test: TestCase): void {
    this.watch?.progress(test.module.moduleId, { kind: 'between-tests' }, Date.now());
  }

  onHookStart(hook: ReportedHookContext): void {
    this.watch?.progress(moduleOf(hook), { kind: 'hook', hook: hook.name }, Date.now());
  }

  onHookEnd(hook: ReportedHookContext): void {
    this.watch?.progress(moduleOf(hook), { kind: 'between-tests' }, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.watch?.ended(module.moduleId, Date.now());
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  private check(): void {
    if (!this.watch) return;
    const now = Date.now();
    const workers = workerFiles();
    for (const [pid, file] of workers) {
      const ticks = cpuTicksOf(pid);
      if (ticks === undefined) continue;
      if (ticks !== this.cpuTicks.get(pid)) {
        if (file === '') this.watch.runBusy(now);
        else this.watch.busy(file, now);
      }
      this.cpuTicks.set(pid, ticks);
    }
    const cpu = process.cpuUsage(this.mainCpu);
    this.mainCpu = process.cpuUsage();
    if ((cpu.user + cpu.system) / 1000 > MAIN_BUSY_SHARE * this.intervalMs) this.watch.runBusy(now);
    for (const stuck of this.watch.stuck(now)) {
      if (this.reported.has(stuck.file)) continue;
      this.reported.add(stuck.file);
      const file = relative(this.root, stuck.file);
      const pids = [...workers].filter(([, running]) => running === stuck.file).map(([pid]) => pid);
      this.report(`a test file is stuck: ${describeStuck({ ...stuck, file })}`, pids);
    }
    const never = this.watch.neverStarted(now).map((file) => relative(this.root, file));
    // Labels are absolute paths; a worker with none never ran its setup files.
    if (never.length > 0 && !this.reported.has('(never started)')) {
      this.reported.add('(never started)');
      // A worker that never ran its setup files is the one that never started its file.
      const idle = [...workers].filter(([, running]) => running === '').map(([pid]) => pid);
      this.report(
        `the run has been silent with no file in flight; never started: ${never.slice(0, 10).join(', ')}${never.length > 10 ? ` and ${never.length - 10} more` : ''}`,
        idle,
      );
    }
  }

  private report(what: string, pids: number[]): void {
    const lines = [
      `stuck-file watchdog: ${what}`,
      ...ipcPipeLines().map((line) => `  main process ${line}`),
      `  its worker: ${pids.length > 0 ? pids.map((pid) => `pid ${pid}`).join(', ') : 'not found (it never ran its setup files)'}; its dump follows, then it is ended`,
    ];
    for (const pid of pids) lines.push(...threadLines(pid), ...nativeStacks(pid));
    process.stderr.write(`\n${lines.join('\n')}\n`);
    for (const pid of pids) signal(pid, 'SIGUSR2');
    setTimeout(() => {
      for (const pid of pids) signal(pid, 'SIGKILL');
    }, DUMP_GRACE_MS).unref();
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already: nothing to ask or end.
  }
}

/**
 * What each thread of a worker waits in, from /proc: its state, the kernel
 * function it sleeps in and its system call. A worker blocked in a
 * synchronous call cannot run its SIGUSR2 dump; this still names the call.
 */
function threadLines(pid: number): string[] {
  const lines = [`  worker ${pid}'s threads (name, state, waits in, system call):`];
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const read = (name: string): string => {
        try {
          return readFileSync(`/proc/${pid}/task/${tid}/${name}`, 'utf8').trim();
        } catch {
          return '?';
        }
      };
      const state = read('stat').split(') ')[1]?.split(' ')[0] ?? '?';
      lines.push(
        `    ${tid} ${read('comm')} ${state} ${read('wchan')} ${read('syscall').split(' ')[0]}`,
      );
    }
  } catch {
    lines.push('    (gone)');
  }
  return lines;
}

/** The worker's native stacks where gdb is installed (it is not on every machine: optional). */
function nativeStacks(pid: number): string[] {
  try {
    const stacks = execFileSync(
      'gdb',
      ['-p', String(pid), '-batch', '-nx', '-ex', 'thread apply all bt 25'],
      { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const lines = stacks.split('\n').filter((line) => /^(Thread|#)/.test(line));
    // The main thread (the one whose id is the pid) first: it is the one that runs the tests.
    const threads = lines.join('\n').split(/\n(?=Thread )/);
    const main = threads.filter((thread) => thread.includes(`(LWP ${pid})`));
    const ordered = [...main, ...threads.filter((thread) => !main.includes(thread))];
    return [
      `  worker ${pid}'s native stacks (gdb), its main thread first:`,
      ...ordered
        .join('\n')
        .split('\n')
        .slice(0, 300)
        .map((line) => `    ${line}`),
    ];
  } catch {
    return [`  worker ${pid}'s native stacks: no gdb here, or it could not attach`];
  }
}

/** A process's user and system CPU time in clock ticks (/proc), or undefined where there is none. */
function cpuTicksOf(pid: number): number | undefined {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** The run's live test workers (vitest's forks, children of this process) and the file each names ('' for none yet). */
function workerFiles(): Map<number, string> {
  const files = new Map<number, string>();
  let children: number[] = [];
  try {
    children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter((line) => /workers\/forks\.js/.test(line))
      .map((line) => Number.parseInt(line, 10))
      .filter((pid) => pid > 0);
  } catch {
    return files;
  }
  const folder = join(tmpdir(), WORKER_LABELS);
  let labelled: string[] = [];
  try {
    labelled = readdirSync(folder);
  } catch {
    // No worker has named its file yet.
  }
  for (const pid of children) {
    files.set(
      pid,
      labelled.includes(String(pid)) ? readFileSync(join(folder, String(pid)), 'utf8') : '',
    );
  }
  return files;
}
