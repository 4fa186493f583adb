/**
 * `npm run bench` (a table) / `npm run bench -- --json` (one object). Either
 * way the run's results file is written under docs/bench/results/ (not with
 * `--no-save`); `npm run bench:docs` renders the docs' figures from them.
 *
 * Each figure is measured in this run next to its baseline (the bare relay
 * for latency, `phe` for the evaluator), because shared machines are noisy:
 * the ratio is the figure to compare between machines. Targets are reported
 * as met or not met, never asserted: benchmarks are not tests.
 *
 * latency, burst and footprint run the built daemon (`npm run build`, once) as
 * a child with the systemd unit's node flags, over socat ptys and mosquitto.
 *
 * `--only NAME[,NAME]` runs some of: latency, wear, wake, burst, footprint, evaluator, analysis, holdem, mqtt, wheel, spins, signing, auth, pn532, shoe, web, fleet
 * (fleet runs only when named: `--only fleet`; `--fleet 1,8` or TABLESIDE_FLEET=1,8 sets the fleet sizes,
 * default 1,8,16,32).
 * `--compare-dist DIR` adds to the latency lanes the daemon of another build
 * (DIR: its dist/), interleaved card by card with this one and the relays.
 * `--latency-runs N` (default 3) runs the latency lanes N times: their
 * targets are judged on the median of the runs' same-run ratios
 * (`latency.median.<phase>`, with each ratio's min and max).
 */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { figureSpecs } from './figures.ts';
import { benchResults, RESULTS_DIR, saveResults } from './results.ts';

// The daemon's info logs would interleave with the table.
process.env.TABLESIDE_LOG_LEVEL ??= 'warn';

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? '').split(',')) : undefined;
const wanted = (name: string) => !only || only.has(name);
const compareAt = argv.indexOf('--compare-dist');
const compareDist = compareAt >= 0 ? argv[compareAt + 1] : undefined;
const runsAt = argv.indexOf('--latency-runs');
/** The latency lanes run this often; their targets are read from the median run's ratios. */
const latencyRuns = runsAt >= 0 ? Math.max(1, Number(argv[runsAt + 1]) || 1) : 3;

interface Target {
  figure: string;
  target: string;
  value: number | null;
  met: boolean | null;
}

type Figures = Record<string, unknown>;

function log(message: string): void {
  if (!json) process.stderr.write(`${message}\n`);
}

async function measure<T>(name: string, run: () => Promise<T> | T): Promise<T | { error: string }> {
  log(`… ${name}`);
  const started = performance.now();
  try {
    const result = await run();
    log(`  ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  ${name} failed: ${message}`);
    return { error: message };
  }
}

function get(figures: Figures, path: string): number | null {
  let node: unknown = figures;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object') return null;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'number' && Number.isFinite(node) ? node : null;
}

/**
 * The latency lanes' back-to-back phase under the names the table and
 * `--json` readers have used (latency.p99_ms, latency.baseline.p99_ms,
 * latency.ratio_p99), beside the three phases in full.
 */
