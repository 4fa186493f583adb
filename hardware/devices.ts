/**
 * What is plugged in: serial ports (with their stable /dev/serial/by-id
 * names) and USB-HID devices, each with the transport URL to put in the
 * config. Fails soft everywhere: a machine without udev, without libusb or
 * without /sys still gets a listing and a note saying what is missing.
 *
 * serialport's SerialPort.list() spawns `udevadm` on Linux and, where udev is
 * not installed, crashes the process with an unhandled `spawn udevadm ENOENT`;
 * so it is only called when udevadm is found, and otherwise we scan /dev and
 * /sys ourselves.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, realpath } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { reasonOf } from './errors.ts';
import { hex4, loadNodeHid } from './transports/hid.ts';

export interface SerialPortInfo {
  /** The kernel device, e.g. /dev/ttyUSB0. */
  path: string;
  /** /dev/serial/by-id links that point at it (stable across reboots and re-plugging). */
  byId: string[];
  vendorId?: string;
  productId?: string;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  /** What to put in the config. */
  url: string;
}

export interface HidDeviceInfo {
  vendorId: string;
  productId: string;
  path?: string;
  serialNumber?: string;
  manufacturer?: string;
  product?: string;
  usagePage?: number;
  interface?: number;
  url: string;
}

export interface DeviceListing {
  serial: SerialPortInfo[];
  hid: HidDeviceInfo[];
  /** Why something could not be listed, or how it was listed instead. */
  notes: string[];
}

export interface ListOptions {
  /** Roots, replaceable for tests. */
  devRoot?: string;
  sysRoot?: string;
  /** PATH to search for udevadm; '' pretends it is not installed. */
  searchPath?: string;
  hid?: boolean;
}

const SERIAL_NAME = /^tty(USB|ACM|AMA|S)\d+$/;

export function findUdevadm(searchPath = process.env.PATH ?? ''): string | undefined {
  const dirs = [...searchPath.split(delimiter), '/usr/bin', '/bin', '/sbin', '/usr/sbin'];
  if (searchPath === '') return undefined;
  return dirs.map((dir) => join(dir, 'udevadm')).find((candidate) => existsSync(candidate));
}

export async function listDevices(options: ListOptions = {}): Promise<DeviceListing> {
  const notes: string[] = [];
  const serial = await listSerialPorts(options, notes);
  const hid = options.hid === false ? [] : await listHidDevices(notes);
  return { serial, hid, notes };
}

export async function listSerialPorts(
  options: ListOptions = {},
  notes: string[] = [],
): Promise<SerialPortInfo[]> {
  const devRoot = options.devRoot ?? '/dev';
  const sysRoot = options.sysRoot ?? '/sys';
  const byId = await byIdLinks(devRoot);
  const udevadm = findUdevadm(options.searchPath);
  let ports: SerialPortInfo[] | undefined;
  if (udevadm && options.devRoot === undefined) {
    try {
      const { SerialPort } = await import('serialport');
      const found = await SerialPort.list();
      ports = found.map((port) => {
        const info: SerialPortInfo = { path: port.path, byId: byId.get(port.path) ?? [], url: '' };
        if (port.vendorId) info.vendorId = port.vendorId.toLowerCase();
        if (port.productId) info.productId = port.productId.toLowerCase();
        if (port.serialNumber) info.serialNumber = port.serialNumber;
        if (port.manufacturer) info.manufacturer = port.manufacturer;
        return info;
      });
    } catch (error) {
      notes.push(`serialport could not list ports (${reasonOf(error)}); scanned /dev instead.`);
    }
  } else {
    notes.push(
      'udev (udevadm) is not installed: serial ports were found by scanning /dev/serial/by-id and ' +
        '/dev/tty{USB,ACM,AMA,S}*; USB details come from /sys where available.',
    );
  }
  if (!ports) ports = await scanSerialPorts(devRoot, sysRoot, byId);
  for (const port of ports) {
    // sysfs knows the product name even where udev does not report it.
    if (!port.product || !port.vendorId) await addUsbDetails(port, sysRoot);
    port.url = port.byId[0] ?? port.path;
  }
  return ports.sort((a, b) => a.path.localeCompare(b.path, 'en', { numeric: true }));
}

/** realpath → by-id links. */
async function byIdLinks(devRoot: string): Promise<Map<string, string[]>> {
  const links = new Map<string, string[]>();
  const directory = join(devRoot, 'serial', 'by-id');
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return links;
  }
  for (const name of names.sort()) {
    const link = join(directory, name);
    try {
      const target = await realpath(link);
      links.set(target, [...(links.get(target) ?? []), link]);
    } catch {
      // A dangling link: the device went away while we looked.
    }
  }
  return links;
}

