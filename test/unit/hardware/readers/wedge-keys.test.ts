import { describe, expect, it } from 'vitest';
import {
  BootKeyboardDecoder,
  uidFromLine,
  type WedgeFormat,
} from '../../../../hardware/readers/wedge-keys.ts';
import { formatTransportUrl, parseTransportUrl } from '../../../../hardware/transports/url.ts';
import {
  DECIMAL_MSB_TOP_ROW,
  DECIMAL_REVERSED_KEYPAD,
  HEX_LOWER_ROLLOVER_7_BYTES,
  HEX_UPPER_WITH_SHIFT,
  NOT_A_UID,
  type RecordedReader,
  reportBytes,
} from '../../../fixtures/wedge/boot-keyboard-reports.ts';

function formatOf(recorded: RecordedReader): WedgeFormat {
  const spec = parseTransportUrl(`wedge://ffff:0035?${recorded.query}`);
  if (spec.kind !== 'wedge') throw new Error('not a wedge URL');
  return spec.format;
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

describe('keyboard-wedge boot reports, from recorded byte sequences', () => {
  it.each([
    ['upper-case hex with Shift', HEX_UPPER_WITH_SHIFT],
    ['fast lower-case hex with rollover and ErrorRollOver', HEX_LOWER_ROLLOVER_7_BYTES],
    ['reversed decimal on the keypad, with report IDs', DECIMAL_REVERSED_KEYPAD],
    ['decimal, top-row digits', DECIMAL_MSB_TOP_ROW],
  ])('%s types one line that is the UID', (_name, recorded) => {
    const decoder = new BootKeyboardDecoder();
    const events = recorded.reports.flatMap((report) => decoder.push(reportBytes(report)));
    expect(events).toEqual([{ kind: 'line', text: recorded.typed.replace('⏎', '') }]);
    const uid = uidFromLine(recorded.typed.replace('⏎', ''), formatOf(recorded));
    expect(typeof uid === 'string' ? uid : hex(uid)).toBe(recorded.uid);
  });

  it('a held key is typed once; released and pressed again, twice', () => {
    const decoder = new BootKeyboardDecoder();
    const typed = [
      '00 00 1e 00 00 00 00 00',
      '00 00 1e 00 00 00 00 00',
      '00 00 1e 1f 00 00 00 00',
      '00 00 00 00 00 00 00 00',
      '00 00 1e 00 00 00 00 00',
      '00 00 28 00 00 00 00 00',
    ].flatMap((report) => decoder.push(reportBytes(report)));
    expect(typed).toEqual([{ kind: 'line', text: '121' }]);
  });

  it('Backspace removes the last character', () => {
    const decoder = new BootKeyboardDecoder();
    const typed = [
      '00 00 1e 00 00 00 00 00',
      '00 00 2a 00 00 00 00 00',
      '00 00 1f 00 00 00 00 00',
      '00 00 28 00 00 00 00 00',
    ].flatMap((report) => decoder.push(reportBytes(report)));
    expect(typed).toEqual([{ kind: 'line', text: '2' }]);
  });

  it('a line with a key no UID contains is reported, and the next line is read', () => {
    const decoder = new BootKeyboardDecoder();
    const bad = ['00 00 2c 00 00 00 00 00', '00 00 28 00 00 00 00 00'].flatMap((r) =>
      decoder.push(reportBytes(r)),
    );
    expect(bad).toEqual([{ kind: 'bad', why: 'key 0x2c cannot be part of a UID' }]);
    const shifted = ['02 00 1e 00 00 00 00 00', '00 00 28 00 00 00 00 00'].flatMap((r) =>
      decoder.push(reportBytes(r)),
    );
    expect(shifted[0]).toMatchObject({
      kind: 'bad',
      why: 'key 0x1e with Shift cannot be part of a UID',
    });
    const good = HEX_UPPER_WITH_SHIFT.reports.flatMap((r) => decoder.push(reportBytes(r)));
    expect(good).toEqual([{ kind: 'line', text: 'DEADBEEF' }]);
  });

  it('a report of the wrong size is named, not guessed', () => {
    expect(new BootKeyboardDecoder().push(Uint8Array.of(0, 0, 4))).toEqual([
      { kind: 'bad', why: 'a 3-byte input report is not a boot keyboard report (8 bytes)' },
    ]);
  });

  it('a runaway line without Enter is refused at Enter', () => {
    const decoder = new BootKeyboardDecoder();
    const events: unknown[] = [];
    for (let i = 0; i < 50; i++) {
      events.push(...decoder.push(reportBytes('00 00 1e 00 00 00 00 00')));
      events.push(...decoder.push(reportBytes('00 00 00 00 00 00 00 00')));
    }
    events.push(...decoder.push(reportBytes('00 00 28 00 00 00 00 00')));
    expect(events).toEqual([{ kind: 'bad', why: 'more than 40 characters without Enter' }]);
  });

  it('lines that are no UID say why', () => {
    const hexMsb: WedgeFormat = { format: 'hex', order: 'msb' };
    expect(uidFromLine('hello', hexMsb)).toBe('"hello" is not hex digits');
    expect(uidFromLine('DEADBE', hexMsb)).toMatch(/6 hex digits; a UID has 8, 14 or 20/);
    expect(uidFromLine('12a', { format: 'dec', order: 'msb' })).toBe(
      '"12a" is not a decimal number',
    );
    expect(uidFromLine('4294967296', { format: 'dec', order: 'msb', bytes: 4 })).toMatch(
      /does not fit a UID of 4 bytes/,
    );
    expect(hex(uidFromLine('4294967296', { format: 'dec', order: 'msb' }) as Uint8Array)).toBe(
      '00000100000000',
    );
    expect(hex(uidFromLine('1', { format: 'dec', order: 'msb', bytes: 7 }) as Uint8Array)).toBe(
      '00000000000001',
    );
  });

  it('decodes the hand-written fixture with a decoder fed report by report', () => {
    const decoder = new BootKeyboardDecoder();
    const events = NOT_A_UID.reports.flatMap((report) => decoder.push(reportBytes(report)));
    expect(events).toEqual([{ kind: 'line', text: 'hello' }]);
  });
});

describe('wedge:// URLs', () => {
  it('parse with their defaults and refuse what they do not know', () => {
    expect(parseTransportUrl('wedge://ffff:0035')).toEqual({
      kind: 'wedge',
      vendorId: 0xffff,
      productId: 0x35,
      format: { format: 'hex', order: 'msb' },
    });
    expect(parseTransportUrl('wedge://08ff:0009/AB12?format=dec&order=reversed&bytes=7')).toEqual({
      kind: 'wedge',
      vendorId: 0x08ff,
      productId: 9,
      serialNumber: 'AB12',
      format: { format: 'dec', order: 'reversed', bytes: 7 },
    });
    expect(() => parseTransportUrl('wedge://ffff:0035?format=oct')).toThrow(
      /format=oct: expected hex or dec/,
    );
    expect(() => parseTransportUrl('wedge://ffff:0035?order=lsb')).toThrow(
      /order=lsb: expected msb or reversed/,
    );
    expect(() => parseTransportUrl('wedge://ffff:0035?bytes=7')).toThrow(/format=dec only/);
    expect(() => parseTransportUrl('wedge://keyboard')).toThrow(/expected wedge:\/\/VID:PID/);
    expect(() => parseTransportUrl('wedge://ffff:0035?baud=9600')).toThrow(
      /unknown parameter "baud"/,
    );
  });

  it('print back as they were written, defaults left out', () => {
    for (const url of [
      'wedge://ffff:0035',
      'wedge://08ff:0009/AB12?format=dec&order=reversed&bytes=7',
      'pn532:/dev/ttyUSB0',
      'pn532:/dev/ttyUSB1?baud=9600',
    ]) {
      expect(formatTransportUrl(parseTransportUrl(url))).toBe(url);
    }
    expect(formatTransportUrl(parseTransportUrl('wedge://FFFF:35?format=hex&order=msb'))).toBe(
      'wedge://ffff:0035',
    );
  });

  it('pn532: URLs take a device path and a baud rate', () => {
    expect(parseTransportUrl('pn532:/dev/ttyUSB0')).toEqual({
      kind: 'pn532',
      path: '/dev/ttyUSB0',
      baudRate: 115_200,
    });
    expect(parseTransportUrl('pn532:/dev/ttyUSB1?baud=9600')).toEqual({
      kind: 'pn532',
      path: '/dev/ttyUSB1',
      baudRate: 9600,
    });
    expect(() => parseTransportUrl('pn532:ttyUSB0')).toThrow(/must be absolute/);
    expect(() => parseTransportUrl('pn532:/dev/ttyUSB0?baud=fast')).toThrow(
      /baud=fast is not a whole number/,
    );
    expect(() => parseTransportUrl('pn532:/dev/ttyUSB0?rate=1')).toThrow(
      /unknown parameter "rate"/,
    );
  });
});
