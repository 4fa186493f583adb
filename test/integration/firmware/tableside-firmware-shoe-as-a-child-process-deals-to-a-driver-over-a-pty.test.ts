import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { until } from '../../helpers/until.ts';
import { PtyPair, socatMissing } from '../devices/pty.ts';
import { registryDocumentOf, registryOf, ShoeRig, tagOf } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

const ROOT = join(import.meta.dirname, '../../..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

describe.skipIf(skip)(
  'tableside firmware shoe as a child process deals to a driver over a pty',
  () => {
    const cleanups: Array<() => Promise<void>> = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
    });

    it('says HELLO as TS-SHOE-FW, names a card, and stops on SIGTERM', async () => {
      const rig = new ShoeRig();
      cleanups.push(() => rig.stop());
      await rig.startBoard();
      // The rig's board pty uses host/device in its folder: the link gets a folder of its own.
      const linkDir = join(rig.directory, 'link');
      mkdirSync(linkDir);
      const linkPair = new PtyPair(linkDir);
      await linkPair.start();
      cleanups.push(() => linkPair.kill());
      const registry = join(rig.directory, 'decks.json');
      writeFileSync(registry, JSON.stringify(registryDocumentOf(['red'])));

      const child = spawn(
        process.execPath,
        [
          ...cliEntryArgs(TSX),
          'firmware',
          'shoe',
          '--board',
          rig.pty.a,
          '--link',
          linkPair.b,
          '--registry',
          registry,
          '--outbox',
          join(rig.directory, 'cli-outbox.jsonl'),
          '--serial',
          'CLI-SHOE-1',
        ],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      cleanups.push(async () => {
        child.kill('SIGKILL');
        await exited;
      });

      const driver = new DeviceDriver({
        name: 'shoe',
        kind: 'shoe',
        transport: new SerialTransport({ path: linkPair.a, baudRate: 115_200 }),
        registry: registryOf(['red']),
      });
      const observations: Observation[] = [];
      driver.on('record', (observation) => {
        observations.push(observation);
        observation.ack();
      });
      driver.start();
      cleanups.push(() => driver.stop());
      await driver.whenOnline();
      expect(driver.status().identity).toMatchObject({ model: 'TS-SHOE-FW', serial: 'CLI-SHOE-1' });
      await until(
        () => stderr.includes('shoe ready'),
        'the shoe ready',
        30_000,
        () => stderr,
      );
      expect(stderr).toMatch(/shoe ready: board StandardFirmata\.ino 2\.5/);

      await rig.deal({ uid: tagOf(1, 9), surface: SURFACES.redBack });
      await until(
        () => observations.length >= 1,
        'the card',
        30_000,
        () => stderr,
      );
      expect(observations[0]?.record).toMatchObject({
        t: 'card',
        card: 'TS',
        back: 'red',
        face: 'down',
      });

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }, 90_000);
  },
);