async function scanSerialPorts(
  devRoot: string,
  sysRoot: string,
  byId: Map<string, string[]>,
): Promise<SerialPortInfo[]> {
  let names: string[] = [];
  try {
    names = (await readdir(devRoot)).filter((name) => SERIAL_NAME.test(name));
  } catch {
    return [];
  }
  const ports: SerialPortInfo[] = [];
  for (const name of names) {
    // Most PCs have 4-32 ttyS nodes with no UART behind them; sysfs says type 0 for those.
    if (
      name.startsWith('ttyS') &&
      (await readText(join(sysRoot, 'class/tty', name, 'type'))) === '0'
    )
      continue;
    const path = join(devRoot, name);
    ports.push({ path, byId: byId.get(path) ?? [], url: path });
  }
  // by-id links whose target we did not see under a known name (a by-id for a ttyXRUSB, say).
  for (const [target, links] of byId) {
    if (!ports.some((port) => port.path === target))
      ports.push({ path: target, byId: links, url: '' });
  }
  return ports;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return (await readFile(path, 'utf8')).trim();
  } catch {
    return undefined;
  }
}

/** Walks up from /sys/class/tty/<name>/device to the USB device and reads its descriptors. */
async function addUsbDetails(port: SerialPortInfo, sysRoot: string): Promise<void> {
  const name = port.path.split('/').pop() ?? '';
  let directory: string;
  try {
    directory = await realpath(join(sysRoot, 'class/tty', name, 'device'));
  } catch {
    return;
  }
  for (let depth = 0; depth < 4 && directory.length > 1; depth++) {
    const vendorId = await readText(join(directory, 'idVendor'));
    if (vendorId) {
      const productId = await readText(join(directory, 'idProduct'));
      const serialNumber = await readText(join(directory, 'serial'));
      const manufacturer = await readText(join(directory, 'manufacturer'));
      const product = await readText(join(directory, 'product'));
      port.vendorId ??= vendorId;
      if (productId) port.productId ??= productId;
      if (serialNumber) port.serialNumber ??= serialNumber;
      if (manufacturer) port.manufacturer ??= manufacturer;
      if (product) port.product ??= product;
      return;
    }
    directory = join(directory, '..');
  }
}

export async function listHidDevices(notes: string[] = []): Promise<HidDeviceInfo[]> {
  try {
    const hid = await loadNodeHid();
    const devices = await hid.devicesAsync();
    return devices
      .map((device) => {
        const vendorId = hex4(device.vendorId);
        const productId = hex4(device.productId);
        const info: HidDeviceInfo = {
          vendorId,
          productId,
          url: `hid://${vendorId}:${productId}${device.serialNumber ? `/${encodeURIComponent(device.serialNumber)}` : ''}`,
        };
        if (device.path) info.path = device.path;
        if (device.serialNumber) info.serialNumber = device.serialNumber;
        if (device.manufacturer) info.manufacturer = device.manufacturer;
        if (device.product) info.product = device.product;
        if (device.usagePage !== undefined) info.usagePage = device.usagePage;
        if (device.interface !== undefined && device.interface >= 0)
          info.interface = device.interface;
        return info;
      })
      .sort((a, b) => (a.path ?? a.url).localeCompare(b.path ?? b.url));
  } catch (error) {
    notes.push(`HID devices could not be listed: ${reasonOf(error)}`);
    return [];
  }
}

/** The human listing printed by `tableside devices`. */
export function formatDeviceListing(listing: DeviceListing): string {
  const lines: string[] = [];
  lines.push(`Serial ports (${listing.serial.length})`);
  if (listing.serial.length === 0) lines.push('  none found');
  for (const port of listing.serial) {
    const what = [port.manufacturer, port.product].filter(Boolean).join(' ');
    const ids = port.vendorId ? ` [${port.vendorId}:${port.productId ?? '????'}]` : '';
    const serial = port.serialNumber ? ` serial ${port.serialNumber}` : '';
    lines.push(`  ${port.path}${what ? `  ${what}` : ''}${ids}${serial}`);
    for (const link of port.byId) lines.push(`    by-id: ${link}`);
    lines.push(
      `    configure: transport: ${port.url}   (other baud rates: serial:${port.url}?baud=9600)`,
    );
  }
  lines.push('');
  lines.push(`HID devices (${listing.hid.length})`);
  if (listing.hid.length === 0) lines.push('  none found');
  for (const device of listing.hid) {
    const what = [device.manufacturer, device.product].filter(Boolean).join(' ');
    lines.push(
      `  ${device.vendorId}:${device.productId}${what ? `  ${what}` : ''}${device.path ? `  ${device.path}` : ''}`,
    );
    if (device.serialNumber) lines.push(`    serial: ${device.serialNumber}`);
    lines.push(`    configure: transport: ${device.url}`);
  }
  if (listing.notes.length > 0) {
    lines.push('');
    for (const note of listing.notes) lines.push(`note: ${note}`);
  }
  lines.push('');
  lines.push(
    'Put the transport under devices.<name>.transport (or console.transport for the dealer console) in the config.',
  );
  lines.push(
    'Stable names: install hardware/deploy/99-tableside.rules (see docs/operator/raspberry-pi.md) to get ' +
      '/dev/tableside/shoe, /dev/tableside/shuffler, /dev/tableside/reader.',
  );
  return lines.join('\n');
}
