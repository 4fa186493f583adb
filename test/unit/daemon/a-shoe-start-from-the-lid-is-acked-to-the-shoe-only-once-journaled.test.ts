/**
 * A shoe-only table starts a new shoe when the shoe reports its lid closed.
 * The lid is ACKed to the shoe only once the new shoe's records are durable:
 * a crash in between loses no shoe start (the shoe sends the lid again, the
 * replayed table still awaits a shoe). A lid that starts nothing (a shoe is in
 * play) is ACKed at once and the cards go on.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { memoryWire, releaseMemoryWire } from '../../../hardware/transports/memory.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../integration/devices/helpers.ts';

const RULESET = 'tdc-baccarat-no-commission';

function eventsOf(records: readonly JournalRecord[], type: DomainEvent['type']): DomainEvent[] {
  return records
    .filter((record) => record.kind === 'event')
    .map((record) => record.data as DomainEvent)
    .filter((event) => event.type === type);
}

describe('a shoe start from the lid is ACKed to the shoe only once journaled', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('journals the new shoe before the lid ACK leaves, and ACKs a lid that starts nothing at once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-lid-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const wireName = `lid-${process.pid}-${Date.now()}`;
    cleanup.push(async () => releaseMemoryWire(wireName));
    const { config } = resolveConfig(
      {
        table: 'lid-test',
        ruleset: RULESET,
        devices: { shoe: { kind: 'shoe', transport: `memory://${wireName}` } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal'), rotateDaily: false },
        session: { autoRound: true },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config, simulate: false });
    await daemon.start();
    cleanup.push(() => daemon.stop());

    const journaled: JournalRecord[] = [];
    daemon.on('journaled', (records) => journaled.push(...records));

    const sim = new SimulatedDevice({
      kind: 'shoe',
      transport: memoryWire(wireName).device,
      ruleset: RULESET,
      seed: 23,
      session: { ackTimeoutMs: 50 },
      reconnect: { initialDelayMs: 10, maxDelayMs: 50 },
      scenario: {
        on: [],
        off: [],
        steps: [
          { op: 'shuffle' },
          { op: 'lid', open: false },
          { op: 'deal', count: 3 },
          { op: 'lid', open: false }, // the shoe is in play: starts nothing
          { op: 'deal', count: 2 },
        ],
      },
    });
    cleanup.push(() => sim.stop());

    // The seqs of the shoe's LID frames, and what the journal held when each was ACKed.
    const lidSeqs: number[] = [];
    sim.on('wrote', (line) => {
      const event = parseFrameLine(line.replace(/\r\n$/, ''));
      if (event.kind === 'frame' && event.frame.type === 'LID') lidSeqs.push(event.frame.seq);
    });
    const shoeStartsWhenAcked = new Map<number, number>();
    let pending = '';
    memoryWire(wireName).device.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      const lines = pending.split('\r\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const event = parseFrameLine(line);
        if (event.kind !== 'frame' || event.frame.type !== 'ACK') continue;
        const acked = Number(event.frame.fields[0]);
        if (lidSeqs.includes(acked) && !shoeStartsWhenAcked.has(acked)) {
          shoeStartsWhenAcked.set(acked, eventsOf(journaled, 'shoe_start').length);
        }
      }
    });

    sim.start();
    await sim.whenReady();
    await sim.stepMany(8);
    await sim.whenDone();
    await until(() => eventsOf(journaled, 'card').length === 5, 5_000, 'five cards journaled');

    expect(lidSeqs.length).toBeGreaterThanOrEqual(2);
    const [first, second] = [...new Set(lidSeqs)];
    // The first lid started the shoe: its ACK left only once shoe_start was durable.
    expect(shoeStartsWhenAcked.get(first!)).toBe(1);
    // The second lid started nothing, and was ACKed all the same.
    expect(shoeStartsWhenAcked.get(second!)).toBe(1);
    expect(eventsOf(journaled, 'shoe_start')).toHaveLength(1);
    const shuffle = journaled.find(
      (record) => record.kind === 'input' && (record.data as { t: string }).t === 'shuffle',
    );
    expect(shuffle?.data).toMatchObject({ src: 'shoe', decks: 8, backs: ['red'] });
    expect(daemon.expecting().kind).not.toBe('shuffle');
  });
});
