import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isHardwareError } from '../../../hardware/errors.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import {
  backoffDelay,
  type LinkState,
  type LinkStateChange,
  parseLinkOptions,
  ReconnectingLink,
} from '../../../hardware/transports/reconnecting-link.ts';
import { BaseTransport } from '../../../hardware/transports/transport.ts';

function recordStates(link: ReconnectingLink): LinkStateChange[] {
  const changes: LinkStateChange[] = [];
  link.on('state', (change) => changes.push(change));
  return changes;
}

function states(changes: LinkStateChange[]): LinkState[] {
  return changes.map((change) => change.state);
}

const fast = { initialDelayMs: 2, maxDelayMs: 10, openTimeoutMs: 1000 };
const links: ReconnectingLink[] = [];
function makeLink(...args: ConstructorParameters<typeof ReconnectingLink>): ReconnectingLink {
  const link = new ReconnectingLink(...args);
  links.push(link);
  return link;
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(links.splice(0).map((link) => link.close()));
});

describe('the in-memory pair', () => {
  it('carries bytes from each end to the other, in order', async () => {
    const wire = createMemoryPair('pair');
    await wire.host.open();
    await wire.device.open();
    const seen: string[] = [];
    wire.device.on('data', (chunk) => seen.push(chunk.toString()));
    await wire.host.write(Buffer.from('$HO,1,'));
    await wire.host.write(Buffer.from('PING*0000\r\n'));
    await vi.waitFor(() => expect(seen.join('')).toBe('$HO,1,PING*0000\r\n'));
  });

  it('closes both ends with the reason when severed and refuses to open until restored', async () => {
    const wire = createMemoryPair('cut');
    await wire.host.open();
    const closes: string[] = [];
    wire.host.on('close', (info) => closes.push(`${info.expected}:${info.reason}`));
    wire.sever('cable pulled');
    expect(closes).toEqual(['false:cable pulled']);
    await expect(wire.host.open()).rejects.toThrow(/severed/);
    wire.restore();
    await wire.host.open();
    expect(wire.host.isOpen).toBe(true);
  });

  it('refuses writes while closed with a not_open error', async () => {
    const wire = createMemoryPair('closed');
    const error = await wire.host.write(Buffer.from('x')).catch((e: unknown) => e);
    expect(isHardwareError(error) && error.code).toBe('not_open');
  });
});

