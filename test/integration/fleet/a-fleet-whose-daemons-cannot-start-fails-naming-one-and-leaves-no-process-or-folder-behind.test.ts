import { describe, expect, it } from 'vitest';
import { runFleet } from '../../bench/fleet-harness.ts';
import { ProcessGroup } from '../../bench/fleet-processes.ts';
import { expectNothingLeftBehind, fleetRoot, fleetSkipReason } from './support.ts';

const missing = fleetSkipReason();
const root = fleetRoot('fleet-failing-');

describe.skipIf(missing !== undefined)(
  'a fleet whose daemons cannot start fails naming one and leaves no process or folder behind',
  () => {
    it('rejects with the daemon and its last words, after ending the brokers and ptys it started', async () => {
      const group = new ProcessGroup();
      const failing = runFleet({
        tables: 2,
        topology: 'bridged',
        tablesPerEdge: 1,
        cardsPerTable: 4,
        cardsPerSecond: 20,
        // A "daemon" that says why and exits at once, whatever its arguments.
        daemon: {
          command: process.execPath,
          args: ['-e', 'console.error("no journal here"); process.exit(3)', '--'],
          cwd: root,
        },
        group,
        tempRoot: root,
        timeoutMs: 20_000,
      });
      await expect(failing).rejects.toThrow(/daemon table-0[12] exited: no journal here/);
      // Three brokers, two socats, two daemons were started; none is left.
      expect(group.pids()).toHaveLength(7);
      expectNothingLeftBehind(group.pids(), root);
    }, 60_000);
  },
);
