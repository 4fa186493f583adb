import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeHidReport,
  encodeHidReports,
  type HidReportFormat,
} from '../../../hardware/transports/hid-reports.ts';

/** What the device sees: the output report without hidapi's leading report-ID byte when unnumbered. */
function asInputReport(output: Buffer, format: HidReportFormat): Buffer {
  return format.reportId === 0 ? output.subarray(1) : output;
}

describe('HID report framing', () => {
  it('puts the report id, the length and the payload in each fixed-size report', () => {
    const [report, ...rest] = encodeHidReports(Buffer.from('$SH,1,PING*ABCD\r\n'), {
      reportSize: 64,
      reportId: 0,
    });
    expect(rest).toHaveLength(0);
    expect(report?.length).toBe(65);
    expect(report?.[0]).toBe(0);
    expect(report?.[1]).toBe(17);
    expect(report?.subarray(2, 19).toString()).toBe('$SH,1,PING*ABCD\r\n');
    expect(report?.subarray(19).every((byte) => byte === 0)).toBe(true);
  });

  it('splits long writes and joins them back byte for byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 600 }),
        fc.integer({ min: 8, max: 80 }),
        fc.integer({ min: 0, max: 3 }),
        (bytes, reportSize, reportId) => {
          const format = { reportSize, reportId };
          const reports = encodeHidReports(bytes, format);
          expect(reports.length).toBe(Math.ceil(bytes.length / (reportSize - 1)));
          const joined = Buffer.concat(
            reports.map((report) => decodeHidReport(asInputReport(report, format), format)),
          );
          expect([...joined]).toEqual([...bytes]);
        },
      ),
    );
  });

  it('clips a report whose length byte claims more than it holds', () => {
    const payload = decodeHidReport(Buffer.from([200, 65, 66, 67]), { reportSize: 8, reportId: 0 });
    expect(payload.toString()).toBe('ABC');
  });
});
