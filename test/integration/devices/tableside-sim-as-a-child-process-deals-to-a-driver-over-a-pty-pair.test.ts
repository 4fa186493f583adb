import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { BehaviourSet } from '../../../simulators/behaviours.ts';
import { planSession } from '../../../simulators/plan.ts';
import { parseScenarioText } from '../../../simulators/scenario.ts';
import { runCli } from '../../helpers/cli.ts';
import { observedCards } from './helpers.ts';
import { PtyPair, socatMissing } from './pty.ts';

const missing = socatMissing();
if (missing) console.warn(`skipped: ${missing}`);

const SCENARIO = `
name: forty cards and a face-up one
steps:
  - shuffle
  - deal: 20
  - card: { card: KH, face: up }
  - deal: 20
`;

describe.skipIf(missing !== undefined)(
  'tableside sim as a child process deals to a driver over a pty pair',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });

    it('the cards the driver receives are the ones the same scenario and seed plan', async () => {
      const pair = new PtyPair();
      await pair.start();
      cleanups.push(() => pair.kill());
      const scenarioDir = mkdtempSync(join(tmpdir(), 'tableside-scenario-'));
      cleanups.push(async () => rmSync(scenarioDir, { recursive: true, force: true }));
      const scenarioFile = join(scenarioDir, 'forty.yaml');
      writeFileSync(scenarioFile, SCENARIO);
      const driver = new DeviceDriver({
        name: 'shoe',
        kind: 'shoe',
        transport: new SerialTransport({ path: pair.a, baudRate: 115_200 }),
        timing: { heartbeatMs: 200, offlineAfterMs: 1_000 },
      });
      cleanups.push(() => driver.stop());
      const observations: Observation[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.start();
      const sim = runCli([
        'sim',
        'shoe',
        '--link',
        pair.b,
        '--ruleset',
        'tdc-baccarat-no-commission',
        '--seed',
        '77',
        '--scenario',
        scenarioFile,
        '--rate',
        '200',
        '--fault',
        'corrupt-bytes=0.1',
      ]);
      const result = await sim.done;
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout.trim())).toMatchObject({ done: true, played: 41 });

      const planned = planSession({
        ruleset: 'tdc-baccarat-no-commission',
        seed: 77,
        behaviours: new BehaviourSet(['corrupt-bytes=0.1']),
        script: parseScenarioText(SCENARIO).steps!,
      }).flatMap((step) =>
        step.kind === 'card' ? [`${step.card}/${step.back}/${step.face}`] : [],
      );
      expect(observedCards(observations)).toEqual(planned);
      expect(observedCards(observations)[20]).toBe('KH/red/up');
    });
  },
);