describe('ReconnectingLink', () => {
  it('opens, reports the change, and passes bytes both ways', async () => {
    const wire = createMemoryPair('basic');
    await wire.device.open();
    const link = makeLink(wire.host, fast);
    const changes = recordStates(link);
    link.start();
    await link.whenState('open');
    expect(states(changes)).toEqual(['opening', 'open']);
    const received: string[] = [];
    link.on('data', (chunk) => received.push(chunk.toString()));
    wire.device.on('data', (chunk) => void wire.device.write(chunk));
    await link.write(Buffer.from('echo'));
    await vi.waitFor(() => expect(received.join('')).toBe('echo'));
  });

  it('reopens after the device goes away and reports every state with its reason', async () => {
    const wire = createMemoryPair('flap');
    const link = makeLink(wire.host, fast, { random: () => 0.5 });
    const changes = recordStates(link);
    link.start();
    await link.whenState('open');
    wire.sever('shoe unplugged');
    await link.whenState('reopening');
    // While unplugged, every attempt fails and is reported.
    await vi.waitFor(() =>
      expect(changes.filter((c) => c.state === 'reopening').length).toBeGreaterThanOrEqual(3),
    );
    wire.restore();
    await link.whenState('open');
    expect(link.state).toBe('open');
    const afterUnplug = changes.slice(2);
    expect(afterUnplug[0]).toMatchObject({ state: 'reopening', reason: 'shoe unplugged' });
    expect(afterUnplug.some((c) => /open failed: .*severed/.test(c.reason))).toBe(true);
    expect(afterUnplug.at(-1)).toMatchObject({ state: 'open', previous: 'opening' });
    // The backoff grows with each consecutive failure.
    const attempts = afterUnplug.filter((c) => c.state === 'reopening').map((c) => c.attempt);
    expect(attempts.slice(0, 3)).toEqual([1, 2, 3]);
  });

  it('reopens a device that goes silent without closing, and markAlive keeps a talking one open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const wire = createMemoryPair('silent');
    const link = makeLink(wire.host, { ...fast, silenceTimeoutMs: 100 }, { random: () => 0 });
    const changes = recordStates(link);
    link.start();
    await link.whenState('open');
    await vi.advanceTimersByTimeAsync(90);
    link.markAlive();
    await vi.advanceTimersByTimeAsync(90);
    expect(link.state).toBe('open');
    await vi.advanceTimersByTimeAsync(20);
    expect(changes.find((c) => c.state === 'reopening')?.reason).toBe(
      'silent: no frame for 100 ms',
    );
    await vi.advanceTimersByTimeAsync(1);
    expect(link.state).toBe('open');
    expect(states(changes)).toEqual(['opening', 'open', 'reopening', 'opening', 'open']);
  });

  it('schedules every reopen within 1.5 s by default and starts the backoff over at each open, however many pulls came before', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const wire = createMemoryPair('burst');
    // The jitter at its top: each delay is the most the backoff would wait.
    const link = makeLink(wire.host, {}, { random: () => 0.999 });
    const changes = recordStates(link);
    link.start();
    await link.whenState('open');
    // A burst of ten pulls: each re-seat opens the line and the next pull comes before any frame
    // (no markAlive), with three failed opens while each is out.
    for (let pull = 0; pull < 10; pull++) {
      const before = changes.length;
      wire.sever('cable pulled');
      while (changes.slice(before).filter((c) => c.state === 'reopening').length < 4) {
        await vi.advanceTimersByTimeAsync(100);
      }
      wire.restore();
      const reopening = changes.slice(before).filter((c) => c.state === 'reopening');
      // The pull itself: the first step of the backoff again, not where the last pull left it.
      expect(reopening[0]).toMatchObject({ reason: 'cable pulled', attempt: 1, delayMs: 249 });
      const last = reopening.at(-1)?.delayMs ?? Number.NaN;
      await vi.advanceTimersByTimeAsync(last);
      expect(link.state).toBe('open');
    }
    // A line that stays absent: tried on, at most 1.5 s apart, but not in a loop.
    const before = changes.length;
    wire.sever('cable pulled');
    await vi.advanceTimersByTimeAsync(60_000);
    const delays = changes
      .slice(before)
      .filter((c) => c.state === 'reopening')
      .map((c) => c.delayMs ?? Number.NaN);
    expect(delays.slice(0, 4)).toEqual([249, 499, 999, 1498]);
    expect(delays.slice(4).every((delay) => delay === 1498)).toBe(true);
    expect(delays.length).toBeGreaterThan(40);
    wire.restore();
    await vi.advanceTimersByTimeAsync(1498);
    expect(link.state).toBe('open');
  });

  it('gives up with state failed after maxAttempts consecutive failures', async () => {
    const wire = createMemoryPair('dead');
    wire.sever();
    const link = makeLink(wire.host, { ...fast, maxAttempts: 2 }, { random: () => 0 });
    const changes = recordStates(link);
    link.start();
    const failed = await link.whenState('failed');
    expect(failed?.reason).toMatch(/gave up after 2 attempts/);
    expect(states(changes)).toEqual([
      'opening',
      'reopening',
      'opening',
      'reopening',
      'opening',
      'failed',
    ]);
  });

  it('stays closed after close(), even while waiting to reopen', async () => {
    const wire = createMemoryPair('stop');
    wire.sever();
    const link = makeLink(
      wire.host,
      { ...fast, initialDelayMs: 50, maxDelayMs: 50 },
      {
        random: () => 0.9,
      },
    );
    const changes = recordStates(link);
    link.start();
    await link.whenState('reopening');
    await link.close();
    wire.restore();
    // fixed wait: nothing happens: no reopen may follow close(), past the 50 ms retry delay: only time shows it
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(link.state).toBe('closed');
    expect(states(changes)).toEqual(['opening', 'reopening', 'closed']);
  });

  it('abandons an open that hangs past openTimeoutMs and retries', async () => {
    class HangingTransport extends BaseTransport {
      readonly kind = 'tcp' as const;
      aborted = 0;
      protected doOpen(signal: AbortSignal): Promise<void> {
        return new Promise((_, reject) => {
          signal.addEventListener('abort', () => {
            this.aborted++;
            reject(new Error('connect abandoned'));
          });
        });
      }
      protected async doWrite(): Promise<void> {
        // The test never reads what is written.
      }
      protected async doClose(): Promise<void> {
        // Nothing to release.
      }
    }
    const transport = new HangingTransport('tcp://blackhole:4001');
    const link = makeLink(
      transport,
      { ...fast, openTimeoutMs: 20, maxAttempts: 1 },
      {
        random: () => 0,
      },
    );
    const changes = recordStates(link);
    link.start();
    await link.whenState('failed');
    expect(changes[1]?.reason).toBe('open failed: open timed out after 20 ms');
    expect(transport.aborted).toBe(2);
  });

  it('refuses writes unless open', async () => {
    const link = makeLink(createMemoryPair('idle').host, fast);
    const error = await link.write(Buffer.from('x')).catch((e: unknown) => e);
    expect(isHardwareError(error) && error.code).toBe('not_open');
  });

  it('validates its options in one object and names the bad field', () => {
    expect(parseLinkOptions({})).toMatchObject({
      initialDelayMs: 250,
      maxDelayMs: 1500,
      silenceTimeoutMs: 0,
    });
    expect(() => parseLinkOptions({ initialDelayMs: 5000, maxDelayMs: 100 })).toThrow(
      /maxDelayMs: maxDelayMs must not be below initialDelayMs/,
    );
    expect(() => parseLinkOptions({ silenceTimeoutMs: 5 })).toThrow(/silenceTimeoutMs/);
    expect(() => parseLinkOptions({ retryDelay: 5 })).toThrow(/retryDelay/);
    try {
      parseLinkOptions({ openTimeoutMs: -1 });
    } catch (error) {
      expect(isHardwareError(error) && error.code).toBe('bad_options');
    }
  });

  it('keeps every backoff delay within full jitter of a capped exponential', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 1000, max: 60000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (initialDelayMs, maxDelayMs, attempt, random) => {
          const options = parseLinkOptions({ initialDelayMs, maxDelayMs });
          const delay = backoffDelay(options, attempt, random);
          const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(ceiling);
          expect(backoffDelay(options, attempt, 0)).toBe(0);
        },
      ),
    );
  });
});
