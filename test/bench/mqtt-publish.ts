/**
 * CPU per published event in the daemon's process: the bridge as it is
 * against the bridge before issue 16 (commit BASELINE_COMMIT, loaded from
 * git into a temp folder), in one run, lanes rotated round by round with a
 * GC between lanes, against a real mosquitto:
 *
 * - journal: the journal alone (what every lane shares);
 * - baseline: the journal and the old bridge (MQTT 3.1.1);
 * - lean-v4 / lean-v5: the journal and the bridge as it is, 3.1.1 and 5.
 *
 * Three figures per lane: `catchUp`, a backlog of events served from memory
 * and published from the cursor (only the bridge and MQTT.js work: their
 * own CPU per event, the figure to compare); `paced`, one group commit per
 * card (its input and its event) waiting for the PUBACK before the next (the
 * journal's fsync and the wake-ups included); `burst`, group commits of 8
 * events, with the socket writes per group commit.
 *
 *   node --expose-gc --import tsx test/bench/mqtt-publish.ts [--cards 120] [--rounds 4]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Journal } from '../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import type { BridgeOptions, JournalSource, MqttBridge } from '../../firmware-host/mqtt/bridge.ts';
import type { DomainEvent } from '../../firmware-host/table/events.ts';
import { startTestBroker } from '../helpers/broker.ts';

/** The last commit before issue 16's MQTT work. */
const BASELINE_COMMIT = '69f53fe';
const root = resolve(import.meta.dirname, '../..');

type BridgeClass = new (options: BridgeOptions) => MqttBridge;
type Lane = 'journal' | 'baseline' | 'lean-v4' | 'lean-v5';

/** The old bridge.ts, its relative imports pointed at this tree (the files it uses are unchanged). */
async function loadBaseline(dir: string): Promise<BridgeClass> {
  const source = execFileSync('git', ['show', `${BASELINE_COMMIT}:firmware-host/mqtt/bridge.ts`], {
    cwd: root,
    encoding: 'utf8',
  })
    .replaceAll("from '../", `from '${root}/firmware-host/`)
    .replaceAll("import('./", `import('${root}/firmware-host/mqtt/`)
    .replaceAll("from './", `from '${root}/firmware-host/mqtt/`);
  const file = join(dir, 'baseline-bridge.ts');
  writeFileSync(file, source);
  return ((await import(file)) as { MqttBridge: BridgeClass }).MqttBridge;
}

let socketWrites = 0;
function countSocketWrites(): void {
  const proto = Socket.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const method of ['_write', '_writev']) {
    const original = proto[method]!;
    proto[method] = function (this: unknown, ...args: unknown[]) {
      socketWrites++;
      return original.apply(this, args);
    };
  }
}

const cardEvent = (index: number): DomainEvent => ({
  type: 'card',
  card: (['9H', '2C', 'TD', '7S', 'KH', 'AS', '4D', '6C'] as const)[index % 8]!,
  to: index % 2 === 0 ? 'player' : 'banker',
  face: 'up',
  index,
});

/** Polls without spinning: a busy wait would count as the bridge's CPU. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Resolves when the broker has acknowledged every event up to `seq`, woken by the bridge itself. */
function acknowledged(bridge: MqttBridge | undefined, seq: number): Promise<void> | undefined {
  if (!bridge || bridge.acknowledgedSeq >= seq) return undefined;
  return new Promise((resolve) => {
    const check = (acked: number) => {
      if (acked < seq) return;
      bridge.off('acknowledged', check);
      resolve();
    };
    bridge.on('acknowledged', check);
  });
}

/** A journal of `count` card events held in memory (what readRange serves from its cache). */
function memoryJournal(count: number): JournalSource {
  const records: JournalRecord[] = Array.from({ length: count }, (_, index) => ({
    kind: 'event',
    data: cardEvent(index),
    seq: index + 1,
    ts: 1_700_000_000_000 + index,
    prev: '',
  }));
  return {
    lastSeq: count,
    readRange: async (fromSeq, max) => records.slice(fromSeq - 1, fromSeq - 1 + max),
    onDurable: () => () => undefined,
  };
}

interface LaneResult {
  pacedCpuUsPerCard: number;
  burstCpuUsPerEvent: number;
  writesPerGroupCommit: number;
  catchUpCpuUsPerEvent: number;
}