function withHeadline(lanes: unknown): unknown {
  const phase = (lanes as { back_to_back?: Record<string, unknown> }).back_to_back;
  if (!phase) return lanes;
  const daemon = phase.daemon as Record<string, number>;
  const relay = phase.relay as Record<string, number>;
  return {
    min_ms: daemon.min_ms,
    p50_ms: daemon.p50_ms,
    p99_ms: daemon.p99_ms,
    max_ms: daemon.max_ms,
    baseline: {
      min_ms: relay.min_ms,
      p50_ms: relay.p50_ms,
      p99_ms: relay.p99_ms,
      max_ms: relay.max_ms,
    },
    ratio_p50: phase.ratio_p50,
    ratio_p99: phase.ratio_p99,
    ...(lanes as object),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const load = loadavg().map((value) => Math.round(value * 100) / 100);
  const figures: Figures = {
    machine: {
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      cores: cpus().length,
      memory_gb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      date: new Date().toISOString(),
    },
  };
  if (wanted('evaluator')) {
    const { benchEvaluator } = await import('./evaluator.ts');
    figures.evaluator = await measure(
      'hand evaluation (all 133,784,560 seven-card hands, ours and phe)',
      () => benchEvaluator(),
    );
  }
  if (wanted('analysis')) {
    const { benchAnalysis } = await import('./analysis.ts');
    figures.analysis = await measure('exact baccarat analysis, 8 decks', () => benchAnalysis());
  }
  if (wanted('holdem')) {
    const { benchHoldemShowdown } = await import('./holdem-showdown.ts');
    figures.holdem = await measure("hold'em showdown: card classes against card by card", () =>
      benchHoldemShowdown(),
    );
  }
  if (wanted('mqtt')) {
    const { benchMqttPublish } = await import('./mqtt-publish.ts');
    figures.mqtt = await measure(
      'MQTT bridge CPU per event: as it is (3.1.1 and 5) against the bridge before issue 16',
      () => benchMqttPublish(),
    );
  }
  if (wanted('wheel')) {
    const { benchWheel } = await import('./wheel.ts');
    figures.wheel = await measure('roulette: wheel-bias report and slip settlement', () =>
      benchWheel(),
    );
  }
  if (wanted('spins')) {
    const { benchSpins } = await import('./spins.ts');
    figures.spins = await measure(
      'spin latency: a wheel RESULT to its spin event (a shoe CARD to its card event as baseline)',
      () => benchSpins(),
    );
  }
  if (wanted('latency')) {
    const { benchLatencyLanes, medianRatios } = await import('./latency-lanes.ts');
    const runs: unknown[] = [];
    for (let run = 1; run <= latencyRuns; run++) {
      runs.push(
        await measure(
          `card latency, run ${run} of ${latencyRuns}: built daemon (unpaired and paired), durable relay and bare relay${compareDist ? ` and the build in ${compareDist}` : ''} as children with the unit flags, each on a pty, interleaved card by card; back to back, every 50 ms, every 500 ms`,
          () =>
            benchLatencyLanes(
              compareDist === undefined ? {} : { compareDist: resolve(compareDist) },
            ),
        ),
      );
    }
    const measured = runs.filter(
      (run): run is Awaited<ReturnType<typeof benchLatencyLanes>> =>
        typeof run === 'object' && run !== null && !('error' in run),
    );
    figures.latency =
      measured.length === 0
        ? runs[0]
        : {
            ...(withHeadline(measured[0]) as object),
            runs: measured.length,
            median: medianRatios(measured),
            later_runs: measured.slice(1),
          };
  }
  if (wanted('wear')) {
    const { benchWear } = await import('./wear.ts');
    figures.wear = await measure(
      'SD-card wear: bytes written and durable writes per card (/proc/<pid>/io, strace), the built daemon at a steady pace',
      () => benchWear(),
    );
  }
  if (wanted('wake')) {
    const { benchWakePenalty } = await import('./wake-penalty.ts');
    figures.wake = await measure(
      "the machine's wake penalty: the daemon's and the relay's pure work for a card, unit flags, back to back and after 5, 50, 500 ms",
      () => benchWakePenalty(),
    );
  }
  if (wanted('burst')) {
    const [{ benchBuiltBursts }, { DEVICE_SESSION_DEFAULTS }, { PROTOCOL_VERSION }] =
      await Promise.all([
        import('./burst-lane.ts'),
        import('../../simulators/device.ts'),
        import('../../device-protocol/messages.ts'),
      ]);
    // The simulator's own shoe (its protocol and default window) is the figure;
    // a 1.1 stop-and-wait shoe is the baseline, measured in the same run.
    const burst = await measure(
      `reconnect burst of a whole shoe, built daemon over a pty, ${PROTOCOL_VERSION} shoe, window ${DEVICE_SESSION_DEFAULTS.maxInFlight} (5 runs)`,
      () =>
        benchBuiltBursts(
          { protocol: PROTOCOL_VERSION, window: DEVICE_SESSION_DEFAULTS.maxInFlight },
          5,
        ),
    );
    const narrow = await measure('reconnect burst, window 8 (3 runs)', () =>
      benchBuiltBursts({ protocol: PROTOCOL_VERSION, window: 8 }, 3),
    );
    const stopAndWait = await measure('reconnect burst, 1.1 stop-and-wait shoe (3 runs)', () =>
      benchBuiltBursts({ protocol: '1.1', window: 1 }, 3),
    );
    const rate = (series: unknown) => (series as { cards_per_s?: number }).cards_per_s;
    const ours = rate(burst);
    const baseline = rate(stopAndWait);
    figures.burst = {
      ...(burst as object),
      window_8: narrow,
      stop_and_wait: stopAndWait,
      ratio_to_stop_and_wait:
        ours !== undefined && baseline !== undefined
          ? Math.round((ours / baseline) * 10) / 10
          : null,
    };
  }
  if (wanted('signing')) {
    const { benchSigning } = await import('./signing.ts');
    figures.signing = await measure('signed requests and signed journal heads', () =>
      benchSigning(),
    );
  }
  if (wanted('auth')) {
    const { benchAuth } = await import('./auth.ts');
    figures.auth = await measure(
      'device authentication (1.4): per frame, per handshake, card latency of a paired shoe',
      () => benchAuth(),
    );
  }
  if (wanted('pn532')) {
    const { benchPn532Reader } = await import('./readers.ts');
    figures.pn532 = await measure(
      'PN532 reader over a pty: tag in the field to card record (150 tags, and a protocol reader)',
      () => benchPn532Reader(),
    );
  }
  if (wanted('shoe')) {
    const { benchShoeLatency } = await import('./shoe.ts');
    const standard = await measure(
      'shoe firmware: beam break to CARD on the wire, emulated StandardFirmata (57600 baud), PN532, TCS34725 (100 cards)',
      () => benchShoeLatency(100, 57_600),
    );
    const fast = await measure('shoe firmware, the board at 115200 baud (60 cards)', () =>
      benchShoeLatency(60, 115_200),
    );
    figures.shoe = { ...(standard as object), baud_115200: fast };
  }
  if (wanted('footprint')) {
    const { benchFootprint } = await import('./footprint.ts');
    figures.footprint = await measure('footprint of the built daemon (npm run build first)', () =>
      benchFootprint(),
    );
  }

  if (wanted('web')) {
    const { benchWeb } = await import('./web.ts');
    figures.web = await measure(
      'web console: RSS on with one browser vs off, first card after reconnect',
      () => benchWeb(),
    );
  }

  if (only?.has('fleet')) {
    const { benchFleet, fleetSizes, formatFleet } = await import('./fleet.ts');
    const sizes = fleetSizes(argv);
    const fleet = await measure(
      `fleet: ${sizes.join(', ')} built daemons on one mosquitto, then bridged (8 tables per edge broker), two shared consumers`,
      () => benchFleet({ sizes, log }),
    );
    figures.fleet = fleet;
    if (!json && !('error' in fleet)) log(formatFleet(fleet));
  }

  const targets: Target[] = [];
  const target = (figure: string, text: string, met: (value: number) => boolean) => {
    const value = get(figures, figure);
    targets.push({ figure, target: text, value, met: value === null ? null : met(value) });
  };
  if (wanted('latency')) {
    target('latency.p99_ms', '≤ 5 ms', (value) => value <= 5);
    for (const phase of ['back_to_back', 'paced_50ms', 'dealer_pace']) {
      for (const lane of ['durable', 'paired_durable']) {
        target(
          `latency.median.${phase}.ratio_${lane}_p50`,
          '≤ 1.25× the durable relay (median of the runs)',
          (value) => value <= 1.25,
        );
        target(
          `latency.median.${phase}.ratio_${lane}_p99`,
          '≤ 2× the durable relay (median of the runs)',
          (value) => value <= 2,
        );
      }
    }
    target(
      'latency.median.dealer_pace.ratio_durable_cpu_per_card',
      '≤ 1.5× the durable relay at a dealer pace (median of the runs)',
      (value) => value <= 1.5,
    );
  }
  if (wanted('burst')) target('burst.cards_per_s', '≥ 2,000 cards/s', (value) => value >= 2000);
  if (wanted('footprint')) {
    target('footprint.cold_start_ms', '≤ 1,500 ms to online', (value) => value <= 1500);
    target('footprint.rss_after_shoe_mb', '≤ 80 MB after a shoe', (value) => value <= 80);
    target(
      'footprint.rss_growth_per_shoe_mb',
      '≤ 0.02 MB a shoe after the first 10 (flat)',
      (value) => value <= 0.02,
    );
  }
  if (wanted('signing')) {
    target('signing.verify_request_us', '≤ 1,000 µs per request', (value) => value <= 1000);
  }
  if (wanted('auth')) {
    target('auth.per_frame.added_us', '≤ 100 µs per frame', (value) => value <= 100);
    target('auth.handshake_ed25519.p95_ms', '≤ 50 ms per handshake', (value) => value <= 50);
    target('auth.handshake_p256.p95_ms', '≤ 50 ms per handshake', (value) => value <= 50);
    target('auth.latency_paired.ratio_p99', '≤ 2× the bare relay', (value) => value <= 2);
  }
  if (wanted('web')) {
    target(
      'web.rss_added_mb',
      '≤ 15 MB with the console on and one browser',
      (value) => value <= 15,
    );
    target('web.first_card_after_feed_drop_ms', '< 1,000 ms', (value) => value < 1000);
    target('web.page_code_gzip_kb', '< 150 kB compressed', (value) => value < 150);
  }
  if (wanted('evaluator')) target('evaluator.ratio', '> 1 (faster than phe)', (value) => value > 1);
  if (wanted('pn532')) target('pn532.p99_ms', '≤ 50 ms (the card budget)', (value) => value <= 50);
  if (wanted('shoe')) target('shoe.p99_ms', '≤ 50 ms beam to CARD', (value) => value <= 50);
  if (wanted('evaluator')) {
    target('evaluator.incremental.ratio', '>= 1 (two-plus-two table)', (value) => value >= 1);
  }
  figures.targets = targets;
  figures.run_seconds = Math.round((performance.now() - started) / 100) / 10;

  if (!argv.includes('--no-save')) {
    const machine = figures.machine as Record<string, unknown>;
    const path = saveResults(
      benchResults({
        figures,
        targets,
        machine: {
          cpu: String(machine.cpu),
          cores: Number(machine.cores),
          memory_gb: Number(machine.memory_gb),
          node: String(machine.node),
          platform: String(machine.platform),
          load_average: load,
        },
        build: checkout(),
        date: String(machine.date),
        runSeconds: figures.run_seconds as number,
      }),
      RESULTS_DIR,
    );
    log(`results: ${path} (npm run bench:docs renders them into docs/developer/benchmarks.md)`);
  }

  if (json) {
    process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
  } else {
    process.stdout.write(formatTable(figures, targets));
  }
}

/** The commit measured, and whether tracked files differed from it. */
function checkout(): { commit: string; dirty: boolean } {
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: import.meta.dirname, encoding: 'utf8' }).trim();
  try {
    return {
      commit: git('rev-parse', 'HEAD'),
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    };
  } catch (error) {
    // Not a git checkout (an unpacked tarball): the run is still worth keeping.
    return {
      commit: `unknown (${error instanceof Error ? error.message.split('\n')[0] : error})`,
      dirty: false,
    };
  }
}

