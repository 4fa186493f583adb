/**
 * Issue 17, item 3: a full disk once stopped the daemon without a word on
 * MQTT. The journal's writes fail with ENOSPC once it has written a few
 * kilobytes (injected at the fs layer: FileHandle.write, which the journal
 * appends through); the daemon must publish an alarm naming the reason,
 * then say `offline`, then exit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());

/** Preloaded into the daemon: FileHandle.write fails with ENOSPC past a byte budget. */
const FULL_DISK = `import { open } from 'node:fs/promises';
const budget = Number(process.env.TABLESIDE_TEST_DISK_BYTES);
const probe = await open(process.execPath, 'r');
const prototype = Object.getPrototypeOf(probe);
await probe.close();
const write = prototype.write;
let used = 0;
prototype.write = async function (buffer, ...rest) {
  const size = typeof buffer === 'string' ? Buffer.byteLength(buffer) : buffer.byteLength;
  if (used + size > budget) {
    throw Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC', errno: -28, syscall: 'write',
    });
  }
  used += size;
  return write.call(this, buffer, ...rest);
};
`;

describe.skipIf(missing !== undefined)('a full disk under the journal', () => {
  let table: E2eTable | undefined;
  afterEach(async () => {
    await table?.close();
    table = undefined;
  });

  it('publishes an alarm with the reason, then offline, then the daemon exits 1', async () => {
    table = await E2eTable.create('full-disk');
    const t = table;
    const preload = join(t.dir, 'full-disk.mjs');
    writeFileSync(preload, FULL_DISK);
    const daemon = startDaemon(t.configFile, {
      env: { NODE_OPTIONS: `--import ${preload}`, TABLESIDE_TEST_DISK_BYTES: '40000' },
    });
    t.daemon = daemon;
    await until(
      () =>
        t.consumer.messages.some(
          (m) => m.topic.endsWith('/bridge/state') && m.payload === 'online',
        ),
      'the daemon online',
      30_000,
      () => daemon.describe(),
    );
    t.startShoe({ seed: 4242, rate: 300 });
    const exit = await daemon.exited;
    expect(exit.code).toBe(1);

    const alarmAt = t.consumer.messages.findIndex(
      (m) => m.topic.endsWith('/events/alarm') && m.payload.includes('journal_failed'),
    );
    expect(alarmAt, daemon.describe()).toBeGreaterThanOrEqual(0);
    const alarm = JSON.parse(t.consumer.messages[alarmAt]!.payload) as Record<string, unknown>;
    expect(alarm).toMatchObject({ type: 'alarm', kind: 'journal_failed', journaled: false });
    expect(String(alarm.message)).toContain('ENOSPC');
    const offlineAt = t.consumer.messages.findIndex(
      (m, index) => index > alarmAt && m.topic.endsWith('/bridge/state') && m.payload === 'offline',
    );
    expect(offlineAt).toBeGreaterThan(alarmAt);
  }, 90_000);
});
