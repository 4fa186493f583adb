/**
 * diag rows for the readers with no firmware of ours (`pn532:`, `wedge://`):
 * what the PN532 said of itself, how the wedge is set to type UIDs, and
 * what to do when either cannot be opened.
 */
import type { CheckOutcome } from './report.ts';

/** An extra row after a commodity reader's HELLO, or undefined for other devices. */
export function commodityReaderOutcome(
  prefix: string,
  url: string,
  identity: { model: string; firmware: string },
): CheckOutcome | undefined {
  if (url.startsWith('pn532:')) {
    const version = /^PN532-(\d+)\.(\d+)$/.exec(identity.firmware);
    if (!version) {
      return {
        name: `${prefix}: PN532`,
        status: 'warn',
        detail: `unexpected firmware ${identity.firmware}`,
        advice: 'the module answered, but not as a PN532 does: check that it is an NXP PN532',
      };
    }
    return {
      name: `${prefix}: PN532`,
      status: 'pass',
      detail: `PN532 firmware ${version[1]}.${version[2]} (GetFirmwareVersion IC 0x32), SAM in normal mode, polling for ISO 14443A tags`,
      data: { ver: Number(version[1]), rev: Number(version[2]) },
    };
  }
  if (url.startsWith('wedge:')) {
    const setting = /^wedge-(hex|dec)-(msb|reversed)(?:-(\d+))?$/.exec(identity.firmware);
    return {
      name: `${prefix}: keyboard wedge`,
      status: 'pass',
      detail: setting
        ? `${identity.model} open; reads ${setting[1] === 'hex' ? 'hex' : 'decimal'} UIDs, ${setting[2] === 'msb' ? 'first byte first' : 'last byte first'}${setting[3] ? `, ${setting[3]} bytes` : ''}, each ended by Enter`
        : `${identity.model} open`,
      advice:
        'present an enrolled card: it must come out as its card (a foreign_card alarm means the format= or order= setting does not match the reader)',
    };
  }
  return undefined;
}

/** Advice when a commodity reader cannot be opened, or undefined for other devices. */
export function commodityReaderOpenAdvice(url: string, reason: string): string | undefined {
  if (url.startsWith('pn532:')) {
    if (/does not answer|never answered/i.test(reason)) {
      return 'the PN532 is silent: set its mode switches to HSU (UART), cross TX and RX to the adapter, give it a steady supply, and check ?baud= (115200 unless changed)';
    }
    if (/NACK|damaged|checksum/i.test(reason)) {
      return 'the line to the PN532 garbles frames: check the baud rate (?baud=), the ground wire and the cable length';
    }
    return undefined;
  }
  if (url.startsWith('wedge:')) {
    return 'check `lsusb` for the reader, that it is in USB keyboard (HID) mode, and the udev rule (hardware/deploy/99-tableside.rules) so the daemon may open it';
  }
  return undefined;
}
