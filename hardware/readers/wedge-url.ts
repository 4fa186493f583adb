/**
 * `wedge://VID:PID[/SERIAL]?format=dec&order=reversed`: a keyboard-wedge RFID
 * reader (USB boot keyboard), as a reader: format=hex|dec (default hex),
 * order=msb|reversed (default msb), bytes=4|7|10 (decimal only; default the
 * smallest that fits).
 */
import type { TransportScheme } from '../transports/scheme.ts';
import {
  badUrl,
  formatUsbAddress,
  parseUsbAddress,
  queryOf,
  queryText,
  splitQuery,
  type UsbAddress,
} from '../transports/url-parts.ts';
import { TagReaderTransport } from './tag-reader-transport.ts';
import { type WedgeOptions, WedgeReader } from './wedge.ts';
import { DEFAULT_WEDGE_FORMAT, type WedgeFormat } from './wedge-keys.ts';

export interface WedgeSpec extends UsbAddress {
  kind: 'wedge';
  format: WedgeFormat;
}

function wedgeFormatOf(url: string, params: Map<string, string>): WedgeFormat {
  const format = params.get('format') ?? DEFAULT_WEDGE_FORMAT.format;
  if (format !== 'hex' && format !== 'dec')
    throw badUrl(url, `format=${format}: expected hex or dec`);
  const order = params.get('order') ?? DEFAULT_WEDGE_FORMAT.order;
  if (order !== 'msb' && order !== 'reversed') {
    throw badUrl(url, `order=${order}: expected msb or reversed`);
  }
  const wedgeFormat: WedgeFormat = { format, order };
  const bytes = params.get('bytes');
  if (bytes !== undefined) {
    if (format !== 'dec')
      throw badUrl(url, 'bytes= applies to format=dec only (hex shows its length)');
    if (bytes !== '4' && bytes !== '7' && bytes !== '10') {
      throw badUrl(url, `bytes=${bytes}: expected 4, 7 or 10`);
    }
    wedgeFormat.bytes = Number(bytes) as 4 | 7 | 10;
  }
  return wedgeFormat;
}

export const wedgeScheme: TransportScheme<WedgeSpec> = {
  scheme: 'wedge',
  authority: true,
  example: 'wedge://VID:PID',
  parse(url, rest) {
    const [body, query] = splitQuery(rest);
    const address = parseUsbAddress(url, 'wedge', body);
    const format = wedgeFormatOf(url, queryOf(url, query, ['format', 'order', 'bytes']));
    return { kind: 'wedge', ...address, format };
  },
  format(spec) {
    const extra: string[] = [];
    if (spec.format.format !== DEFAULT_WEDGE_FORMAT.format)
      extra.push(`format=${spec.format.format}`);
    if (spec.format.order !== DEFAULT_WEDGE_FORMAT.order) extra.push(`order=${spec.format.order}`);
    if (spec.format.bytes !== undefined) extra.push(`bytes=${spec.format.bytes}`);
    return `wedge://${formatUsbAddress(spec)}${queryText(extra)}`;
  },
  open(spec, url) {
    const options: WedgeOptions = {
      vendorId: spec.vendorId,
      productId: spec.productId,
      format: spec.format,
      ...(spec.serialNumber ? { serialNumber: spec.serialNumber } : {}),
    };
    return new TagReaderTransport('wedge', url, () => new WedgeReader(options));
  },
};
