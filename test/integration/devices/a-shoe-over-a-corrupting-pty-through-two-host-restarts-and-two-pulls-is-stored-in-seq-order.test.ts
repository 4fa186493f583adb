/**
 * Issue 17, item 1, with restarts: a 1.2 shoe whose frames arrive corrupted
 * one in five deals a whole eight-deck shoe over a real socat pty while the
 * host's driver is stopped and replaced twice (a daemon restart: a new link
 * session that knows nothing) and the pty is pulled twice. What the host
 * stores (a card it already holds, same seq and content, is ACKed again and
 * not stored twice, as the daemon's restart dedupe does) must be the shoe's
 * cards once each, in the shoe's seq order, with bounded retransmissions.
 */
import { describe, expect, it } from 'vitest';
import type { DeviceDriver, Observation } from '../../../firmware-host/drivers/driver.ts';
import { plannedCards, until } from './helpers.ts';
import { ptyBenchPerTest, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)('a shoe over a corrupting pty through host restarts', () => {
  const bench = ptyBenchPerTest();

  it('is stored card by card in seq order, each card once', async () => {
    const pair = await bench.pair();
    const sim = bench.simulator(pair, {
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 1703,
      faults: ['corrupt-bytes=0.2'],
    });

    // The journal outlives the drivers: by seq, what it stored.
    const stored: Array<{ seq: number; card: string }> = [];
    const storedAt = new Map<number, string>();
    let driver: DeviceDriver | undefined;
    const startDriver = () => {
      const current = bench.driver(pair);
      current.on('record', (observation: Observation) => {
        const record = observation.record;
        const key = record.t === 'card' ? `${record.card}/${record.back}/${record.face}` : 'cut';
        if (storedAt.get(observation.seq) !== key) {
          storedAt.set(observation.seq, key);
          if (record.t === 'card') stored.push({ seq: observation.seq, card: key });
        }
        setTimeout(() => observation.ack(), 3);
      });
      current.start();
      driver = current;
    };
    startDriver();
    sim.start();
    await sim.whenReady();
    const planned = plannedCards(sim);
    const dealing = (async () => {
      // fixed wait: emulated timing: the dealer's pace (a card every 2 ms at most), so the outages fall mid-shoe
      while (await sim.step()) await new Promise((resolve) => setTimeout(resolve, 2));
    })();
    for (const [at, outage] of [
      [70, 'restart'],
      [150, 'pull'],
      [230, 'restart'],
      [310, 'pull'],
    ] as const) {
      await until(() => stored.length >= at, 30_000, `card ${at}`);
      if (outage === 'restart') {
        await driver!.stop();
        startDriver();
      } else {
        await pair.kill();
        // fixed wait: emulated timing: the pty stays unplugged for 150 ms
        await new Promise((resolve) => setTimeout(resolve, 150));
        await pair.start();
      }
    }
    await dealing;
    await until(() => stored.length >= planned.length, 60_000, 'every card');
    await sim.whenDone();

    const seqs = stored.map((entry) => entry.seq);
    expect(seqs.filter((seq, index) => index > 0 && seq < seqs[index - 1]!)).toEqual([]);
    expect(stored.map((entry) => entry.card)).toEqual(planned);
    expect(sim.stats.retransmitted).toBeLessThan(2 * planned.length);
  }, 120_000);
});
