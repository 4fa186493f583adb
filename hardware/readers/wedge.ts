/**
 * `wedge://VID:PID[/SERIAL]?format=hex|dec&order=msb|reversed&bytes=4|7|10`:
 * a keyboard-wedge RFID reader through node-hid, as a TagSource. Each line
 * it types (ended by Enter) is read as a UID in the format the reader is set
 * to; a line that cannot be one is reported (the alarm says what was typed
 * and what to set), and the reader keeps being read. An unplugged reader is
 * reported once and reopened until it is back.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { HardwareError, reasonOf } from '../errors.ts';
import { hex4, loadNodeHid } from '../transports/hid.ts';
import {
  helloName,
  type TagSource,
  type TagSourceEvents,
  type TagSourceIdentity,
} from './tag-source.ts';
import { BootKeyboardDecoder, uidFromLine, type WedgeFormat } from './wedge-keys.ts';

/** The part of a node-hid device the wedge uses (tests hand in recorded reports instead). */
export interface WedgeDevice {
  on(event: 'data', listener: (report: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  close(): Promise<void>;
}

export interface WedgeOptions {
  vendorId: number;
  productId: number;
  serialNumber?: string;
  format: WedgeFormat;
  /** Opens the device; default node-hid. */
  open?: () => Promise<WedgeDevice>;
  /** Pause between reopen attempts of an unplugged reader (ms). */
  retryMs?: number;
}

export function wedgeName(options: Pick<WedgeOptions, 'vendorId' | 'productId' | 'serialNumber'>) {
  const ids = `${hex4(options.vendorId)}:${hex4(options.productId)}`;
  return `keyboard-wedge reader ${ids}${options.serialNumber ? `/${options.serialNumber}` : ''}`;
}

export class WedgeReader extends EventEmitter<TagSourceEvents> implements TagSource {
  readonly description: string;
  private device: WedgeDevice | undefined;
  private decoder = new BootKeyboardDecoder();
  private running = false;
  private faulted = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly options: WedgeOptions) {
    super();
    this.description = wedgeName(options);
  }

  async start(): Promise<TagSourceIdentity> {
    await this.connect();
    this.running = true;
    const { vendorId, productId, serialNumber, format } = this.options;
    const setting = `${format.format}-${format.order}${format.bytes ? `-${format.bytes}` : ''}`;
    return {
      model: `WEDGE-${hex4(vendorId)}-${hex4(productId)}`,
      serial: helloName(serialNumber ?? `${hex4(vendorId)}-${hex4(productId)}`),
      firmware: `wedge-${setting}`,
      firmwareSha256: createHash('sha256')
        .update(`tableside keyboard wedge ${hex4(vendorId)}:${hex4(productId)} ${setting}`)
        .digest('hex'),
    };
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retry) clearTimeout(this.retry);
    this.retry = undefined;
    const device = this.device;
    this.device = undefined;
    // Stopping: a device already unplugged is closed enough.
    await device?.close().catch(() => undefined);
  }

  /** One input report, as node-hid hands it over. */
  report(report: Uint8Array): void {
    for (const event of this.decoder.push(report)) {
      if (event.kind === 'bad') {
        this.fault(
          'wedge_bad_input',
          `${this.description}: ${event.why}: set the reader to type the UID and Enter`,
        );
        continue;
      }
      const uid = uidFromLine(event.text, this.options.format);
      if (typeof uid === 'string') {
        const { format, order } = this.options.format;
        this.fault(
          'wedge_bad_uid',
          `${this.description}: ${uid}: set the reader to ${format === 'hex' ? 'hex' : 'decimal'} UIDs or change format= in the URL (order=${order})`,
        );
        continue;
      }
      this.recovered();
      this.emit('tag', uid);
    }
  }

  private fault(code: string, message: string): void {
    this.faulted = true;
    this.emit('fault', { code, message, detail: message.replace(this.description, 'wedge') });
  }

  private recovered(): void {
    if (!this.faulted) return;
    this.faulted = false;
    this.emit('recovered');
  }

  private async connect(): Promise<void> {
    const device = await (this.options.open ?? (() => openWithNodeHid(this.options)))();
    this.device = device;
    this.decoder = new BootKeyboardDecoder();
    device.on('data', (report) => {
      if (this.device === device) this.report(report);
    });
    device.on('error', (error) => {
      if (this.device !== device) return;
      this.device = undefined;
      // The error is the unplug being handled; the handle is useless whether it closes or not.
      void device.close().catch(() => undefined);
      this.fault(
        'wedge_unplugged',
        `${this.description} is gone (${reasonOf(error)}): plug it back in; it is reopened every ${this.retryMs / 1000} s`,
      );
      this.scheduleReconnect();
    });
  }

  private get retryMs(): number {
    return this.options.retryMs ?? 1_000;
  }

  private scheduleReconnect(): void {
    if (!this.running || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.running) return;
      this.connect().then(
        () => this.recovered(),
        () => this.scheduleReconnect(),
      );
    }, this.retryMs);
  }
}

/** The reader's keyboard interface through node-hid (hidraw on Linux). */
async function openWithNodeHid(options: WedgeOptions): Promise<WedgeDevice> {
  const hid = await loadNodeHid();
  const name = wedgeName(options);
  const candidates = (await hid.devicesAsync(options.vendorId, options.productId)).filter(
    (device) =>
      device.path && (!options.serialNumber || device.serialNumber === options.serialNumber),
  );
  // A reader with several interfaces: the boot keyboard one is Generic Desktop (1) / Keyboard (6).
  const match =
    candidates.find((device) => device.usagePage === 1 && device.usage === 6) ?? candidates[0];
  if (!match?.path) {
    throw new HardwareError(
      'open_failed',
      `${name}: not connected (check \`lsusb\` for ${hex4(options.vendorId)}:${hex4(options.productId)})`,
    );
  }
  try {
    return await hid.HIDAsync.open(match.path);
  } catch (error) {
    throw new HardwareError(
      'open_failed',
      `${name}: cannot open ${match.path}: ${reasonOf(error)} (permission denied? install hardware/deploy/99-tableside.rules and add the user to plugdev)`,
      { cause: error },
    );
  }
}
