/** `pn532:/dev/ttyUSB0?baud=115200`: a PN532 module in HSU mode on a USB-UART adapter, as a reader. */
import type { TransportScheme } from '../transports/scheme.ts';
import { DEFAULT_BAUD_RATE } from '../transports/serial.ts';
import { parseSerialLine } from '../transports/serial-url.ts';
import { pn532HsuReader } from './pn532-hsu.ts';
import { TagReaderTransport } from './tag-reader-transport.ts';

export interface Pn532Spec {
  kind: 'pn532';
  path: string;
  baudRate: number;
}

export const pn532Scheme: TransportScheme<Pn532Spec> = {
  scheme: 'pn532',
  authority: false,
  example: 'pn532:/dev/ttyUSB0',
  parse: (url, rest) => ({ kind: 'pn532', ...parseSerialLine(url, rest) }),
  format: (spec) =>
    `pn532:${spec.path}${spec.baudRate === DEFAULT_BAUD_RATE ? '' : `?baud=${spec.baudRate}`}`,
  open(spec, url) {
    const { path, baudRate } = spec;
    return new TagReaderTransport('pn532', url, () => pn532HsuReader({ path, baudRate }));
  },
};
