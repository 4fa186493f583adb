import { describe, expect, it } from 'vitest';
import { errorDetail } from '../../../../hardware/readers/reader-device.ts';
import { helloName, uidHex } from '../../../../hardware/readers/tag-source.ts';

describe('what a reader with no firmware of ours says in its frames', () => {
  it('HELLO names keep to 1-32 letters, digits, . _ - and start and end with a letter or digit', () => {
    const pattern = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,30}[A-Za-z0-9])?$/;
    for (const text of [
      'ttyUSB0',
      '/tmp/tableside-pn532-pty-Lto3a7/host',
      'serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0',
      '___',
      'ä',
    ]) {
      expect(helloName(text)).toMatch(pattern);
    }
    expect(helloName('ttyUSB0')).toBe('ttyUSB0');
    expect(helloName('serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0')).toBe(
      'FT232R_USB_UART_A50285BI-if00-port0'.slice(-32).replace(/^[^A-Za-z0-9]+/, ''),
    );
    expect(helloName('___')).toBe('unknown');
  });

  it('UIDs are upper-case hex, first byte first', () => {
    expect(uidHex(Uint8Array.of(0x04, 0xa1, 0x0b))).toBe('04A10B');
  });

  it('ERROR details are 1-120 printable characters without $ , *', () => {
    expect(errorDetail('PN532 answered NACK, check $wiring*')).toBe(
      'PN532 answered NACK; check ;wiring;',
    );
    expect(errorDetail('x'.repeat(200))).toHaveLength(120);
    expect(errorDetail('\u0001')).toBe('?');
    expect(errorDetail('   ')).toBe('fault');
  });
});
