/**
 * Footprint of the built daemon, as the Pi runs it: `node
 * dist/firmware-host/cli.js run --config <bench config>` with plain node.
 *
 * - cold start: from spawning the process to `online` on its retained
 *   bridge/state (a subscriber on the broker sees it);
 * - CPU when idle: the daemon's threads' CPU time from /proc over a few seconds,
 *   with the shoe connected (the daemon PINGs it every second) and no cards;
 * - resident memory (VmRSS, /proc/<pid>/status) after a whole 8-deck shoe
 *   dealt by a shoe simulator over a socat pty, and after each of the next
 *   shoes: a daemon that runs for years must not grow shoe after shoe;
 * - while it deals, each card's latency through this process (CARD frame
 *   written on the pty to the card event from the broker) and the daemon's
 *   CPU per card: the cost of the deployed node flags, which the in-process
 *   latency bench (pipeline.ts) does not run with.
 *
 * - cold start again on a journal of JOURNAL_SHOES whole shoes (written
 *   first, in-process, by the daemon itself), with its per-shoe checkpoints
 *   and without them (an older build's journal, replayed from seq 1): start
 *   time must follow the current shoe, not the table's history.
 *
 * `npm run build` runs first (here), so the figures are of what ships.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startTestBroker } from '../helpers/broker.ts';
import {
  BUILT_CLI,
  build,
  cpuSeconds,
  type DaemonProcess,
  deployedNodeFlags,
  residentMegabytes,
  sleep,
  startDaemonProcess,
  untilOnline,
  writeDaemonConfig,
} from './built-daemon.ts';
import { BenchPtyPair, SOCAT } from './pty.ts';

/**
 * Shoes dealt one after the other; RSS is read after each. A week at a busy
 * table is about this many: the growth after the first shoes must be flat.
 */
export const FOOTPRINT_SHOES = 150;

/** The shoes a daemon takes to warm up (JIT, caches) before its RSS must stay flat. */
export const WARM_UP_SHOES = 10;

/** Shoes in the journal of the second cold start. */
export const JOURNAL_SHOES = 20;

export interface FootprintFigures {
  /** The node flags measured with (from the systemd unit). */
  node_flags: string;
  cold_start_ms: number | null;
  /** Cold start on a journal of JOURNAL_SHOES shoes, each file opening with a checkpoint. */
  cold_start_after_20_shoes_ms?: number | null;
  /** The same journal without checkpoints (as before them): a replay from seq 1. */
  cold_start_after_20_shoes_without_checkpoints_ms?: number | null;
  /** After the first shoe: the figure with a target. */
  rss_after_shoe_mb: number | null;
  /** After the last shoe (FOOTPRINT_SHOES): close to the first when nothing leaks. */
  rss_after_last_shoe_mb: number | null;
  /** After each shoe, in order. */
  rss_after_each_shoe_mb: number[];
  /** After WARM_UP_SHOES shoes. */
  rss_after_warm_up_mb?: number | null;
  /** Least-squares slope of RSS over the shoes after the warm-up: 0 when nothing leaks. */
  rss_growth_per_shoe_mb?: number | null;
  idle_cpu_percent: number | null;
  idle_seconds: number;
  cards_dealt: number;
  /** The built daemon's own CPU (user + system) per card dealt. */
  cpu_ms_per_card: number | null;
  /** Per card, the CARD frame written on the pty to the card event from the broker (stop and wait). */
  card_latency_p50_ms: number | null;
  card_latency_p99_ms: number | null;
  /** The extremes beside the median: a stall shows here. */
  card_latency_min_ms?: number | null;
  card_latency_max_ms?: number | null;
  /** Why figures are null, when they are. */
  note?: string;
}

/** Least-squares slope of `values` against their index; null under three points. */
export function slope(values: readonly number[]): number | null {
  const n = values.length;
  if (n < 3) return null;
  const meanX = (n - 1) / 2;
  const meanY = values.reduce((sum, value) => sum + value, 0) / n;
  let covariance = 0;
  let variance = 0;
  values.forEach((value, index) => {
    covariance += (index - meanX) * (value - meanY);
    variance += (index - meanX) ** 2;
  });
  return Math.round((covariance / variance) * 10_000) / 10_000;
}

/**
 * A journal of `shoes` whole shoes (8 decks dealt to the cut card), written
 * by the daemon itself in this process; without checkpoints it is the
 * journal an older build left.
 */
