import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDeviceListing, listDevices, listSerialPorts } from '../../../hardware/devices.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

/** A fake /dev and /sys: one FTDI adapter with a by-id link, one CDC-ACM board, a phantom ttyS. */
function fakeMachine(): { devRoot: string; sysRoot: string } {
  const root = makeTempDir('tableside-devices-');
  const devRoot = join(root, 'dev');
  const sysRoot = join(root, 'sys');
  mkdirSync(join(devRoot, 'serial', 'by-id'), { recursive: true });
  for (const name of ['ttyUSB0', 'ttyACM0', 'ttyS0', 'ttyS1', 'null']) {
    writeFileSync(join(devRoot, name), '');
  }
  symlinkSync(
    '../../ttyUSB0',
    join(devRoot, 'serial', 'by-id', 'usb-FTDI_FT232R_USB_UART_A1B2C3-if00-port0'),
  );
  // sysfs: /sys/class/tty/ttyUSB0/device -> .../usb1/1-1/1-1:1.0/ttyUSB0, descriptors two levels up.
  const usb = join(sysRoot, 'devices', 'usb1', '1-1');
  const ttyDevice = join(usb, '1-1:1.0', 'ttyUSB0');
  mkdirSync(ttyDevice, { recursive: true });
  writeFileSync(join(usb, 'idVendor'), '0403\n');
  writeFileSync(join(usb, 'idProduct'), '6001\n');
  writeFileSync(join(usb, 'serial'), 'A1B2C3\n');
  writeFileSync(join(usb, 'manufacturer'), 'FTDI\n');
  writeFileSync(join(usb, 'product'), 'FT232R USB UART\n');
  for (const [name, type] of [
    ['ttyUSB0', undefined],
    ['ttyS0', '4'],
    ['ttyS1', '0'],
  ] as const) {
    mkdirSync(join(sysRoot, 'class', 'tty', name), { recursive: true });
    if (type) writeFileSync(join(sysRoot, 'class', 'tty', name, 'type'), `${type}\n`);
  }
  symlinkSync(ttyDevice, join(sysRoot, 'class', 'tty', 'ttyUSB0', 'device'));
  return { devRoot, sysRoot };
}

describe('tableside devices without udev', () => {
  it('scans /dev for serial ports, resolves by-id links, reads USB details from /sys and skips phantom UARTs', async () => {
    const { devRoot, sysRoot } = fakeMachine();
    const notes: string[] = [];
    const ports = await listSerialPorts({ devRoot, sysRoot, searchPath: '' }, notes);
    expect(ports.map((port) => port.path)).toEqual([
      join(devRoot, 'ttyACM0'),
      join(devRoot, 'ttyS0'),
      join(devRoot, 'ttyUSB0'),
    ]);
    const ftdi = ports.find((port) => port.path.endsWith('ttyUSB0'));
    const byId = join(devRoot, 'serial/by-id/usb-FTDI_FT232R_USB_UART_A1B2C3-if00-port0');
    expect(ftdi).toEqual({
      path: join(devRoot, 'ttyUSB0'),
      byId: [byId],
      vendorId: '0403',
      productId: '6001',
      serialNumber: 'A1B2C3',
      manufacturer: 'FTDI',
      product: 'FT232R USB UART',
      url: byId,
    });
    expect(notes.join(' ')).toMatch(/udevadm\) is not installed/);
  });

  it('prints each device with the transport to configure and the notes', async () => {
    const { devRoot, sysRoot } = fakeMachine();
    const listing = await listDevices({ devRoot, sysRoot, searchPath: '', hid: false });
    const text = formatDeviceListing(listing);
    expect(text).toMatch(/ttyUSB0 {2}FTDI FT232R USB UART \[0403:6001\] serial A1B2C3/);
    expect(text).toContain('configure: transport: ' + join(devRoot, 'serial/by-id/usb-FTDI'));
    expect(text).toMatch(/HID devices \(0\)\n {2}none found/);
    expect(text).toMatch(/note: udev/);
  });

  it('lists HID devices or says why not, without throwing', async () => {
    const listing = await listDevices({ devRoot: '/nonexistent', searchPath: '' });
    expect(Array.isArray(listing.hid)).toBe(true);
    for (const device of listing.hid)
      expect(device.url).toMatch(/^hid:\/\/[0-9a-f]{4}:[0-9a-f]{4}/);
    expect(listing.serial).toEqual([]);
  });
});
