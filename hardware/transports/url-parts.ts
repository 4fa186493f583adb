/**
 * What every transport scheme's parser shares: the error naming the URL, the
 * query string checked against the parameters the scheme knows, whole-number
 * parameters and a `VID:PID[/SERIAL]` USB address.
 */
import { HardwareError } from '../errors.ts';

export function badUrl(url: string, why: string): HardwareError {
  return new HardwareError('bad_url', `transport URL "${url}": ${why}`);
}

/** Splits `rest` at its `?`: the body and the query (without the mark). */
export function splitQuery(rest: string): [string, string] {
  const mark = rest.indexOf('?');
  return mark < 0 ? [rest, ''] : [rest.slice(0, mark), rest.slice(mark + 1)];
}

/** Splits `?a=1&b=2`, refusing parameters the scheme does not know. */
export function queryOf(url: string, query: string, allowed: string[]): Map<string, string> {
  const params = new Map<string, string>();
  if (!query) return params;
  for (const [key, value] of new URLSearchParams(query)) {
    if (!allowed.includes(key)) {
      throw badUrl(
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

export function integerParam(
  url: string,
  params: Map<string, string>,
  key: string,
  fallback: number,
): number {
  const text = params.get(key);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw badUrl(url, `${key}=${text} is not a whole number`);
  return Number(text);
}

/** A USB device as lsusb names it: hex vendor and product ids, and maybe its serial number. */
export interface UsbAddress {
  vendorId: number;
  productId: number;
  serialNumber?: string;
}

/** `VID:PID` or `VID:PID/SERIAL` (hex ids, `0x` allowed) after `scheme://`; anything else is refused. */
export function parseUsbAddress(url: string, scheme: string, body: string): UsbAddress {
  const match = /^(?:0x)?([0-9a-fA-F]{1,4}):(?:0x)?([0-9a-fA-F]{1,4})(?:\/([^/?#]+))?$/.exec(body);
  if (!match) {
    throw badUrl(
      url,
      `expected ${scheme}://VID:PID or ${scheme}://VID:PID/SERIAL with hex ids (as lsusb prints)`,
    );
  }
  const address: UsbAddress = {
    vendorId: Number.parseInt(match[1] ?? '', 16),
    productId: Number.parseInt(match[2] ?? '', 16),
  };
  if (match[3]) address.serialNumber = decodeURIComponent(match[3]);
  return address;
}

export function formatUsbAddress(address: UsbAddress): string {
  const ids = `${address.vendorId.toString(16).padStart(4, '0')}:${address.productId.toString(16).padStart(4, '0')}`;
  return `${ids}${address.serialNumber ? `/${encodeURIComponent(address.serialNumber)}` : ''}`;
}

/** `?a=1&b=2` of the parameters given, or nothing. */
export function queryText(extra: readonly string[]): string {
  return extra.length ? `?${extra.join('&')}` : '';
}