async function writeShoesJournal(dir: string, shoes: number, checkpoints: boolean): Promise<void> {
  const [
    { TableDaemon },
    { resolveConfig },
    { dealLegalSession, seededRandom },
    engines,
    rulesets,
  ] = await Promise.all([
    import('../../firmware-host/daemon/table-daemon.ts'),
    import('../../firmware-host/config/loader.ts'),
    import('../../firmware-host/games/cards/table/legal-deal.ts'),
    import('../../firmware-host/games/engines.ts'),
    import('../../firmware-host/games/rulesets.ts'),
  ]);
  const { freePort } = await import('../helpers/ports.ts');
  const ruleset = rulesets.getRuleset('tdc-baccarat-no-commission');
  const { records } = dealLegalSession({
    ruleset,
    engine: engines.createEngine(ruleset),
    random: seededRandom(20),
    shoes,
  });
  const { config } = resolveConfig(
    {
      table: 'footprint-1',
      ruleset: ruleset.name,
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir, rotateDaily: false },
      session: { autoRound: true },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  if (!checkpoints) {
    (daemon as unknown as { core: { checkpointData: () => undefined } }).core.checkpointData = () =>
      undefined;
  }
  await daemon.start();
  try {
    for (const record of records) await daemon.ingest(record);
  } finally {
    await daemon.stop();
  }
}

/** Spawns the built daemon on a journal; milliseconds to `online`, or null. */
async function coldStartOn(
  journalDir: string,
  options: { brokerUrl: string; nodeFlags: string[]; device: string; topic: string },
): Promise<number | null> {
  const { connectAsync } = await import('mqtt');
  const configFile = join(journalDir, '..', 'config-journal.json');
  await writeDaemonConfig(configFile, {
    table: 'footprint-1',
    devicePath: options.device,
    brokerUrl: options.brokerUrl,
    journal: { dir: journalDir, rotateDaily: false },
  });
  const client = await connectAsync(options.brokerUrl, {
    clientId: `bench-footprint-journal-${process.pid}`,
    reconnectPeriod: 0,
  });
  let onlineAt: number | undefined;
  let spawnedAt = 0;
  client.on('message', (_topic, payload) => {
    if (payload.toString() === 'online' && spawnedAt > 0) onlineAt ??= performance.now();
  });
  await client.subscribeAsync(options.topic, { qos: 1 });
  // The retained `offline` of the last run arrives now, before the spawn.
  await sleep(100);
  spawnedAt = performance.now();
  const daemon = startDaemonProcess({
    configFile,
    cwd: join(journalDir, '..'),
    flags: options.nodeFlags,
  });
  try {
    await untilOnline(() => onlineAt !== undefined, daemon.child, 60_000);
    return onlineAt === undefined ? null : Math.round(onlineAt - spawnedAt);
  } finally {
    await daemon.stop();
    await client.endAsync().catch(() => undefined);
  }
}

export async function benchFootprint(
  options: { idleSeconds?: number; shoes?: number } = {},
): Promise<FootprintFigures> {
  const idleSeconds = options.idleSeconds ?? 3;
  const shoes = options.shoes ?? FOOTPRINT_SHOES;
  const nodeFlags = deployedNodeFlags();
  const empty: FootprintFigures = {
    node_flags: nodeFlags.join(' '),
    cold_start_ms: null,
    rss_after_shoe_mb: null,
    rss_after_last_shoe_mb: null,
    rss_after_each_shoe_mb: [],
    idle_cpu_percent: null,
    idle_seconds: idleSeconds,
    cards_dealt: 0,
    cpu_ms_per_card: null,
    card_latency_p50_ms: null,
    card_latency_p99_ms: null,
  };
  if (!existsSync('/proc/self/stat')) return { ...empty, note: 'no /proc: Linux only' };
  if (!SOCAT) return { ...empty, note: 'socat is not installed' };
  const buildError = build();
  if (buildError && !existsSync(BUILT_CLI))
    return { ...empty, note: `npm run build failed: ${buildError}` };
  const buildNote = buildError
    ? { note: `npm run build reported errors (${buildError}); measured the dist/ it emitted` }
    : {};
  const [{ SimulatedDevice }, { openTransport }, { tableTopics }, { connectAsync }] =
    await Promise.all([
      import('../../simulators/device.ts'),
      import('../../hardware/transports/url.ts'),
      import('../../firmware-host/mqtt/topics.ts'),
      import('mqtt'),
    ]);
  const broker = await startTestBroker();
  const pair = new BenchPtyPair();
  const dir = await mkdtemp(join(tmpdir(), 'tableside-footprint-'));
  const topics = tableTopics('bench', 'footprint-1');
  let daemon: DaemonProcess | undefined;
  const client = await connectAsync(broker.url, {
    clientId: `bench-footprint-${process.pid}`,
    reconnectPeriod: 0,
  });
  const historyFigures: Partial<FootprintFigures> = {};
  try {
    await pair.start();
    for (const checkpoints of [true, false]) {
      const journalDir = join(
        dir,
        checkpoints ? 'history' : 'history-without-checkpoints',
        'journal',
      );
      await writeShoesJournal(journalDir, JOURNAL_SHOES, checkpoints);
      const ms = await coldStartOn(journalDir, {
        brokerUrl: broker.url,
        nodeFlags,
        device: pair.a,
        topic: topics.bridgeState,
      });
      if (checkpoints) historyFigures.cold_start_after_20_shoes_ms = ms;
      else historyFigures.cold_start_after_20_shoes_without_checkpoints_ms = ms;
    }
    const configFile = join(dir, 'config.json');
    await writeDaemonConfig(configFile, {
      table: 'footprint-1',
      devicePath: pair.a,
      brokerUrl: broker.url,
      journal: { dir: join(dir, 'journal') },
    });
    let onlineAt: number | undefined;
    let cards = 0;
    let cardWrittenAt: number | undefined;
    const latencies: number[] = [];
    client.on('message', (topic, payload) => {
      if (topic === topics.bridgeState && payload.toString() === 'online')
        onlineAt ??= performance.now();
      if (topic === topics.events('card')) {
        cards++;
        if (cardWrittenAt !== undefined) latencies.push(performance.now() - cardWrittenAt);
        cardWrittenAt = undefined;
      }
    });
    await client.subscribeAsync([topics.bridgeState, topics.events('card')], { qos: 1 });

    const spawnedAt = performance.now();
    daemon = startDaemonProcess({ configFile, cwd: dir, flags: nodeFlags });
    await untilOnline(() => onlineAt !== undefined, daemon.child, 10_000);
    if (onlineAt === undefined) {
      return {
        ...empty,
        note: `the built daemon did not publish bridge/state online within 10 s (is \`tableside run\` in this build?)${daemon.stderr() ? `: ${daemon.lastLines()}` : ''}`,
      };
    }
    const coldStartMs = onlineAt - spawnedAt;

    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 3,
      transport: openTransport(pair.b),
      scenario: {
        on: [],
        off: [],
        steps: Array.from({ length: shoes }, () => [
          { op: 'shuffle' as const },
          { op: 'deal' as const, count: 'rest' as const },
        ]).flat(),
      },
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    sim.on('wrote', (line) => {
      if (cardWrittenAt === undefined && /^\$SH,\d+,CARD,/.test(line))
        cardWrittenAt = performance.now();
    });
    try {
      sim.start();
      await Promise.race([sim.whenReady(), sleep(10_000)]);
      await sleep(1000);
      const pid = daemon.child.pid!;
      const cpuBefore = cpuSeconds(pid);
      const idleStarted = performance.now();
      await sleep(idleSeconds * 1000);
      const idleCpu = (cpuSeconds(pid) - cpuBefore) / ((performance.now() - idleStarted) / 1000);

      const rssAfterShoe: number[] = [];
      const cpuBeforeDeal = cpuSeconds(pid);
      let dealt = 0;
      for (let shoe = 0; shoe < shoes; shoe++) {
        // A new shoe, as the table-management system would declare it; then the dealer deals it.
        await client.publishAsync(topics.request('new_shoe'), JSON.stringify({ reason: 'bench' }), {
          qos: 1,
        });
        await sleep(200);
        do {
          const next = sim.steps
            .slice(sim.nextStepIndex)
            .find((step) => step.kind === 'card' || step.kind === 'cut');
          if (!(await sim.step())) break;
          if (next?.kind === 'card') dealt++;
          // Stop and wait, as the shoe does: the next card once this one is
          // ACKed, and (for its latency) once its event has arrived.
          for (
            let waited = 0;
            (sim.pending.inFlight > 0 || sim.pending.queued > 0 || cards < dealt) && waited < 5000;
            waited++
          ) {
            await sleep(1);
          }
          cardWrittenAt = undefined;
        } while (sim.steps[sim.nextStepIndex] && sim.steps[sim.nextStepIndex]!.kind !== 'shuffle');
        for (let waited = 0; cards < dealt && waited < 10_000; waited += 20) await sleep(20);
        rssAfterShoe.push(Math.round(residentMegabytes(pid) * 10) / 10);
      }
      const cpuPerCard = (cpuSeconds(pid) - cpuBeforeDeal) / Math.max(cards, 1);
      const sorted = [...latencies].sort((a, b) => a - b);
      const at = (p: number) =>
        sorted.length === 0
          ? null
          : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! * 1000) /
            1000;
      return {
        node_flags: nodeFlags.join(' '),
        cold_start_ms: Math.round(coldStartMs),
        ...historyFigures,
        rss_after_shoe_mb: rssAfterShoe[0] ?? null,
        rss_after_last_shoe_mb: rssAfterShoe.at(-1) ?? null,
        rss_after_each_shoe_mb: rssAfterShoe,
        rss_after_warm_up_mb: rssAfterShoe[WARM_UP_SHOES - 1] ?? null,
        rss_growth_per_shoe_mb: slope(rssAfterShoe.slice(WARM_UP_SHOES)),
        idle_cpu_percent: Math.round(idleCpu * 1000) / 10,
        idle_seconds: idleSeconds,
        cards_dealt: cards,
        cpu_ms_per_card: Math.round(cpuPerCard * 1000 * 100) / 100,
        card_latency_p50_ms: at(0.5),
        card_latency_p99_ms: at(0.99),
        card_latency_min_ms: at(0),
        card_latency_max_ms: at(1),
        ...buildNote,
      };
    } finally {
      await sim.stop();
    }
  } finally {
    await daemon?.stop();
    await client.endAsync().catch(() => undefined);
    await pair.stop();
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}