async function runLane(
  lane: Lane,
  Bridge: { baseline: BridgeClass; lean: BridgeClass },
  url: string,
  cards: number,
): Promise<LaneResult> {
  const dir = mkdtempSync(join(tmpdir(), 'tableside-bench-mqtt-'));
  const journal = await Journal.open({
    dir: join(dir, 'journal'),
    table: 't1',
    clock: Date.now,
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  // In memory: the cursor file (fsync and rename per acknowledgement) is the
  // journal's concern, not the MQTT client's, and would drown what this measures.
  const cursor = {
    current: 0,
    advance: async (seq: number) => {
      cursor.current = seq;
    },
  };
  let bridge: MqttBridge | undefined;
  const Class = lane === 'baseline' ? Bridge.baseline : Bridge.lean;
  const makeBridge = () =>
    new Class({
      url,
      table: 't1',
      baseTopic: 'bench',
      clientId: `bench-${lane}-${process.pid}`,
      journal,
      cursor,
      onRequest: () => ({}),
      ...(lane === 'lean-v5' ? { protocolVersion: 5 } : {}),
    });
  try {
    if (lane !== 'journal') {
      bridge = makeBridge();
      await bridge.start();
      await until(() => bridge!.isConnected);
    }
    const settled = async () => {
      await acknowledged(bridge, journal.lastSeq);
    };
    // Warm-up, not measured.
    for (let index = 0; index < 50; index++) {
      await journal.append([{ kind: 'event', data: cardEvent(index) }]);
      await settled();
    }
    let started = process.cpuUsage();
    for (let index = 0; index < cards; index++) {
      await journal.append([
        { kind: 'input', data: { t: 'card', card: '9H', back: 'red', face: 'up' } },
        { kind: 'event', data: cardEvent(index) },
      ]);
      await settled();
    }
    let used = process.cpuUsage(started);
    const pacedCpuUsPerCard = (used.user + used.system) / cards;

    const groups = Math.max(1, Math.floor(cards / 8));
    const writesBefore = socketWrites;
    started = process.cpuUsage();
    for (let group = 0; group < groups; group++) {
      await journal.append(
        Array.from({ length: 8 }, (_, index) => ({
          kind: 'event' as const,
          data: cardEvent(group * 8 + index),
        })),
      );
      await settled();
    }
    used = process.cpuUsage(started);
    const burstCpuUsPerEvent = (used.user + used.system) / (groups * 8);
    const writesPerGroupCommit = (socketWrites - writesBefore) / groups;

    // Catch-up: a backlog published from the cursor, read from memory, so
    // that only the bridge and MQTT.js work: their own CPU per event.
    let catchUpCpuUsPerEvent = Number.NaN;
    if (bridge) {
      await bridge.stop();
      const backlog = memoryJournal(cards * 25);
      bridge = new Class({
        url,
        table: 't1',
        baseTopic: 'bench',
        clientId: `bench-${lane}-catch-up-${process.pid}`,
        journal: backlog,
        cursor: { current: 0, advance: async () => undefined },
        onRequest: () => ({}),
        ...(lane === 'lean-v5' ? { protocolVersion: 5 } : {}),
      });
      const done = acknowledged(bridge, backlog.lastSeq);
      started = process.cpuUsage();
      await bridge.start();
      await done;
      used = process.cpuUsage(started);
      catchUpCpuUsPerEvent = (used.user + used.system) / backlog.lastSeq;
    }
    return { pacedCpuUsPerCard, burstCpuUsPerEvent, writesPerGroupCommit, catchUpCpuUsPerEvent };
  } finally {
    await bridge?.stop();
    await journal.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Spread {
  median: number;
  min: number;
  max: number;
}

interface LaneSummary {
  pacedCpuUsPerCard: Spread;
  burstCpuUsPerEvent: Spread;
  writesPerGroupCommit: number;
  catchUpCpuUsPerEvent: Spread;
}

const spread = (values: number[]): Spread => ({
  median: median(values),
  min: Math.min(...values),
  max: Math.max(...values),
});

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export async function benchMqttPublish(options: { cards?: number; rounds?: number } = {}) {
  const cards = options.cards ?? 120;
  const rounds = options.rounds ?? 4;
  const dir = mkdtempSync(join(tmpdir(), 'tableside-bench-baseline-'));
  const broker = await startTestBroker();
  try {
    countSocketWrites();
    const lean = (await import('../../firmware-host/mqtt/bridge.ts')).MqttBridge;
    const baseline = await loadBaseline(dir);
    const lanes: Lane[] = ['journal', 'baseline', 'lean-v4', 'lean-v5'];
    const results = new Map<Lane, LaneResult[]>(lanes.map((lane) => [lane, []]));
    for (let round = 0; round < rounds; round++) {
      // Rotate the order so no lane always pays the warm-up or the GC debt of the one before.
      for (const lane of [...lanes.slice(round % 4), ...lanes.slice(0, round % 4)]) {
        // No lane pays for the garbage of the one before (run with --expose-gc).
        (globalThis as { gc?: () => void }).gc?.();
        results.get(lane)!.push(await runLane(lane, { baseline, lean }, broker.url, cards));
      }
    }
    const summary = Object.fromEntries<LaneSummary>(
      lanes.map((lane) => {
        const runs = results.get(lane)!;
        const paced = runs.map((run) => run.pacedCpuUsPerCard);
        const burst = runs.map((run) => run.burstCpuUsPerEvent);
        return [
          lane,
          {
            pacedCpuUsPerCard: {
              median: median(paced),
              min: Math.min(...paced),
              max: Math.max(...paced),
            },
            burstCpuUsPerEvent: {
              median: median(burst),
              min: Math.min(...burst),
              max: Math.max(...burst),
            },
            writesPerGroupCommit: median(runs.map((run) => run.writesPerGroupCommit)),
            catchUpCpuUsPerEvent: spread(runs.map((run) => run.catchUpCpuUsPerEvent)),
          },
        ];
      }),
    ) as Record<Lane, LaneSummary>;
    // Each lane whole against the baseline lane (the journal's share included in both).
    type Figure = 'pacedCpuUsPerCard' | 'burstCpuUsPerEvent' | 'catchUpCpuUsPerEvent';
    const ratio = (lane: Lane, figure: Figure) =>
      summary[lane][figure].median / summary.baseline[figure].median;
    const ratios = Object.fromEntries(
      (['lean-v4', 'lean-v5'] as const).map((lane) => [
        lane,
        {
          catchUp: ratio(lane, 'catchUpCpuUsPerEvent'),
          paced: ratio(lane, 'pacedCpuUsPerCard'),
          burst: ratio(lane, 'burstCpuUsPerEvent'),
        },
      ]),
    );
    return {
      cards,
      rounds,
      baselineCommit: BASELINE_COMMIT,
      lanes: summary,
      ratiosToBaseline: ratios,
    };
  } finally {
    await broker.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const number = (flag: string) => {
    const at = argv.indexOf(flag);
    return at >= 0 ? Number(argv[at + 1]) : undefined;
  };
  const result = await benchMqttPublish({ cards: number('--cards'), rounds: number('--rounds') });
  console.log(JSON.stringify(result, null, 2));
}
