/**
 * The host end of a reader with no firmware of ours (`pn532:`, `wedge://`):
 * opening it starts the TagSource and an in-process reader device on a
 * private memory wire, so the daemon's reader driver gets the same HELLO,
 * TAG and ERROR frames a protocol reader sends, and answers them the same
 * way. Closing it stops both; a tag the host has not ACKed by then is gone
 * with them, as with a reader switched off.
 */
import {
  encodeMessage,
  type HelloMessage,
  PROTOCOL_VERSION,
} from '../../device-protocol/messages.ts';
import { reasonOf } from '../errors.ts';
import { createMemoryPair, type MemoryWire } from '../transports/memory.ts';
import { BaseTransport } from '../transports/transport.ts';
import { ReaderDevice } from './reader-device.ts';
import type { TagSource, TagSourceIdentity } from './tag-source.ts';

export class TagReaderTransport extends BaseTransport {
  private wire: MemoryWire | undefined;
  private device: ReaderDevice | undefined;
  private source: TagSource | undefined;
  /** What the part said of itself when last opened (diag shows it). */
  identity: TagSourceIdentity | undefined;

  constructor(
    readonly kind: 'pn532' | 'wedge',
    url: string,
    private readonly makeSource: () => TagSource,
  ) {
    super(url);
  }

  protected async doOpen(signal: AbortSignal): Promise<void> {
    const source = this.makeSource();
    const identity = await source.start();
    if (signal.aborted) {
      await source.stop();
      throw new Error('open abandoned');
    }
    const hello: HelloMessage = { type: 'HELLO', protocol: PROTOCOL_VERSION, ...identity };
    try {
      encodeMessage(hello);
    } catch (error) {
      await source.stop();
      throw new Error(`${source.description} cannot introduce itself: ${reasonOf(error)}`);
    }
    const wire = createMemoryPair(this.url);
    const device = new ReaderDevice({
      source,
      transport: wire.device,
      hello,
    });
    wire.host.on('data', (chunk) => this.received(chunk));
    await wire.host.open();
    this.wire = wire;
    this.device = device;
    this.source = source;
    this.identity = identity;
    device.start();
  }

  protected async doWrite(bytes: Uint8Array): Promise<void> {
    if (!this.wire) throw new Error('reader is not running');
    await this.wire.host.write(bytes);
  }

  protected async doClose(): Promise<void> {
    const { wire, device, source } = this;
    this.wire = undefined;
    this.device = undefined;
    this.source = undefined;
    await device?.stop();
    await source?.stop();
    wire?.host.removeAllListeners('data');
    await wire?.host.close();
  }
}
