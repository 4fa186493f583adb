/**
 * The cable drill of issue 34 item 2: bursts of 4-12 pulls of a real serial
 * line (socat ptys) within about 10 s, a card dealt while the line is out,
 * and the time from the last re-seat to that card reaching the driver. The
 * driver runs with the link's default backoff, which is what is measured;
 * the shoe's end reopens quickly, as a device whose UART never goes away.
 * Prints each burst's figure; about a minute and a half.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../simulators/device.ts';
import { PtyPair } from '../helpers/pty-pair.ts';
import { socatMissing } from '../helpers/tools.ts';
import { until } from '../helpers/until.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

const BURSTS = 8;
/** What a dealer waits at most for a card after the cable is back in (the issue's bound). */
const DEALT_AGAIN_WITHIN_MS = 3_000;

/** A seeded generator, so every run pulls the same pattern. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe.skipIf(missing !== undefined)('a re-seated cable is dealt again within 3 s', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(`after each of ${BURSTS} bursts of 4-12 pulls, the card dealt while the line was out reaches the driver within 3 s of the re-seat`, async () => {
    const random = seeded(34);
    const pair = new PtyPair();
    await pair.start();
    cleanups.push(() => pair.kill());
    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 34,
      transport: new SerialTransport({ path: pair.b, baudRate: 115_200 }),
      scenario: { on: [], off: [], steps: [{ op: 'shuffle' }, { op: 'deal', count: 60 }] },
      reconnect: { initialDelayMs: 20, maxDelayMs: 100, silenceTimeoutMs: 2_000 },
    });
    // The host as `tableside run` makes it: default timing and backoff.
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
    });
    cleanups.push(async () => {
      await sim.stop();
      await driver.stop();
    });
    const observations: Observation[] = [];
    driver.on('record', (observation) => {
      observations.push(observation);
      observation.ack();
    });
    driver.start();
    sim.start();
    await sim.whenReady();
    await sim.stepMany(2);
    await until(() => observations.length >= 2, 'the shuffle and a first card', 15_000);

    const figures: Array<{ pulls: number; dealtAfterMs: number }> = [];
    for (let burst = 0; burst < BURSTS; burst++) {
      const pulls = 4 + Math.floor(random() * 9);
      for (let pull = 0; pull < pulls; pull++) {
        await pair.kill();
        // The last pull: the dealer deals on while the line is out; the shoe holds the card.
        if (pull === pulls - 1) await sim.stepMany(1);
        // fixed wait: emulated timing: the cable stays out 100-700 ms, as a hand pulling it
        await pause(100 + Math.floor(random() * 600));
        await pair.start();
        if (pull === pulls - 1) break;
        // fixed wait: emulated timing: the cable stays in 100-500 ms before the next pull
        await pause(100 + Math.floor(random() * 400));
      }
      const seated = performance.now();
      const before = observations.length;
      await until(() => observations.length > before, `burst ${burst + 1}'s card`, 60_000);
      figures.push({ pulls, dealtAfterMs: Math.round(performance.now() - seated) });
      await until(() => sim.pending.inFlight === 0, 'the shoe to have nothing in flight', 15_000);
    }
    const times = figures.map((figure) => figure.dealtAfterMs).sort((a, b) => a - b);
    console.log(
      `re-seat → card dealt, per burst: ${figures.map((f) => `${f.pulls} pulls ${f.dealtAfterMs} ms`).join('; ')}; median ${times[Math.floor(times.length / 2)]} ms, max ${times.at(-1)} ms`,
    );
    expect(times.at(-1)).toBeLessThanOrEqual(DEALT_AGAIN_WITHIN_MS);
  });
});
