// The wake-penalty lane's child, started as the daemon is (the systemd unit's
// node flags) on the built modules (dist/): it times the daemon's pure work
// for one card (card-work.mjs) and the bare relay's, each back to back and
// after a pause of each of GAPS milliseconds, and prints one JSON object.
//
//   node <flags> test/bench/wake-penalty-child.mjs GAPS ROUNDS
//
// Each measured card follows its own pause: a timer, or setImmediate for a
// gap of 0 (the event loop turns, as between two cards of a burst). The gaps
// and the two kinds of work alternate within each round, so a drift of the
// machine falls on all of them alike.
import { performance } from 'node:perf_hooks';
import { LinkSession } from '../../dist/device-protocol/link.js';
import { PROTOCOL_VERSION } from '../../dist/device-protocol/messages.js';
import { encodeRecord, hashLine } from '../../dist/firmware-host/journal/record.js';
import { eventPayload } from '../../dist/firmware-host/mqtt/bridge.js';
import { TableSession } from '../../dist/firmware-host/games/table-session.js';
import { makeCardWork } from './card-work.mjs';

const gaps = (process.argv[2] ?? '0,5,50,500').split(',').map(Number);
const rounds = Number(process.argv[3] ?? 2);
if (gaps.some((gap) => !Number.isInteger(gap) || gap < 0) || !(rounds >= 1)) {
  process.stderr.write('usage: wake-penalty-child.mjs GAPS ROUNDS (e.g. 0,5,50,500 2)\n');
  process.exit(2);
}

const modules = {
  LinkSession,
  TableSession,
  encodeRecord,
  hashLine,
  eventPayload,
  protocol: PROTOCOL_VERSION,
};
const ruleset = 'tdc-baccarat-no-commission';
const works = {
  daemon: makeCardWork({ ...modules, ruleset }),
  relay: makeCardWork({ ...modules, ruleset, relay: true }),
};
/** Fewer cards at the long pauses: the lane stays under a minute. */
const cardsAt = (gap) => (gap >= 500 ? 10 : gap >= 50 ? 30 : gap >= 5 ? 60 : 150);
const pause = (gap) =>
  new Promise((resolve) => (gap > 0 ? setTimeout(resolve, gap) : setImmediate(resolve)));

const samples = {};
const timeOne = (work) => {
  const frame = work.nextFrame();
  const cpuFrom = process.cpuUsage();
  const from = performance.now();
  const ack = work.take(frame);
  const wallUs = (performance.now() - from) * 1000;
  const cpu = process.cpuUsage(cpuFrom);
  work.settle(ack);
  return { wallUs, cpuUs: cpu.user + cpu.system };
};

// Warm-up: the first cards load and compile the code; none is counted.
for (const work of Object.values(works)) for (let card = 0; card < 50; card++) timeOne(work);

for (let round = 0; round < rounds; round++) {
  for (const gap of gaps) {
    for (const [kind, work] of Object.entries(works)) {
      const key = `${kind}:${gap}`;
      samples[key] ??= { wall: [], cpu: [] };
      for (let card = 0; card < cardsAt(gap); card++) {
        await pause(gap);
        const { wallUs, cpuUs } = timeOne(work);
        samples[key].wall.push(wallUs);
        samples[key].cpu.push(cpuUs);
      }
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)];
};
const round1 = (value) => Math.round(value * 10) / 10;
const result = { node_flags: process.execArgv.join(' '), gaps_ms: gaps, rounds };
for (const kind of Object.keys(works)) {
  const byGap = {};
  for (const gap of gaps) {
    const { wall, cpu } = samples[`${kind}:${gap}`];
    byGap[`gap_${gap}ms`] = {
      cards: wall.length,
      p50_us: round1(median(wall)),
      min_us: round1(Math.min(...wall)),
      max_us: round1(Math.max(...wall)),
      cpu_p50_us: round1(median(cpu)),
    };
  }
  result[kind] = { ...byGap, counts: works[kind].counts };
}
process.stdout.write(`${JSON.stringify(result)}\n`);
