import { describe, expect, it } from 'vitest';
import {
  commodityReaderOpenAdvice,
  commodityReaderOutcome,
} from '../../../firmware-host/diag/commodity-reader-check.ts';

describe('diag rows for readers with no firmware of ours', () => {
  it('a PN532 shows its firmware version; anything else from it is a warning', () => {
    expect(
      commodityReaderOutcome('device reader', 'pn532:/dev/ttyUSB0', {
        model: 'PN532-HSU',
        firmware: 'PN532-1.6',
      }),
    ).toMatchObject({
      name: 'device reader: PN532',
      status: 'pass',
      detail: expect.stringMatching(/^PN532 firmware 1\.6 /),
      data: { ver: 1, rev: 6 },
    });
    expect(
      commodityReaderOutcome('device reader', 'pn532:/dev/ttyUSB0', { model: 'X', firmware: 'v2' }),
    ).toMatchObject({ status: 'warn', detail: 'unexpected firmware v2' });
  });

  it('a wedge shows how it is set to type UIDs', () => {
    expect(
      commodityReaderOutcome(
        'device reader',
        'wedge://ffff:0035?format=dec&order=reversed&bytes=4',
        {
          model: 'WEDGE-ffff-0035',
          firmware: 'wedge-dec-reversed-4',
        },
      ),
    ).toMatchObject({
      name: 'device reader: keyboard wedge',
      status: 'pass',
      detail:
        'WEDGE-ffff-0035 open; reads decimal UIDs, last byte first, 4 bytes, each ended by Enter',
    });
  });

  it('other devices get no extra row and the usual open advice', () => {
    expect(
      commodityReaderOutcome('device shoe', '/dev/ttyUSB0', { model: 'S', firmware: '1' }),
    ).toBeUndefined();
    expect(commodityReaderOpenAdvice('/dev/ttyUSB0', 'ENOENT')).toBeUndefined();
  });

  it('advice for a PN532 that cannot be opened names what to set', () => {
    expect(
      commodityReaderOpenAdvice(
        'pn532:/dev/ttyUSB0',
        'PN532 on /dev/ttyUSB0 (HSU) does not answer: …',
      ),
    ).toMatch(/mode switches to HSU/);
    expect(commodityReaderOpenAdvice('pn532:/dev/ttyUSB0', 'answered NACK')).toMatch(/baud rate/);
    expect(commodityReaderOpenAdvice('pn532:/dev/ttyUSB0', 'ENOENT: no such file')).toBeUndefined();
    expect(commodityReaderOpenAdvice('wedge://ffff:0035', 'not connected')).toMatch(/lsusb/);
  });
});
