/**
 * The virtual clock's soundness (test/helpers/virtual-table.ts): table time
 * moves only once real I/O has finished, so a timer never overtakes an fsync
 * the way it would if fake time ran on while the disk worked.
 */
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp.ts';
import { installVirtualClock, VIRTUAL_EPOCH } from '../../helpers/virtual-table.ts';

describe('the virtual clock', () => {
  it('fires a timer due in 1 ms only after a file write and fsync under way have finished', async () => {
    const file = join(tempDir('tableside-virtual-clock-'), 'journal');
    const clock = installVirtualClock();
    const order: string[] = [];
    setTimeout(() => order.push('timer'), 1);
    void (async () => {
      const handle = await open(file, 'w');
      await handle.write('x'.repeat(64 * 1024));
      await handle.sync();
      await handle.close();
      order.push('fsynced');
    })();
    await clock.runUntil(() => order.length === 2, 1_000, 'the write and the timer');
    expect(order).toEqual(['fsynced', 'timer']);
  });

  it('moves Date and node:perf_hooks performance.now together, and only when told', async () => {
    const clock = installVirtualClock();
    const monotonic = performance.now();
    expect(Date.now()).toBe(VIRTUAL_EPOCH);
    await clock.advance(90_000);
    expect(Date.now()).toBe(VIRTUAL_EPOCH + 90_000);
    expect(performance.now() - monotonic).toBe(90_000);
  });

  it('fails naming what it waited for when the condition never holds', async () => {
    const clock = installVirtualClock();
    setInterval(() => undefined, 1_000);
    await expect(clock.runUntil(() => false, 5_000, 'a card')).rejects.toThrow(
      'no a card after 5000 ms of table time',
    );
    expect(clock.now()).toBe(VIRTUAL_EPOCH + 5_000);
  });
});
