/**
 * Tag latency of a PN532 reader (`pn532:` over a socat pty, the emulated
 * PN532 answering with its datasheet-order timings): from the tag entering
 * the field to the card record at the host's reader driver. Tags come at
 * uneven intervals so they land in every phase of the poll cycle
 * (InListPassiveTarget waiting, the ACK abort every 100 ms, the rest after
 * a read).
 *
 * Baseline, in the same run, same pty kind, same driver: a protocol reader
 * (the same reader device, fed by a source that has the tag at once), so the
 * ratio is the cost of polling a PN532 over HSU.
 */
import { EventEmitter } from 'node:events';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { performance } from 'node:perf_hooks';
import { standardDeck } from '../../device-protocol/cards.ts';
import { PROTOCOL_VERSION } from '../../device-protocol/messages.ts';
import { DeviceDriver } from '../../firmware-host/drivers/driver.ts';
import { DeckRegistry } from '../../hardware/readers/deck-registry.ts';
import { ReaderDevice } from '../../hardware/readers/reader-device.ts';
import type { TagSource, TagSourceEvents } from '../../hardware/readers/tag-source.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import { openTransport } from '../../hardware/transports/url.ts';
import { PtyPair } from '../integration/devices/pty.ts';
import { pn532OnPty } from '../integration/readers/pn532-on-a-pty.ts';
import { percentile } from './pipeline.ts';

export interface ReaderLatencyFigures {
  tags: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  baseline: { tags: number; p50_ms: number; p99_ms: number; max_ms: number };
  ratio_p99: number;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Three decks' worth of distinct 7-byte UIDs, enrolled. */
function enrolledTags(count: number): { registry: DeckRegistry; uids: number[][] } {
  const registry = new DeckRegistry();
  const uids: number[][] = [];
  for (let deck = 0; deck * 52 < count; deck++) {
    const tags: Array<[string, ReturnType<typeof standardDeck>[number]]> = [];
    standardDeck().forEach((card, index) => {
      const uid = [0x04, 0xbe, 0x4c, deck, index, 0x01, 0x80];
      uids.push(uid);
      tags.push([Buffer.from(uid).toString('hex'), card]);
    });
    registry.enrol(`bench-${deck}`, 'red', tags);
  }
  return { registry, uids: uids.slice(0, count) };
}

/** Times `present(uid)` → card record at a reader driver on `transport`, tag after tag. */
async function timeTags(
  transport: Transport,
  registry: DeckRegistry,
  uids: number[][],
  present: (uid: number[]) => void,
  withdraw: () => void,
  ready: () => boolean,
): Promise<{ tags: number; p50_ms: number; p99_ms: number; max_ms: number }> {
  const driver = new DeviceDriver({ name: 'reader', kind: 'reader', transport, registry });
  let arrived: (() => void) | undefined;
  driver.on('record', (observation) => {
    observation.ack();
    arrived?.();
  });
  driver.on('alarm', (alarm) => {
    throw new Error(`unexpected alarm during the bench: ${alarm.message}`);
  });
  driver.start();
  try {
    const started = performance.now();
    while (!ready()) {
      if (performance.now() - started > 10_000) throw new Error('the reader did not come up');
      await sleep(10);
    }
    await sleep(200);
    const latencies: number[] = [];
    for (const [index, uid] of uids.entries()) {
      const record = new Promise<void>((resolve) => {
        arrived = resolve;
      });
      const t0 = performance.now();
      present(uid);
      await record;
      latencies.push(performance.now() - t0);
      withdraw();
      // Uneven spacing: 40..129 ms, so tags meet every phase of the poll cycle.
      await sleep(40 + ((index * 37) % 90));
    }
    latencies.sort((a, b) => a - b);
    const round = (value: number) => Math.round(value * 100) / 100;
    return {
      tags: latencies.length,
      p50_ms: round(percentile(latencies, 50)),
      p99_ms: round(percentile(latencies, 99)),
      max_ms: round(latencies[latencies.length - 1] ?? 0),
    };
  } finally {
    await driver.stop();
  }
}

/** A source that has each tag the moment it is presented: a protocol reader's own firmware. */
class InstantSource extends EventEmitter<TagSourceEvents> implements TagSource {
  readonly description = 'instant tag source';
  async start() {
    return {
      model: 'BENCH-READER',
      serial: 'bench',
      firmware: '1.0.0',
      firmwareSha256: '0'.repeat(64),
    };
  }
  async stop() {
    // Nothing runs in the background to stop.
  }
}

export async function benchPn532Reader(count = 150): Promise<ReaderLatencyFigures> {
  const { registry, uids } = enrolledTags(count);

  const pn532 = await pn532OnPty();
  let figure: Awaited<ReturnType<typeof timeTags>>;
  try {
    figure = await timeTags(
      openTransport(`pn532:${pn532.path}`),
      registry,
      uids,
      (uid) => pn532.emulator.placeTag({ uid, type: 'ntag21x' }),
      () => pn532.emulator.removeTag(),
      () => pn532.emulator.commands.includes(0x4a),
    );
  } finally {
    await pn532.stop();
  }

  const pty = new PtyPair();
  await pty.start();
  const source = new InstantSource();
  const deviceEnd = new SerialTransport({ path: pty.b, baudRate: 115_200 });
  const device = new ReaderDevice({
    source,
    transport: deviceEnd,
    hello: { type: 'HELLO', protocol: PROTOCOL_VERSION, ...(await source.start()) },
  });
  device.start();
  let baseline: Awaited<ReturnType<typeof timeTags>>;
  try {
    baseline = await timeTags(
      new SerialTransport({ path: pty.a, baudRate: 115_200 }),
      registry,
      uids,
      (uid) => source.emit('tag', Uint8Array.from(uid)),
      () => undefined,
      () => device.core.ready,
    );
  } finally {
    await device.stop();
    await pty.kill();
    rmSync(dirname(pty.a), { recursive: true, force: true });
  }
  return {
    ...figure,
    baseline,
    ratio_p99: Math.round((figure.p99_ms / Math.max(baseline.p99_ms, 0.01)) * 10) / 10,
  };
}
