import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { DaemonEvents } from '../../../firmware-host/daemon/bus.ts';
import {
  type Extension,
  type ExtensionContext,
  ExtensionRunner,
  Teardown,
} from '../../../firmware-host/daemon/extensions/extension.ts';
import type { Logger } from '../../../firmware-host/log.ts';

/** Records what is logged as a warning: a step that fails to stop is told, not dropped. */
const warnings: string[] = [];
const log = {
  warn: (_fields: unknown, message: string) => void warnings.push(message),
} as unknown as Logger;
/** The runner hands the context through untouched: these extensions read nothing of it. */
const context = { bus: new EventEmitter<DaemonEvents>() } as unknown as ExtensionContext;

function recorded(steps: string[], name: string, failsToStart = false): Extension {
  return {
    name,
    start: async () => {
      steps.push(`start ${name}`);
      if (failsToStart) throw new Error(`${name} cannot start`);
    },
    stop: async () => {
      steps.push(`stop ${name}`);
    },
  };
}

describe('extensions start in a stated order and stop in reverse', () => {
  it('starts each in the order given and stops them in the reverse order', async () => {
    const steps: string[] = [];
    const runner = new ExtensionRunner(log);
    await runner.start([recorded(steps, 'a'), recorded(steps, 'b'), recorded(steps, 'c')], context);
    await runner.stop();
    expect(steps).toEqual(['start a', 'start b', 'start c', 'stop c', 'stop b', 'stop a']);
  });

  it('stops the failing one and those started before it, starts none after it, and rethrows', async () => {
    const steps: string[] = [];
    const runner = new ExtensionRunner(log);
    await expect(
      runner.start(
        [recorded(steps, 'a'), recorded(steps, 'b', true), recorded(steps, 'c')],
        context,
      ),
    ).rejects.toThrow('b cannot start');
    expect(steps).toEqual(['start a', 'start b', 'stop b', 'stop a']);
    // Nothing is left to stop a second time.
    await runner.stop();
    expect(steps).toHaveLength(4);
  });

  it('goes on stopping the others when one fails to stop', async () => {
    const steps: string[] = [];
    const runner = new ExtensionRunner(log);
    const broken: Extension = {
      name: 'broken',
      start: async () => undefined,
      stop: async () => {
        throw new Error('cannot stop');
      },
    };
    await runner.start([recorded(steps, 'a'), broken, recorded(steps, 'c')], context);
    warnings.length = 0;
    await runner.stop();
    expect(steps).toEqual(['start a', 'start c', 'stop c', 'stop a']);
    expect(warnings).toEqual(['while stopping']);
  });

  it('undoes a start step by step in reverse, past a step that fails', async () => {
    const steps: string[] = [];
    const teardown = new Teardown();
    teardown.add(() => {
      steps.push('close broker');
    });
    teardown.add(() => {
      throw new Error('bridge already gone');
    });
    teardown.add(() => {
      steps.push('stop timer');
    });
    warnings.length = 0;
    await teardown.run(log);
    await teardown.run(log);
    expect(steps).toEqual(['stop timer', 'close broker']);
    expect(warnings).toEqual(['while stopping']);
  });
});
