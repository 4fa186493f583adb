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
 *                                         a keyboard-wedge RFID reader (USB boot keyboard), as a reader
 *
 * Each scheme is a `TransportScheme` declared beside its transport
 * (`*-url.ts`) and registered in a `TransportSchemes` registry; the shipped
 * one holds the schemes above, and a vendor's adapter registers its own in
 * a registry built with `withScheme`. Parsing is pure; `open` builds the
 * (unopened) transport.
 */
import { type Pn532Spec, pn532Scheme } from '../readers/pn532-url.ts';
import { type WedgeSpec, wedgeScheme } from '../readers/wedge-url.ts';
import { type HidSpec, hidScheme } from './hid-url.ts';
import { type MemorySpec, memoryScheme } from './memory-url.ts';
import type { TransportScheme } from './scheme.ts';
import { isSerialPath, type SerialSpec, serialScheme } from './serial-url.ts';
import { type TcpSpec, tcpScheme } from './tcp-url.ts';
import type { Transport } from './transport.ts';
import { badUrl } from './url-parts.ts';

/** A shipped transport's parsed URL. */
export type TransportSpec = SerialSpec | TcpSpec | HidSpec | MemorySpec | Pn532Spec | WedgeSpec;

/** The schemes a table knows, by name: one registers each, none is a case of a switch. */
export class TransportSchemes {
  private readonly byName = new Map<string, TransportScheme>();

  /**
   * A registry of these schemes and `scheme` (this one is left as it is); a
   * name already taken is refused (two parsers of one URL).
   */
  withScheme<Spec extends { kind: string }>(scheme: TransportScheme<Spec>): TransportSchemes {
    const name = scheme.scheme.toLowerCase();
    if (this.byName.has(name)) {
      throw badUrl(`${name}:`, `the scheme "${name}:" is registered twice`);
    }
    const copy = new TransportSchemes();
    for (const [known, registered] of this.byName) copy.byName.set(known, registered);
    copy.byName.set(name, scheme as unknown as TransportScheme);
    return copy;
  }

  get names(): string[] {
    return [...this.byName.keys()];
  }

  private examples(): string {
    const shapes = ['/dev/ttyUSB0', ...[...this.byName.values()].map((scheme) => scheme.example)];
    return `expected ${shapes.slice(0, -1).join(', ')} or ${shapes.at(-1)}`;
  }

  parse(url: string): { kind: string } {
    if (typeof url !== 'string' || !url.trim()) {
      throw badUrl(String(url), `empty; ${this.examples()}`);
    }
    const text = url.trim();
    const matched = /^([a-z][a-z0-9+.-]*):/i.exec(text);
    const serial = this.byName.get('serial');
    if (!matched) {
      // A bare device path is a serial line.
      if (serial !== undefined && isSerialPath(text)) return serial.parse(url, text);
      throw badUrl(url, this.examples());
    }
    const name = (matched[1] ?? '').toLowerCase();
    const scheme = this.byName.get(name);
    if (scheme === undefined) {
      throw badUrl(
        url,
        `unknown scheme "${name}:" (known: ${this.names.map((known) => `${known}:`).join(', ')}); ${this.examples()}`,
      );
    }
    const rest = text.slice(matched[0].length);
    if (!scheme.authority) return scheme.parse(url, rest);
    if (!rest.startsWith('//')) throw badUrl(url, `expected ${scheme.example}`);
    return scheme.parse(url, rest.slice(2));
  }

  format(spec: { kind: string }): string {
    return this.schemeOf(spec).format(spec);
  }

  open(url: string | { kind: string }): Transport {
    const spec = typeof url === 'string' ? this.parse(url) : url;
    const text = typeof url === 'string' ? url : this.format(spec);
    return this.schemeOf(spec).open(spec, text);
  }

  private schemeOf(spec: { kind: string }): TransportScheme {
    const scheme = this.byName.get(spec.kind);
    if (scheme === undefined) {
      throw badUrl(
        spec.kind,
        `no transport scheme "${spec.kind}" is registered (known: ${this.names.join(', ')})`,
      );
    }
    return scheme;
  }
}

/** The schemes tableside ships. */
export const TRANSPORT_SCHEMES = new TransportSchemes()
  .withScheme(serialScheme)
  .withScheme(tcpScheme)
  .withScheme(hidScheme)
  .withScheme(memoryScheme)
  .withScheme(pn532Scheme)
  .withScheme(wedgeScheme);

export function parseTransportUrl(url: string): TransportSpec {
  return TRANSPORT_SCHEMES.parse(url) as TransportSpec;
}

/** The canonical URL of a spec (what `tableside devices` prints). */
export function formatTransportUrl(spec: TransportSpec): string {
  return TRANSPORT_SCHEMES.format(spec);
}

/**
 * The transport for a URL, not yet opened: call `open()`, or hand it to a
 * ReconnectingLink. Native modules load only when it opens.
 */
export function openTransport(url: string | TransportSpec): Transport {
  return TRANSPORT_SCHEMES.open(url);
}
