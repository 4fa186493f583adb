/** The stuck-file watchdog's rule (test/helpers/stuck-files.ts), on times it is given. */
import { describe, expect, it } from 'vitest';
import { describeStuck, StuckFileWatch } from '../../helpers/stuck-files.ts';

const MARGIN = 120_000;
const PROJECT = 90_000;

describe('the stuck-file watch', () => {
  it('lets a file import and run in silence up to the project’s longest timeout and the margin, no longer', () => {
    const watch = new StuckFileWatch(MARGIN, PROJECT);
    watch.runStarted(['a.test.ts'], 0);
    watch.started('a.test.ts', PROJECT, 1_000);
    expect(watch.stuck(1_000 + PROJECT + MARGIN)).toEqual([]);
    const [stuck] = watch.stuck(1_500 + PROJECT + MARGIN);
    expect(stuck).toMatchObject({ file: 'a.test.ts', phase: { kind: 'importing' } });
    expect(describeStuck(stuck!)).toMatch(
      /^a\.test\.ts: silent for 211 s while importing its modules \(no test started\); nothing in it may take more than 210 s$/,
    );
  });

  it('gives a running test its own longer timeout, and counts silence from the last report', () => {
    const watch = new StuckFileWatch(MARGIN, PROJECT);
    watch.started('drill.test.ts', PROJECT, 0);
    watch.progress(
      'drill.test.ts',
      { kind: 'running', test: 'a drill', timeoutMs: 600_000 },
      5_000,
    );
    expect(watch.stuck(5_000 + 600_000 + MARGIN)).toEqual([]);
    expect(watch.stuck(5_001 + 600_000 + MARGIN).map(({ file }) => file)).toEqual([
      'drill.test.ts',
    ]);
    watch.progress('drill.test.ts', { kind: 'between-tests' }, 700_000);
    expect(watch.stuck(700_000 + PROJECT + MARGIN)).toEqual([]);
  });

  it('counts a busy worker (its CPU time grew) as alive, whatever it reported', () => {
    const watch = new StuckFileWatch(MARGIN, PROJECT);
    watch.started('drill.test.ts', PROJECT, 0);
    watch.busy('drill.test.ts', 300_000);
    expect(watch.stuck(300_000 + PROJECT + MARGIN)).toEqual([]);
    expect(watch.stuck(300_001 + PROJECT + MARGIN)).toHaveLength(1);
  });

  it('forgets an ended file', () => {
    const watch = new StuckFileWatch(MARGIN, PROJECT);
    watch.started('a.test.ts', PROJECT, 0);
    watch.ended('a.test.ts', 10);
    expect(watch.stuck(10_000_000)).toEqual([]);
  });

  it('names the files no worker started once the whole run is silent with none in flight', () => {
    const watch = new StuckFileWatch(MARGIN, PROJECT);
    watch.runStarted(['b.test.ts', 'a.test.ts', 'c.test.ts'], 0);
    watch.started('c.test.ts', PROJECT, 1_000);
    expect(watch.neverStarted(1_000_000)).toEqual([]);
    watch.ended('c.test.ts', 2_000);
    expect(watch.neverStarted(2_000 + PROJECT + MARGIN)).toEqual([]);
    expect(watch.neverStarted(2_001 + PROJECT + MARGIN)).toEqual(['a.test.ts', 'b.test.ts']);
    // A worker starting (its CPU time grows) or the main process busy keeps the run alive.
    watch.runBusy(3_000);
    expect(watch.neverStarted(2_001 + PROJECT + MARGIN)).toEqual([]);
  });
});
