/**
 * Byte stream ⇄ HID reports. A HID device moves fixed-size reports, not a
 * byte stream; our devices carry the ASCII protocol in them like this
 * (the same scheme as common USB-HID UART bridges):
 *
 *   output report (host → device), `reportSize` bytes after the report ID:
 *     [reportId] [n] [n payload bytes] [zero padding to reportSize]
 *   input report (device → host):
 *     [reportId, only if reportId ≠ 0] [n] [n payload bytes] [padding, ignored]
 *
 * n is 0..reportSize−1. `reportId` 0 means the device uses unnumbered
 * reports; hidapi still wants a leading 0 byte on writes, and reads carry no
 * ID byte. A report with n larger than it can hold is clipped to what it
 * holds (a firmware bug should not wedge the link; the framer's CRC catches
 * the damage).
 *
 * Pure: no I/O.
 */
import { HardwareError } from '../errors.ts';

export interface HidReportFormat {
  /** Bytes per report, without the report ID: 8..1024, usually 64. */
  reportSize: number;
  /** 0 for unnumbered reports, else 1..255. */
  reportId: number;
}

export const DEFAULT_HID_REPORT_FORMAT: HidReportFormat = { reportSize: 64, reportId: 0 };

export function validateHidReportFormat(format: HidReportFormat, where: string): HidReportFormat {
  const { reportSize, reportId } = format;
  if (!Number.isInteger(reportSize) || reportSize < 8 || reportSize > 1024) {
    throw new HardwareError('bad_options', `${where}: report size ${reportSize} is not 8..1024`);
  }
  if (!Number.isInteger(reportId) || reportId < 0 || reportId > 255) {
    throw new HardwareError('bad_options', `${where}: report id ${reportId} is not 0..255`);
  }
  return format;
}

/** Split bytes into output reports, each with its leading report-ID byte. */
export function encodeHidReports(bytes: Uint8Array, format: HidReportFormat): Buffer[] {
  const room = format.reportSize - 1;
  const reports: Buffer[] = [];
  for (let start = 0; start < bytes.length; start += room) {
    const piece = bytes.subarray(start, start + room);
    const report = Buffer.alloc(1 + format.reportSize);
    report[0] = format.reportId;
    report[1] = piece.length;
    report.set(piece, 2);
    reports.push(report);
  }
  return reports;
}

/** The payload of one input report. */
export function decodeHidReport(report: Uint8Array, format: HidReportFormat): Buffer {
  const offset = format.reportId === 0 ? 0 : 1;
  if (report.length <= offset) return Buffer.alloc(0);
  const declared = report[offset] ?? 0;
  const available = report.length - offset - 1;
  const length = Math.min(declared, available, format.reportSize - 1);
  return Buffer.from(report.subarray(offset + 1, offset + 1 + length));
}
