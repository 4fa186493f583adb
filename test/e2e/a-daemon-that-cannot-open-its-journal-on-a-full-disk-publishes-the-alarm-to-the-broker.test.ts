/**
 * Issue 24, item 7: a restart on a full disk exited 1 with one line, but
 * told the casino nothing: the bridge is started only after the journal
 * opens. The alarm now goes to the (outside) broker on a connection of its
 * own before the daemon exits.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startDaemon } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { fullDiskEnv } from './helpers/full-disk.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());

describe.skipIf(missing !== undefined)(
  'a daemon that cannot open its journal on a full disk',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('publishes journal_failed with the reason to the broker, then exits 1', async () => {
      table = await E2eTable.create('full-disk-start');
      const t = table;
      const daemon = startDaemon(t.configFile, { env: fullDiskEnv(t.dir, 0) });
      t.daemon = daemon;
      const exit = await daemon.exited;
      expect(exit.code, daemon.describe()).toBe(1);
      // The alarm is QoS 1 and was acknowledged before the exit; the consumer gets it.
      const alarms = () => t.consumer.messages.filter((m) => m.topic.endsWith('/events/alarm'));
      await until(
        () => alarms().length > 0,
        'the journal alarm',
        10_000,
        () => daemon.describe(),
      );
      expect(alarms()).toHaveLength(1);
      const alarm = JSON.parse(alarms()[0]!.payload) as Record<string, unknown>;
      expect(alarm).toMatchObject({ type: 'alarm', kind: 'journal_failed', journaled: false });
      expect(String(alarm.message)).toContain('ENOSPC');
      // Nothing else was said: the table never came online.
      expect(t.consumer.messages.some((m) => m.payload === 'online')).toBe(false);
    }, 60_000);
  },
);
