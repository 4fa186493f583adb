/**
 * A reader with no firmware of ours, made into a protocol reader: a
 * TagSource's UIDs become TAG frames and its faults ERROR frames, sent by the
 * project's one device side of the protocol (DeviceCore, talker RD) — so
 * every tag is kept until the host ACKs it, across a reconnect, exactly as
 * a protocol reader does.
 */
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { HelloMessage } from '../../device-protocol/messages.ts';
import { DeviceCore } from '../device/device-core.ts';
import type { DeviceKey } from '../keys/device-key.ts';
import type { Transport } from '../transports/transport.ts';
import { type TagSource, type TagSourceFault, uidHex } from './tag-source.ts';

export interface ReaderDeviceOptions {
  /** A started TagSource. */
  source: TagSource;
  /** The device end of the link to the host. */
  transport: Transport;
  hello: HelloMessage;
  /** The reader's own key (protocol 1.4, PROTOCOL.md § 5); absent: a reader without a key. */
  key?: DeviceKey;
  /** The table's host key, learned at pairing (protocol 1.7, PROTOCOL.md § 5.2): only that host's CONFIRM opens a session; absent: any host's (a bench). */
  hostKey?: DevicePublicKey;
  /** Monotonic ms for the device core; injectable for tests. */
  now?: () => number;
}

/** ERROR detail: 1-120 printable ASCII characters without $ , * (PROTOCOL.md § 7). */
export function errorDetail(text: string): string {
  const clean = text
    .replace(/[$,*]/g, ';')
    .replace(/[^\x20-\x7e]/g, '?')
    .trim();
  if (!clean) return 'fault';
  return clean.length <= 120 ? clean : `${clean.slice(0, 117)}...`;
}

export class ReaderDevice {
  readonly core: DeviceCore;
  private readonly onTag = (uid: Uint8Array) => this.core.send({ type: 'TAG', uid: uidHex(uid) });
  private readonly onFault = (fault: TagSourceFault) =>
    this.core.send({
      type: 'ERROR',
      code: fault.code,
      detail: errorDetail(fault.detail ?? fault.message),
    });
  private readonly onRecovered = () =>
    this.core.send({ type: 'STATUS', state: 'ready', details: {} });

  constructor(private readonly options: ReaderDeviceOptions) {
    const coreOptions: ConstructorParameters<typeof DeviceCore>[0] = {
      talker: 'RD',
      transport: options.transport,
      hello: options.hello,
    };
    if (options.now) coreOptions.now = options.now;
    if (options.key) coreOptions.key = options.key;
    if (options.hostKey) coreOptions.hostKey = options.hostKey;
    this.core = new DeviceCore(coreOptions);
  }

  start(): void {
    this.options.source.on('tag', this.onTag);
    this.options.source.on('fault', this.onFault);
    this.options.source.on('recovered', this.onRecovered);
    this.core.start();
  }

  async stop(): Promise<void> {
    this.options.source.off('tag', this.onTag);
    this.options.source.off('fault', this.onFault);
    this.options.source.off('recovered', this.onRecovered);
    await this.core.stop();
  }
}
