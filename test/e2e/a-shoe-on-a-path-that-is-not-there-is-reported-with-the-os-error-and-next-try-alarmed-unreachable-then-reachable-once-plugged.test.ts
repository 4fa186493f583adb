/**
 * Issue 34 item 1, as a new user met it: `tableside run` with the shoe's
 * serial path absent showed only "○ shoe offline (opening)". Now line mode
 * prints why (the OS's error with the path) and when it tries again, the log
 * has every try with its delay, `health_check` carries the line's reason and
 * next try, and past `unreachableAfterMs` a `device_unreachable` alarm is
 * published once, then `device_reachable` when the cable is plugged.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DriverStatus } from '../../firmware-host/drivers/driver.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());

describe.skipIf(missing !== undefined)(
  'a shoe on a path that is not there is reported, alarmed unreachable, then reachable once plugged',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('names the path, the OS error and the next try in line mode, the log and health_check', async () => {
      table = await E2eTable.create('absent-shoe', { shoe: { unreachableAfterMs: 2_000 } });
      const t = table;
      // The cable is out before the daemon starts: the shoe's path does not exist.
      await t.pty.kill();
      const daemon = await t.startDaemon();
      const path = t.pty.a;

      await until(
        () => daemon.stdout.includes(`device shoe line not open: open failed: serial ${path}`),
        'line mode to say why the line is not open',
        30_000,
        () => t.describe(),
      );
      const said = daemon.stdout.split('\n').find((line) => line.startsWith('device shoe line'))!;
      expect(said).toMatch(/no such file or directory/i);
      expect(said).toMatch(/; next try in \d+(\.\d)? m?s \(attempt \d+\)$/);
      // The log (stderr in line mode, tableside.log under the live view) has each try with its delay.
      const tried = new RegExp(
        `"delayMs":\\d+.*"msg":"shoe: ${path} not open \\(open failed: serial`,
      );
      await until(
        () => tried.test(daemon.stderr),
        'a logged try',
        30_000,
        () => t.describe(),
      );

      await until(
        () => t.consumer.ofType('alarm').some((alarm) => alarm.kind === 'device_unreachable'),
        'device_unreachable',
        30_000,
        () => t.describe(),
      );
      const unreachable = t.consumer.ofType('alarm').filter((a) => a.kind === 'device_unreachable');
      expect(unreachable).toHaveLength(1);
      expect(unreachable[0]?.message).toContain(`shoe: ${path} not open for`);
      expect(unreachable[0]?.message).toMatch(/no such file or directory/i);

      const health = await t.consumer.request('health_check', { transaction: 'absent' });
      const shoe = (health.data as { devices: DriverStatus[] }).devices[0]!;
      expect(shoe.availability).toBe('offline');
      expect(shoe.line?.reason).toContain(`serial ${path}`);
      expect(shoe.line?.attempt).toBeGreaterThan(0);
      expect(shoe.line?.alarmed).toBe(true);
      expect(shoe.line?.unreachableForMs).toBeGreaterThanOrEqual(2_000);

      // Plugged: the line opens within the backoff's cap and the outage is announced over.
      await t.pty.start();
      await until(
        () => t.consumer.ofType('alarm').some((alarm) => alarm.kind === 'device_reachable'),
        'device_reachable',
        30_000,
        () => t.describe(),
      );
      expect(
        t.consumer.ofType('alarm').filter((a) => a.kind === 'device_unreachable'),
      ).toHaveLength(1);
    });
  },
);
