/**
 * Issue 17, item 3: a full disk once stopped the daemon without a word on
 * MQTT. The journal's writes fail with ENOSPC once it has written a few
 * kilobytes (injected at the fs layer: FileHandle.write, which the journal
 * appends through); the daemon must publish an alarm naming the reason,
 * then say `offline`, then exit.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { fullDiskEnv } from './helpers/full-disk.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());

describe.skipIf(missing !== undefined)('a full disk under the journal', () => {
  let table: E2eTable | undefined;
  afterEach(async () => {
    await table?.close();
    table = undefined;
  });

  it('publishes an alarm with the reason, then offline, then the daemon exits 1', async () => {
    table = await E2eTable.create('full-disk');
    const t = table;
    const daemon = startDaemon(t.configFile, { env: fullDiskEnv(t.dir, 40_000) });
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
