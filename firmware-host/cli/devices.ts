/**
 * `tableside devices [--json]`: what serial ports and HID devices are plugged
 * in, and the transport URL to configure for each. Works (with a note) where
 * udev or the HID libraries are missing.
 */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('devices')
    .description('list serial ports and HID devices, with the transport URL to configure for each')
    .option('--json', 'print one JSON object: { serial, hid, notes }')
    .option('--no-hid', 'skip the USB-HID listing (no node-hid load)')
    .addHelpText(
      'after',
      `
Examples:
  tableside devices
  tableside devices --json | jq '.serial[].url'

Where udev is not installed (containers, minimal images), ports are found by
scanning /dev/serial/by-id and /dev/tty{USB,ACM,AMA,S}*; a note says so.`,
    )
    .action(async (options: { json?: boolean; hid?: boolean }) => {
      const { listDevices, formatDeviceListing } = await import('../../hardware/devices.ts');
      const listing = await listDevices({ hid: options.hid !== false });
      process.stdout.write(
        options.json
          ? `${JSON.stringify(listing, null, 2)}\n`
          : `${formatDeviceListing(listing)}\n`,
      );
    });
}
