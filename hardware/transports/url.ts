/**
 * Transport URLs, as written in the config and on the command line:
 *
 *   /dev/ttyUSB0                          a serial device (any absolute path: by-id link, pty, udev name)
 *   serial:/dev/ttyUSB0?baud=115200       the same, with a baud rate (default 115200)
 *   tcp://192.168.1.50:4001               a TCP socket (ser2net, a simulator); tcp://[::1]:4001 for IPv6
 *   hid://04d8:00dd                       USB-HID by vendor:product (hex, as lsusb prints them)
 *   hid://04d8:00dd/A1B2C3?report=64&id=0 ...and serial number, report size, report ID
 *   memory://shoe                         in-process wire, host end (memory://shoe?end=device: device end)
 *   pn532:/dev/ttyUSB0?baud=115200        a PN532 module in HSU mode on a USB-UART adapter, as a reader
 *   wedge://ffff:0035?format=dec&order=reversed
 *                                         a keyboard-wedge RFID reader (USB boot keyboard), as a reader:
 *                                         format=hex|dec (default hex), order=msb|reversed (default msb),
 *                                         bytes=4|7|10 (decimal only; default the smallest that fits)
 *
 * parseTransportUrl is pure; openTransport builds the (unopened) transport.
 */
import { HardwareError } from '../errors.ts';
import { pn532HsuReader } from '../readers/pn532-hsu.ts';
import { TagReaderTransport } from '../readers/tag-reader-transport.ts';
import { type WedgeOptions, WedgeReader } from '../readers/wedge.ts';
import { DEFAULT_WEDGE_FORMAT, type WedgeFormat } from '../readers/wedge-keys.ts';
import { HidTransport } from './hid.ts';
import { DEFAULT_HID_REPORT_FORMAT } from './hid-reports.ts';
import { type MemoryEnd, memoryWire } from './memory.ts';
import { DEFAULT_BAUD_RATE, SerialTransport, validateBaudRate } from './serial.ts';
import { DEFAULT_TCP_KEEPALIVE_MS, TcpTransport } from './tcp.ts';
import type { Transport } from './transport.ts';

export type TransportSpec =
  | { kind: 'serial'; path: string; baudRate: number }
  | { kind: 'tcp'; host: string; port: number; keepAliveMs: number }
  | {
      kind: 'hid';
      vendorId: number;
      productId: number;
      serialNumber?: string;
      reportSize: number;
      reportId: number;
    }
  | { kind: 'memory'; name: string; end: MemoryEnd }
  | { kind: 'pn532'; path: string; baudRate: number }
  | {
      kind: 'wedge';
      vendorId: number;
      productId: number;
      serialNumber?: string;
      format: WedgeFormat;
    };

const EXAMPLES =
  'expected /dev/ttyUSB0, serial:/dev/ttyUSB0?baud=115200, tcp://host:port, hid://VID:PID[/SERIAL], memory://name, pn532:/dev/ttyUSB0 or wedge://VID:PID';

function bad(url: string, why: string): HardwareError {
  return new HardwareError('bad_url', `transport URL "${url}": ${why}`);
}

/** Splits `?a=1&b=2`, refusing parameters the scheme does not know. */
function queryOf(url: string, query: string, allowed: string[]): Map<string, string> {
  const params = new Map<string, string>();
  if (!query) return params;
  for (const [key, value] of new URLSearchParams(query)) {
    if (!allowed.includes(key)) {
      throw bad(
        url,
        allowed.length
          ? `unknown parameter "${key}" (known: ${allowed.join(', ')})`
          : `unknown parameter "${key}" (this kind takes none)`,
      );
    }
    params.set(key, value);
  }
  return params;
}

function integerParam(url: string, params: Map<string, string>, key: string, fallback: number) {
  const text = params.get(key);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw bad(url, `${key}=${text} is not a whole number`);
  return Number(text);
}

function splitQuery(rest: string): [string, string] {
  const mark = rest.indexOf('?');
  return mark < 0 ? [rest, ''] : [rest.slice(0, mark), rest.slice(mark + 1)];
}

function parseSerial(url: string, rest: string): TransportSpec {
  const [rawPath, query] = splitQuery(rest);
  // serial:///dev/x is accepted as well as serial:/dev/x
  const path = rawPath.startsWith('//') ? rawPath.slice(2) : rawPath;
  if (!path) throw bad(url, 'no device path');
  if (!path.startsWith('/') && !/^COM\d+$/i.test(path)) {
    throw bad(url, `device path "${path}" must be absolute (like /dev/ttyUSB0)`);
  }
  const params = queryOf(url, query, ['baud']);
  const baudRate = integerParam(url, params, 'baud', DEFAULT_BAUD_RATE);
  try {
    validateBaudRate(baudRate, url);
  } catch (error) {
    throw bad(url, (error as Error).message.replace(`${url}: `, ''));
  }
  return { kind: 'serial', path, baudRate };
}

