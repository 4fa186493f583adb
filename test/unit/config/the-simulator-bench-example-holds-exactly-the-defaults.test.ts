/**
 * Issue 25, item 12: `simulator-bench.yaml` said "This is what you get with
 * no config at all" but named another table and a fixed seed. The example
 * now resolves to exactly the config of no file at all.
 */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../firmware-host/config/index.ts';

const example = resolve(
  import.meta.dirname,
  '../../../firmware-host/config/examples/simulator-bench.yaml',
);

describe('the simulator-bench example', () => {
  it('resolves to exactly the defaults (no config at all)', async () => {
    const cwd = resolve(import.meta.dirname);
    const fromFile = await loadConfig({ file: example, env: {}, cwd });
    const none = await loadConfig({ env: {}, cwd });
    expect(fromFile.config).toEqual(none.config);
    expect(none.config.journal.dir).toBe(join(cwd, '.tableside/journal'));
  });
});