function formatTable(figures: Figures, targets: readonly Target[]): string {
  const machine = figures.machine as Record<string, unknown>;
  const rows: [string, string, string][] = [];
  for (const spec of figureSpecs()) {
    if (spec.kind === 'value') add(spec.path, spec.unit, spec.label);
    else if (spec.kind === 'spread') addSpread(spec.path, spec.label);
    else addRange(spec.path, spec.key, spec.unit, spec.label);
  }
  function add(name: string, unit: string, against?: string) {
    const value = get(figures, name);
    const mark = targets.find((t) => t.figure === name);
    const verdict = mark
      ? mark.met === null
        ? ''
        : mark.met
          ? `met (${mark.target})`
          : `NOT met (${mark.target})`
      : '';
    rows.push([
      name,
      value === null ? '-' : `${format(value)} ${unit}`.trim(),
      [against, verdict].filter(Boolean).join('; '),
    ]);
  }
  /** min / p50 / p99 / max of a lane, in one row: the median never alone. */
  function addSpread(name: string, against: string) {
    const [min, p50, p99, max] = ['min_ms', 'p50_ms', 'p99_ms', 'max_ms'].map((key) =>
      get(figures, `${name}.${key}`),
    );
    const value =
      p50 === null
        ? '-'
        : `${[min, p50, p99, max].map((v) => (v === null || v === undefined ? '-' : format(v))).join(' / ')} ms`;
    rows.push([`${name} min/p50/p99/max`, value, against]);
  }
  /** min / median / max of a series of runs, in one row, with its target verdict. */
  function addRange(name: string, key: string, unit: string, against: string) {
    const median = get(figures, `${name}.${key}`);
    const min = get(figures, `${name}.min_${key}`);
    const max = get(figures, `${name}.max_${key}`);
    const mark = targets.find((t) => t.figure === `${name}.${key}`);
    const verdict =
      mark && mark.met !== null ? `${mark.met ? 'met' : 'NOT met'} (${mark.target})` : '';
    rows.push([
      `${name}.${key} min/median/max`,
      median === null
        ? '-'
        : `${[min, median, max].map((v) => (v === null ? '-' : format(v))).join(' / ')} ${unit}`,
      [against, verdict].filter(Boolean).join('; '),
    ]);
  }
  // Only the lanes that ran (`--only`): a row of dashes for every other one says nothing.
  // The compared build's rows only when one was compared (--compare-dist).
  const comparedOnly = (row: [string, string, string]) =>
    row[1] === '-' && /\.(old\b|ratio_old_|ratio_new_old_)/.test(row[0]);
  const shown = rows.filter((row) => row[0].split('.')[0]! in figures && !comparedOnly(row));
  const widths = [0, 1, 2].map((column) => Math.max(...shown.map((row) => row[column]!.length), 6));
  const lines = [
    `tableside benchmarks: ${machine.cpu}, ${machine.cores} cores, ${machine.memory_gb} GB, Node ${machine.node}, ${machine.platform}`,
    '',
    ...shown.map(
      (row) => `${row[0].padEnd(widths[0]!)}  ${row[1].padStart(widths[1]!)}  ${row[2]}`,
    ),
  ];
  const errors = Object.entries(figures).filter(
    ([, value]) => value !== null && typeof value === 'object' && 'error' in (value as object),
  );
  for (const [name, value] of errors)
    lines.push(`${name}: failed: ${(value as { error: string }).error}`);
  const note = (figures.footprint as { note?: string } | undefined)?.note;
  if (note) lines.push(`footprint: ${note}`);
  lines.push('', `(${figures.run_seconds} s; targets are reported, never asserted)`);
  return `${lines.join('\n')}\n`;
}

function format(value: number): string {
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return String(Math.round(value * 1000) / 1000);
}

await main();
process.exit(0);