function parseTcp(url: string, rest: string): TransportSpec {
  const [authority, query] = splitQuery(rest);
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})\/?$/.exec(authority);
  if (!match) throw bad(url, 'expected tcp://host:port');
  const host = match[1] ?? match[2] ?? '';
  const port = Number(match[3]);
  if (port < 1 || port > 65_535) throw bad(url, `port ${port} is not 1..65535`);
  const params = queryOf(url, query, ['keepalive']);
  const keepAliveMs = integerParam(url, params, 'keepalive', DEFAULT_TCP_KEEPALIVE_MS);
  return { kind: 'tcp', host, port, keepAliveMs };
}

function parseHid(url: string, rest: string): TransportSpec {
  const [body, query] = splitQuery(rest);
  const match = /^(?:0x)?([0-9a-fA-F]{1,4}):(?:0x)?([0-9a-fA-F]{1,4})(?:\/([^/?#]+))?$/.exec(body);
  if (!match)
    throw bad(url, 'expected hid://VID:PID or hid://VID:PID/SERIAL with hex ids (as lsusb prints)');
  const params = queryOf(url, query, ['report', 'id']);
  const reportSize = integerParam(url, params, 'report', DEFAULT_HID_REPORT_FORMAT.reportSize);
  const reportId = integerParam(url, params, 'id', DEFAULT_HID_REPORT_FORMAT.reportId);
  if (reportSize < 8 || reportSize > 1024) throw bad(url, `report=${reportSize} is not 8..1024`);
  if (reportId > 255) throw bad(url, `id=${reportId} is not 0..255`);
  const spec: TransportSpec = {
    kind: 'hid',
    vendorId: Number.parseInt(match[1] ?? '', 16),
    productId: Number.parseInt(match[2] ?? '', 16),
    reportSize,
    reportId,
  };
  if (match[3]) spec.serialNumber = decodeURIComponent(match[3]);
  return spec;
}

function parseWedge(url: string, rest: string): TransportSpec {
  const [body, query] = splitQuery(rest);
  const match = /^(?:0x)?([0-9a-fA-F]{1,4}):(?:0x)?([0-9a-fA-F]{1,4})(?:\/([^/?#]+))?$/.exec(body);
  if (!match)
    throw bad(
      url,
      'expected wedge://VID:PID or wedge://VID:PID/SERIAL with hex ids (as lsusb prints)',
    );
  const params = queryOf(url, query, ['format', 'order', 'bytes']);
  const format = params.get('format') ?? DEFAULT_WEDGE_FORMAT.format;
  if (format !== 'hex' && format !== 'dec') throw bad(url, `format=${format}: expected hex or dec`);
  const order = params.get('order') ?? DEFAULT_WEDGE_FORMAT.order;
  if (order !== 'msb' && order !== 'reversed')
    throw bad(url, `order=${order}: expected msb or reversed`);
  const wedgeFormat: WedgeFormat = { format, order };
  const bytes = params.get('bytes');
  if (bytes !== undefined) {
    if (format !== 'dec')
      throw bad(url, 'bytes= applies to format=dec only (hex shows its length)');
    if (bytes !== '4' && bytes !== '7' && bytes !== '10')
      throw bad(url, `bytes=${bytes}: expected 4, 7 or 10`);
    wedgeFormat.bytes = Number(bytes) as 4 | 7 | 10;
  }
  const spec: TransportSpec = {
    kind: 'wedge',
    vendorId: Number.parseInt(match[1] ?? '', 16),
    productId: Number.parseInt(match[2] ?? '', 16),
    format: wedgeFormat,
  };
  if (match[3]) spec.serialNumber = decodeURIComponent(match[3]);
  return spec;
}

function parseMemory(url: string, rest: string): TransportSpec {
  const [name, query] = splitQuery(rest);
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
    throw bad(url, 'expected memory://name (letters, digits, . _ -)');
  }
  const params = queryOf(url, query, ['end']);
  const end = params.get('end') ?? 'host';
  if (end !== 'host' && end !== 'device') throw bad(url, `end=${end}: expected host or device`);
  return { kind: 'memory', name, end };
}

export function parseTransportUrl(url: string): TransportSpec {
  if (typeof url !== 'string' || !url.trim()) throw bad(String(url), `empty; ${EXAMPLES}`);
  const text = url.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text);
  if (!scheme) {
    if (text.startsWith('/') || /^COM\d+$/i.test(text)) return parseSerial(url, text);
    throw bad(url, EXAMPLES);
  }
  const name = (scheme[1] ?? '').toLowerCase();
  const rest = text.slice(scheme[0].length);
  switch (name) {
    case 'serial':
      return parseSerial(url, rest);
    case 'tcp':
      if (!rest.startsWith('//')) throw bad(url, 'expected tcp://host:port');
      return parseTcp(url, rest.slice(2));
    case 'hid':
      if (!rest.startsWith('//')) throw bad(url, 'expected hid://VID:PID');
      return parseHid(url, rest.slice(2));
    case 'memory':
      if (!rest.startsWith('//')) throw bad(url, 'expected memory://name');
      return parseMemory(url, rest.slice(2));
    case 'pn532': {
      const serial = parseSerial(url, rest);
      if (serial.kind !== 'serial') throw bad(url, 'expected pn532:/dev/ttyUSB0');
      return { kind: 'pn532', path: serial.path, baudRate: serial.baudRate };
    }
    case 'wedge':
      if (!rest.startsWith('//')) throw bad(url, 'expected wedge://VID:PID');
      return parseWedge(url, rest.slice(2));
    default:
      throw bad(url, `unknown scheme "${name}:"; ${EXAMPLES}`);
  }
}

/** The canonical URL of a spec (what `tableside devices` prints). */
export function formatTransportUrl(spec: TransportSpec): string {
  switch (spec.kind) {
    case 'serial':
      return spec.baudRate === DEFAULT_BAUD_RATE
        ? spec.path
        : `serial:${spec.path}?baud=${spec.baudRate}`;
    case 'tcp':
      return `tcp://${spec.host.includes(':') ? `[${spec.host}]` : spec.host}:${spec.port}`;
    case 'hid': {
      const ids = `${spec.vendorId.toString(16).padStart(4, '0')}:${spec.productId.toString(16).padStart(4, '0')}`;
      const serial = spec.serialNumber ? `/${encodeURIComponent(spec.serialNumber)}` : '';
      const extra: string[] = [];
      if (spec.reportSize !== DEFAULT_HID_REPORT_FORMAT.reportSize)
        extra.push(`report=${spec.reportSize}`);
      if (spec.reportId !== DEFAULT_HID_REPORT_FORMAT.reportId) extra.push(`id=${spec.reportId}`);
      return `hid://${ids}${serial}${extra.length ? `?${extra.join('&')}` : ''}`;
    }
    case 'memory':
      return `memory://${spec.name}${spec.end === 'device' ? '?end=device' : ''}`;
    case 'pn532':
      return `pn532:${spec.path}${spec.baudRate === DEFAULT_BAUD_RATE ? '' : `?baud=${spec.baudRate}`}`;
    case 'wedge': {
      const ids = `${spec.vendorId.toString(16).padStart(4, '0')}:${spec.productId.toString(16).padStart(4, '0')}`;
      const serial = spec.serialNumber ? `/${encodeURIComponent(spec.serialNumber)}` : '';
      const extra: string[] = [];
      if (spec.format.format !== DEFAULT_WEDGE_FORMAT.format)
        extra.push(`format=${spec.format.format}`);
      if (spec.format.order !== DEFAULT_WEDGE_FORMAT.order)
        extra.push(`order=${spec.format.order}`);
      if (spec.format.bytes !== undefined) extra.push(`bytes=${spec.format.bytes}`);
      return `wedge://${ids}${serial}${extra.length ? `?${extra.join('&')}` : ''}`;
    }
  }
}

/**
 * The transport for a URL, not yet opened: call `open()`, or hand it to a
 * ReconnectingLink. Native modules load only when it opens.
 */
export function openTransport(url: string | TransportSpec): Transport {
  const spec = typeof url === 'string' ? parseTransportUrl(url) : url;
  const text = typeof url === 'string' ? url : formatTransportUrl(spec);
  switch (spec.kind) {
    case 'serial':
      return new SerialTransport({ path: spec.path, baudRate: spec.baudRate }, text);
    case 'tcp':
      return new TcpTransport({ host: spec.host, port: spec.port, keepAliveMs: spec.keepAliveMs });
    case 'hid': {
      const options = {
        vendorId: spec.vendorId,
        productId: spec.productId,
        reportSize: spec.reportSize,
        reportId: spec.reportId,
        ...(spec.serialNumber ? { serialNumber: spec.serialNumber } : {}),
      };
      return new HidTransport(options, text);
    }
    case 'memory': {
      const wire = memoryWire(spec.name);
      return spec.end === 'host' ? wire.host : wire.device;
    }
    case 'pn532': {
      const { path, baudRate } = spec;
      return new TagReaderTransport('pn532', text, () => pn532HsuReader({ path, baudRate }));
    }
    case 'wedge': {
      const options: WedgeOptions = {
        vendorId: spec.vendorId,
        productId: spec.productId,
        format: spec.format,
        ...(spec.serialNumber ? { serialNumber: spec.serialNumber } : {}),
      };
      return new TagReaderTransport('wedge', text, () => new WedgeReader(options));
    }
  }
}
