/** `serial:/dev/ttyUSB0?baud=115200`, or a bare absolute path (`/dev/ttyUSB0`, `COM3`). */
import type { TransportScheme } from './scheme.ts';
import { DEFAULT_BAUD_RATE, SerialTransport, validateBaudRate } from './serial.ts';
import { badUrl, integerParam, queryOf, splitQuery } from './url-parts.ts';

export interface SerialSpec {
  kind: 'serial';
  path: string;
  baudRate: number;
}

/** A device path a serial URL may name: absolute, or a Windows COM port. */
export function isSerialPath(text: string): boolean {
  return text.startsWith('/') || /^COM\d+$/i.test(text);
}

/** A serial line's path and baud rate, for `serial:` and the schemes built on a serial line (`pn532:`). */
export function parseSerialLine(url: string, rest: string): { path: string; baudRate: number } {
  const [rawPath, query] = splitQuery(rest);
  // serial:///dev/x is accepted as well as serial:/dev/x
  const path = rawPath.startsWith('//') ? rawPath.slice(2) : rawPath;
  if (!path) throw badUrl(url, 'no device path');
  if (!isSerialPath(path)) {
    throw badUrl(url, `device path "${path}" must be absolute (like /dev/ttyUSB0)`);
  }
  const params = queryOf(url, query, ['baud']);
  const baudRate = integerParam(url, params, 'baud', DEFAULT_BAUD_RATE);
  try {
    validateBaudRate(baudRate, url);
  } catch (error) {
    throw badUrl(url, (error as Error).message.replace(`${url}: `, ''));
  }
  return { path, baudRate };
}

export const serialScheme: TransportScheme<SerialSpec> = {
  scheme: 'serial',
  authority: false,
  example: 'serial:/dev/ttyUSB0?baud=115200',
  parse: (url, rest) => ({ kind: 'serial', ...parseSerialLine(url, rest) }),
  format: (spec) =>
    spec.baudRate === DEFAULT_BAUD_RATE ? spec.path : `serial:${spec.path}?baud=${spec.baudRate}`,
  open: (spec, url) => new SerialTransport({ path: spec.path, baudRate: spec.baudRate }, url),
};
