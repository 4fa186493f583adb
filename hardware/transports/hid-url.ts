/** `hid://VID:PID[/SERIAL]?report=64&id=0`: a USB-HID device speaking the protocol in reports. */
import { HidTransport } from './hid.ts';
import { DEFAULT_HID_REPORT_FORMAT } from './hid-reports.ts';
import type { TransportScheme } from './scheme.ts';
import {
  badUrl,
  formatUsbAddress,
  integerParam,
  parseUsbAddress,
  queryOf,
  queryText,
  splitQuery,
  type UsbAddress,
} from './url-parts.ts';

export interface HidSpec extends UsbAddress {
  kind: 'hid';
  reportSize: number;
  reportId: number;
}

export const hidScheme: TransportScheme<HidSpec> = {
  scheme: 'hid',
  authority: true,
  example: 'hid://VID:PID[/SERIAL]',
  parse(url, rest) {
    const [body, query] = splitQuery(rest);
    const address = parseUsbAddress(url, 'hid', body);
    const params = queryOf(url, query, ['report', 'id']);
    const reportSize = integerParam(url, params, 'report', DEFAULT_HID_REPORT_FORMAT.reportSize);
    const reportId = integerParam(url, params, 'id', DEFAULT_HID_REPORT_FORMAT.reportId);
    if (reportSize < 8 || reportSize > 1024)
      throw badUrl(url, `report=${reportSize} is not 8..1024`);
    if (reportId > 255) throw badUrl(url, `id=${reportId} is not 0..255`);
    const spec: HidSpec = {
      kind: 'hid',
      vendorId: address.vendorId,
      productId: address.productId,
      reportSize,
      reportId,
    };
    if (address.serialNumber) spec.serialNumber = address.serialNumber;
    return spec;
  },
  format(spec) {
    const extra: string[] = [];
    if (spec.reportSize !== DEFAULT_HID_REPORT_FORMAT.reportSize)
      extra.push(`report=${spec.reportSize}`);
    if (spec.reportId !== DEFAULT_HID_REPORT_FORMAT.reportId) extra.push(`id=${spec.reportId}`);
    return `hid://${formatUsbAddress(spec)}${queryText(extra)}`;
  },
  open(spec, url) {
    const options = {
      vendorId: spec.vendorId,
      productId: spec.productId,
      reportSize: spec.reportSize,
      reportId: spec.reportId,
      ...(spec.serialNumber ? { serialNumber: spec.serialNumber } : {}),
    };
    return new HidTransport(options, url);
  },
};
