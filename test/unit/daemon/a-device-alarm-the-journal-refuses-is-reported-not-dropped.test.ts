/**
 * Issue 26, item 7: a device's alarm is journaled; when the journal refuses
 * it (failed or closed), the journal's failure is reported, but the alarm
 * itself was lost unseen. Now the daemon names the lost alarm in an error
 * notice and log line instead of dropping it in silence.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { Journal } from '../../../firmware-host/journal/journal.ts';
import { releaseMemoryWire } from '../../../hardware/transports/memory.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../integration/devices/helpers.ts';

describe('a device alarm the journal refuses', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  it('is reported as an error notice naming why, not dropped in silence', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-alarm-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const wireName = `alarm-${process.pid}-${Date.now()}`;
    cleanup.push(async () => releaseMemoryWire(wireName));
    const { config } = resolveConfig(
      {
        table: 'alarm-test',
        ruleset: 'tdc-baccarat-no-commission',
        devices: { shoe: { kind: 'shoe', transport: `memory://${wireName}` } },
        mqtt: { url: 'embedded', port: await freePort() },
        journal: { dir: join(dir, 'journal'), rotateDaily: false },
      },
      { env: {} },
    );
    const daemon = new TableDaemon({ config, simulate: false });
    await daemon.start();
    cleanup.push(() => daemon.stop());
    const notices: string[] = [];
    daemon.on('notice', (level, message) => notices.push(`${level}: ${message}`));

    // The journal as a failed disk leaves it: every append refused.
    await (daemon.journalFeed as Journal).close();
    const driver = daemon.driver('shoe');
    expect(driver).toBeDefined();
    driver?.emit('alarm', {
      type: 'alarm',
      kind: 'device_fault',
      message: 'beam blocked',
      device: 'shoe',
    });

    await until(() => notices.some((notice) => notice.includes('alarm not journaled')));
    expect(notices.find((notice) => notice.includes('alarm not journaled'))).toBe(
      'error: alarm not journaled (beam blocked): the journal is closed',
    );
  });
});
