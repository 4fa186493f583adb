/**
 * The runner's timeouts come from its clock: on a virtual clock a silent
 * device's whole run (a 10 s HELLO wait, every other check not run) takes
 * no real time, and ends with a verdict.
 */
import { describe, expect, it } from 'vitest';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import type { WireClock } from '../../../firmware-host/conformance/wire.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { BaseTransport } from '../../../hardware/transports/transport.ts';

/** A line that says one HELLO, then takes no more bytes: every write hangs (flow control stuck). */
class StuckLine extends BaseTransport {
  readonly kind = 'memory' as const;
  protected async doOpen(): Promise<void> {
    const hello =
      '$SH,0,HELLO,TS-SHOE-2,SH0042,1.0,2.3.1,e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855*5BEB\r\n';
    setImmediate(() => {
      this.received(Buffer.from(hello));
      setImmediate(() => this.received(Buffer.from(hello)));
    });
  }
  protected doWrite(): Promise<void> {
    return new Promise(() => undefined);
  }
  protected async doClose(): Promise<void> {
    // Nothing to release: the line is in memory.
  }
}

/** Fires the earliest timer whenever the event loop has nothing else to do. */
class VirtualClock implements WireClock {
  #now = 0;
  #next = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #pumping = false;

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.#next;
    this.#timers.set(id, { at: this.#now + ms, callback });
    this.#pump();
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  #pump(): void {
    if (this.#pumping) return;
    this.#pumping = true;
    setImmediate(() => {
      this.#pumping = false;
      const [id, timer] = [...this.#timers].sort(([, a], [, b]) => a.at - b.at)[0] ?? [
        undefined,
        undefined,
      ];
      if (id === undefined) return;
      this.#timers.delete(id);
      this.#now = Math.max(this.#now, timer.at);
      timer.callback();
      this.#pump();
    });
  }
}

describe('the conformance runner on a virtual clock', () => {
  it('ends a silent device’s run on the HELLO timeout without waiting for it in real time', async () => {
    const wire = createMemoryPair(`silent-${process.pid}`);
    await wire.device.open();
    const clock = new VirtualClock();
    const started = performance.now();
    const report = await runConformance({
      link: 'memory://silent',
      transport: wire.host,
      clock,
      scripted: true,
    });
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(clock.now()).toBeGreaterThanOrEqual(10_000);
    expect(report.results[0]).toMatchObject({
      id: 'hello',
      status: 'fail',
      detail: 'no HELLO within 10000 ms; the device sent nothing',
    });
    expect(report.conforms).toBe(false);
    await wire.device.close();
  });

  it('ends a run on a line that takes no bytes, saying the host’s lines were never taken', async () => {
    const clock = new VirtualClock();
    const report = await runConformance({
      link: 'memory://stuck',
      transport: new StuckLine('memory://stuck'),
      clock,
      scripted: true,
    });
    const byId = new Map(report.results.map((result) => [result.id, result]));
    expect(byId.get('hello')?.status).toBe('pass');
    expect(byId.get('host-hello')).toMatchObject({ status: 'fail' });
    expect(byId.get('host-hello')?.detail).toMatch(
      /^no ACK of the host's HELLO 0 within 5000 ms; the device sent .*; \d+ lines the host wrote are still not taken by the line$/,
    );
    expect(report.conforms).toBe(false);
  });
});
