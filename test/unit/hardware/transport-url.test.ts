import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHardwareError } from '../../../hardware/errors.ts';
import {
  formatTransportUrl,
  openTransport,
  parseTransportUrl,
  TRANSPORT_SCHEMES,
  type TransportSpec,
} from '../../../hardware/transports/url.ts';
import { badUrl } from '../../../hardware/transports/url-parts.ts';

describe('transport URLs', () => {
  it.each<[string, TransportSpec]>([
    ['/dev/ttyUSB0', { kind: 'serial', path: '/dev/ttyUSB0', baudRate: 115200 }],
    [
      '/dev/serial/by-id/usb-FTDI_FT232R_A1B2C3-if00-port0',
      {
        kind: 'serial',
        path: '/dev/serial/by-id/usb-FTDI_FT232R_A1B2C3-if00-port0',
        baudRate: 115200,
      },
    ],
    ['serial:/dev/ttyACM0?baud=9600', { kind: 'serial', path: '/dev/ttyACM0', baudRate: 9600 }],
    ['serial:///dev/pts/4', { kind: 'serial', path: '/dev/pts/4', baudRate: 115200 }],
    [
      'tcp://192.168.1.50:4001',
      { kind: 'tcp', host: '192.168.1.50', port: 4001, keepAliveMs: 5000 },
    ],
    ['tcp://[::1]:7000', { kind: 'tcp', host: '::1', port: 7000, keepAliveMs: 5000 }],
    [
      'hid://04d8:00DD',
      { kind: 'hid', vendorId: 0x04d8, productId: 0x00dd, reportSize: 64, reportId: 0 },
    ],
    [
      'hid://0x10c4:0xea80/SN%2042?report=32&id=2',
      {
        kind: 'hid',
        vendorId: 0x10c4,
        productId: 0xea80,
        serialNumber: 'SN 42',
        reportSize: 32,
        reportId: 2,
      },
    ],
    ['memory://shoe', { kind: 'memory', name: 'shoe', end: 'host' }],
    ['memory://shoe?end=device', { kind: 'memory', name: 'shoe', end: 'device' }],
  ])('parses %s', (url, spec) => {
    expect(parseTransportUrl(url)).toEqual(spec);
  });

  it.each([
    ['', /empty/],
    ['ttyUSB0', /expected \/dev\/ttyUSB0/],
    ['serial:dev/ttyUSB0', /must be absolute/],
    ['serial:/dev/ttyUSB0?baud=fast', /baud=fast is not a whole number/],
    ['serial:/dev/ttyUSB0?baud=7', /baud rate 7/],
    ['serial:/dev/ttyUSB0?parity=even', /unknown parameter "parity" \(known: baud\)/],
    ['tcp://localhost', /expected tcp:\/\/host:port/],
    ['tcp://localhost:70000', /port 70000 is not 1..65535/],
    ['hid://04d8', /expected hid:\/\/VID:PID/],
    ['hid://xyz:00dd', /hex ids/],
    ['hid://04d8:00dd?report=4', /report=4 is not 8..1024/],
    ['memory://', /expected memory:\/\/name/],
    ['memory://a?end=middle', /end=middle/],
    ['http://example.com', /unknown scheme "http:"/],
  ])('refuses %j with a clear reason', (url, reason) => {
    let caught: unknown;
    try {
      parseTransportUrl(url);
    } catch (error) {
      caught = error;
    }
    expect(isHardwareError(caught) && caught.code).toBe('bad_url');
    expect((caught as Error).message).toMatch(reason);
  });

  it('formats every spec back to a URL that parses to the same spec', () => {
    const spec = fc.oneof(
      fc.record({
        kind: fc.constant('serial' as const),
        path: fc.stringMatching(/^\/dev\/[a-zA-Z0-9_-]{1,12}$/),
        baudRate: fc.constantFrom(9600, 57600, 115200, 921600),
      }),
      fc.record({
        kind: fc.constant('tcp' as const),
        host: fc.constantFrom('localhost', '10.0.0.7', '::1', 'bench.local'),
        port: fc.integer({ min: 1, max: 65535 }),
        keepAliveMs: fc.constant(5000),
      }),
      fc.record(
        {
          kind: fc.constant('hid' as const),
          vendorId: fc.integer({ min: 0, max: 0xffff }),
          productId: fc.integer({ min: 0, max: 0xffff }),
          serialNumber: fc.stringMatching(/^[A-Za-z0-9 _-]{1,12}$/),
          reportSize: fc.integer({ min: 8, max: 1024 }),
          reportId: fc.integer({ min: 0, max: 255 }),
        },
        { requiredKeys: ['kind', 'vendorId', 'productId', 'reportSize', 'reportId'] },
      ),
      fc.record({
        kind: fc.constant('memory' as const),
        name: fc.stringMatching(/^[a-z0-9_-]{1,10}$/),
        end: fc.constantFrom('host' as const, 'device' as const),
      }),
    );
    fc.assert(
      fc.property(spec, (s) => {
        expect(parseTransportUrl(formatTransportUrl(s as TransportSpec))).toEqual(s);
      }),
    );
  });

  it('builds an unopened transport of the right kind for each URL', () => {
    expect(openTransport('/dev/ttyUSB0').kind).toBe('serial');
    expect(openTransport('tcp://localhost:4001').kind).toBe('tcp');
    expect(openTransport('hid://04d8:00dd').kind).toBe('hid');
    const host = openTransport('memory://url-test');
    expect(host.kind).toBe('memory');
    expect(host.isOpen).toBe(false);
  });

  it('names an unknown scheme and every scheme it knows', () => {
    expect(() => parseTransportUrl('rs485:/dev/ttyUSB0')).toThrow(
      'unknown scheme "rs485:" (known: serial:, tcp:, hid:, memory:, pn532:, wedge:)',
    );
  });

  it("takes a vendor's scheme registered beside the shipped ones, leaving the shipped registry as it was", () => {
    const vendor = TRANSPORT_SCHEMES.withScheme({
      scheme: 'acme' as const,
      authority: true,
      example: 'acme://port',
      parse(url, rest) {
        if (!/^\d+$/.test(rest)) throw badUrl(url, 'expected acme://port');
        return { kind: 'acme' as const, port: Number(rest) };
      },
      format: (spec) => `acme://${spec.port}`,
      open: () => openTransport('memory://acme'),
    });
    expect(vendor.parse('acme://7')).toEqual({ kind: 'acme', port: 7 });
    expect(vendor.format({ kind: 'acme', port: 7 } as { kind: string })).toBe('acme://7');
    expect(() => vendor.parse('acme://x')).toThrow(
      'transport URL "acme://x": expected acme://port',
    );
    expect(vendor.parse('tcp://localhost:1')).toMatchObject({ kind: 'tcp', port: 1 });
    expect(() => parseTransportUrl('acme://7')).toThrow('unknown scheme "acme:"');
    expect(() => vendor.withScheme({ ...vendor, ...tcpLike() })).toThrow('registered twice');
  });
});

/** A second scheme named tcp. */
function tcpLike() {
  return {
    scheme: 'tcp' as const,
    authority: true,
    example: 'tcp://host:port',
    parse: () => ({ kind: 'tcp' as const }),
    format: () => 'tcp://x:1',
    open: () => openTransport('memory://tcp-like'),
  };
}
