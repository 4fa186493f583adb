/**
 * A mosquitto that keeps its sessions, queued QoS 1 messages and retained
 * messages across a stop and start, as a production broker does: without
 * that, an event the broker acknowledged to the bridge but had not yet
 * handed to a subscriber dies with the broker, which is the broker's
 * contract, not the daemon's.
 *
 * Its own launcher because mosquitto started as root drops to the
 * `mosquitto` user, which cannot write a persistence file into a folder
 * only root may write (test/helpers/broker.ts `persistence` has that
 * problem; reported).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mosquittoPath, type TestBroker } from '../../helpers/broker.ts';
import { freePort, waitForPort } from '../../helpers/ports.ts';

export async function startPersistentMosquitto(): Promise<TestBroker> {
  const binary = mosquittoPath();
  if (!binary) throw new Error('mosquitto is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'tableside-e2e-mosquitto-'));
  chmodSync(dir, 0o777);
  const port = await freePort();
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(
    config,
    [
      'persistence true',
      `persistence_location ${dir}/`,
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'allow_anonymous true',
      `listener ${port} 127.0.0.1`,
      '',
    ].join('\n'),
  );
  chmodSync(config, 0o644);
  let child: ChildProcess | undefined;
  let output = '';
  const start = async () => {
    if (child) return;
    const started = spawn(binary, ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = started;
    started.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<never>((_, reject) =>
      started.once('exit', (code) => reject(new Error(`mosquitto exited with ${code}: ${output}`))),
    );
    exited.catch(() => undefined);
    await Promise.race([waitForPort(port), exited]);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    // SIGTERM: mosquitto saves its database on the way out.
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return {
    kind: 'mosquitto',
    port,
    url: `mqtt://127.0.0.1:${port}`,
    tlsPort: undefined,
    tlsUrl: undefined,
    start,
    stop,
    close: stop,
  };
}
