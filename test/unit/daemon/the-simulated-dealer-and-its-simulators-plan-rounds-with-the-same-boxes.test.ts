/**
 * A bench table (`transport: simulate`): the simulated dealer seats boxes
 * 1-3 in every round, and the shoe simulator plans how many cards a round of
 * a deck-per-round game takes (Triple Shot, 000 § 7) with boxes of its own
 * unless told. The dealer passes its boxes to the simulators it creates, so
 * the shoe deals the round the table starts: exactly its cards, no more, no
 * fewer (a short deck made the dealer void the round as "simulated shoe
 * exhausted").
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SimulatedDevice, SimulatorOptions } from '../../../simulators/device.ts';

const created = vi.hoisted(() => [] as Array<{ options: unknown; sim: unknown }>);

vi.mock('../../../simulators/device.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../simulators/device.ts')>();
  class RecordingDevice extends real.SimulatedDevice {
    constructor(options: SimulatorOptions) {
      super(options);
      created.push({ options, sim: this });
    }
  }
  return { ...real, SimulatedDevice: RecordingDevice };
});

const { resolveConfig } = await import('../../../firmware-host/config/loader.ts');
const { TableDaemon } = await import('../../../firmware-host/daemon/table-daemon.ts');
const { freePort } = await import('../../helpers/ports.ts');
const { until } = await import('../../integration/devices/helpers.ts');
type JournalRecord = import('../../../firmware-host/journal/record.ts').JournalRecord;

describe('the simulated dealer and its simulators plan rounds with the same boxes', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('gives the shoe simulator boxes 1-3, and the shoe deals the first Triple Shot round exactly its cards', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-simdealer-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const { config } = resolveConfig(
      {
        table: 'sim-boxes',
        ruleset: 'peru-triple-shot',
        devices: { shoe: { kind: 'shoe', transport: 'simulate' } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal'), rotateDaily: false },
        simulation: { cardIntervalMs: 0, roundIntervalMs: 0, seed: 5 },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config });
    const journaled: JournalRecord[] = [];
    daemon.on('journaled', (records) => journaled.push(...records));
    await daemon.start();
    cleanup.push(() => daemon.stop());

    const isEvent = (type: string) => (record: JournalRecord) =>
      record.kind === 'event' && (record.data as { type: string }).type === type;
    await until(
      () => journaled.some(isEvent('result')) || journaled.some(isEvent('hand_voided')),
      10_000,
      'the first round to end',
    );
    const firstEnd = journaled.findIndex(
      (record) => isEvent('result')(record) || isEvent('hand_voided')(record),
    );
    const firstRound = journaled.slice(0, firstEnd + 1);

    expect(created.length).toBeGreaterThan(0);
    const shoe = created[0]!;
    expect((shoe.options as SimulatorOptions).boxes).toEqual([1, 2, 3]);
    const round = firstRound.find(
      (record) => record.kind === 'input' && (record.data as { t: string }).t === 'round',
    );
    expect(round?.data).toMatchObject({ boxes: [1, 2, 3] });
    expect(firstRound.filter(isEvent('alarm'))).toEqual([]);
    expect(journaled[firstEnd]!.data).toMatchObject({ type: 'result' });

    // The shoe planned the first deck's round for those boxes: the table took every card of it.
    const steps = (shoe.sim as SimulatedDevice).steps;
    const secondShuffle = steps.findIndex((step, i) => i > 0 && step.kind === 'shuffle');
    const planned = steps.slice(0, secondShuffle).filter((step) => step.kind === 'card').length;
    const dealt = firstRound.filter(
      (record) => record.kind === 'input' && (record.data as { t: string }).t === 'card',
    ).length;
    expect(dealt).toBe(planned);
  });
});
