/**
 * USB-HID transport through node-hid, `hid://VID:PID[/SERIAL]`. node-hid is a
 * native module; it is imported only when an HID device is actually opened or
 * listed, so a table with serial devices only never needs libusb or hidraw.
 * Reports are framed to a byte stream as described in hid-reports.ts.
 */
import type { Device, HIDAsync } from 'node-hid';
import { HardwareError, reasonOf } from '../errors.ts';
import {
  decodeHidReport,
  encodeHidReports,
  type HidReportFormat,
  validateHidReportFormat,
} from './hid-reports.ts';
import { BaseTransport } from './transport.ts';

export interface HidOptions extends HidReportFormat {
  vendorId: number;
  productId: number;
  serialNumber?: string;
}

type NodeHid = typeof import('node-hid');

const NATIVE_LOAD_FAILURE =
  /cannot open shared object|libusb|libudev|hidraw|No native build|Could not locate the bindings|dlopen|ERR_DLOPEN_FAILED|MODULE_NOT_FOUND|Cannot find (module|package)/i;

/**
 * node-hid, or a HardwareError('library_missing') that says what to install.
 * The native binding loads lazily inside node-hid, so this also touches it.
 */
export async function loadNodeHid(): Promise<NodeHid> {
  try {
    const hid = (await import('node-hid')) as NodeHid;
    hid.getHidapiVersion();
    return hid;
  } catch (error) {
    throw hidLibraryError(error);
  }
}

export function hidLibraryError(error: unknown): HardwareError {
  return new HardwareError(
    'library_missing',
    `USB-HID support is unavailable: ${reasonOf(error)}. ` +
      'On Debian or Raspberry Pi OS install the USB and hidraw libraries: ' +
      '`sudo apt-get install libusb-1.0-0 libudev1` (and make sure the optional ' +
      'dependency node-hid is installed: `npm ci` without --omit=optional).',
    { cause: error },
  );
}

export function hex4(value: number): string {
  return value.toString(16).padStart(4, '0');
}

export class HidTransport extends BaseTransport {
  readonly kind = 'hid' as const;
  private device: HIDAsync | undefined;

  constructor(
    readonly options: HidOptions,
    url = `hid://${hex4(options.vendorId)}:${hex4(options.productId)}${options.serialNumber ? `/${options.serialNumber}` : ''}`,
  ) {
    super(url);
    validateHidReportFormat(options, url);
  }

  protected async doOpen(): Promise<void> {
    const hid = await loadNodeHid();
    const { vendorId, productId, serialNumber } = this.options;
    let candidates: Device[];
    try {
      candidates = await hid.devicesAsync(vendorId, productId);
    } catch (error) {
      throw NATIVE_LOAD_FAILURE.test(reasonOf(error)) ? hidLibraryError(error) : error;
    }
    const match = candidates.find(
      (device) => device.path && (!serialNumber || device.serialNumber === serialNumber),
    );
    if (!match?.path) {
      const seen = candidates.map((device) => device.serialNumber ?? '?').join(', ');
      throw new HardwareError(
        'open_failed',
        `${this.url}: no such HID device connected` +
          (serialNumber && seen ? ` (serial numbers present: ${seen})` : ''),
      );
    }
    let device: HIDAsync;
    try {
      device = await hid.HIDAsync.open(match.path);
    } catch (error) {
      throw new HardwareError(
        'open_failed',
        `${this.url}: cannot open ${match.path}: ${reasonOf(error)} ` +
          '(permission denied? install hardware/deploy/99-tableside.rules and add the user to plugdev)',
        { cause: error },
      );
    }
    this.device = device;
    device.on('data', (report: Buffer) => this.received(decodeHidReport(report, this.options)));
    device.on('error', (error: Error) => {
      // node-hid reports an unplug as a read error; the handle is useless after it.
      if (this.device === device) this.device = undefined;
      // The error is the unplug being handled; the handle is useless whether it closes or not.
      void device.close().catch(() => undefined);
      this.ended(`device disconnected (${error.message})`, error);
    });
  }

  protected async doWrite(bytes: Uint8Array): Promise<void> {
    const device = this.device;
    if (!device) throw new Error('device is gone');
    for (const report of encodeHidReports(bytes, this.options)) {
      await device.write(report);
    }
  }

  protected async doClose(): Promise<void> {
    const device = this.device;
    this.device = undefined;
    // Closing: a device already unplugged is closed enough.
    if (device) await device.close().catch(() => undefined);
  }
}
