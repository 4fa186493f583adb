/**
 * In-memory transports: two ends of one wire, for tests and for running a
 * simulator inside the daemon's process. The wire can be cut and mended to
 * rehearse a device going away (`sever()` closes both ends and makes opens
 * fail until `restore()`), or silenced (`mute()`: bytes vanish, no close:
 * what a hung pty looks like).
 *
 * `memory://name` URLs resolve through a process-wide hub: the host end is
 * `memory://name`, the device end `memory://name?end=device`.
 */
import { HardwareError } from '../errors.ts';
import { BaseTransport } from './transport.ts';

export type MemoryEnd = 'host' | 'device';

export class MemoryWire {
  readonly host: MemoryTransport;
  readonly device: MemoryTransport;
  private cut = false;
  private muted = false;
  /** Chunks written towards each end, not yet delivered. */
  private readonly inTransit = new Map<MemoryTransport, Buffer[]>();

  constructor(readonly name = 'wire') {
    this.host = new MemoryTransport(this, 'host');
    this.device = new MemoryTransport(this, 'device');
    this.inTransit.set(this.host, []);
    this.inTransit.set(this.device, []);
  }

  get isSevered(): boolean {
    return this.cut;
  }

  /** Unplug: both ends close with a reason, and opens fail until restore(). */
  sever(reason = 'wire severed'): void {
    this.cut = true;
    this.host.drop(reason);
    this.device.drop(reason);
  }

  restore(): void {
    this.cut = false;
  }

  /** Bytes written while muted are lost; nobody is told. */
  mute(muted = true): void {
    this.muted = muted;
  }

  /** @internal */
  deliver(from: MemoryEnd, bytes: Uint8Array): void {
    if (this.muted || this.cut) return;
    const to = from === 'host' ? this.device : this.host;
    // A copy, asynchronously, like a real link: the writer may reuse its buffer. Delivered as
    // I/O is, in a later turn of the event loop (two ends answering each other at once must
    // not starve the timers), and what one turn wrote arrives together, as bytes read at once.
    const queue = this.inTransit.get(to)!;
    queue.push(Buffer.from(bytes));
    if (queue.length === 1) {
      setImmediate(() => {
        for (const chunk of queue.splice(0)) to.take(chunk);
      });
    }
  }
}

export class MemoryTransport extends BaseTransport {
  readonly kind = 'memory' as const;

  constructor(
    private readonly wire: MemoryWire,
    readonly end: MemoryEnd,
  ) {
    super(`memory://${wire.name}${end === 'device' ? '?end=device' : ''}`);
  }

  /** The other end of the wire. */
  get peer(): MemoryTransport {
    return this.end === 'host' ? this.wire.device : this.wire.host;
  }

  protected async doOpen(): Promise<void> {
    if (this.wire.isSevered) throw new HardwareError('open_failed', `${this.url}: wire is severed`);
  }

  protected async doWrite(bytes: Uint8Array): Promise<void> {
    this.wire.deliver(this.end, bytes);
  }

  protected async doClose(): Promise<void> {
    // Nothing to release: the peer is in memory.
  }

  /** @internal */
  take(chunk: Buffer): void {
    this.received(chunk);
  }

  /** @internal */
  drop(reason: string): void {
    this.ended(reason);
  }
}

/** A linked pair: what one end writes, the other reads. */
export function createMemoryPair(name?: string): MemoryWire {
  return new MemoryWire(name);
}

const hub = new Map<string, MemoryWire>();

/** The named wire behind `memory://name`, made on first use. */
export function memoryWire(name: string): MemoryWire {
  let wire = hub.get(name);
  if (!wire) {
    wire = new MemoryWire(name);
    hub.set(name, wire);
  }
  return wire;
}

/** Forget a named wire (tests call this between cases). */
export function releaseMemoryWire(name: string): void {
  hub.delete(name);
}
