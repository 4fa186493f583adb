/**
 * `pn532:/dev/ttyUSB0[?baud=N]`: a PN532 module on a USB-UART adapter, its
 * mode switches on HSU, spoken to directly over serialport (115200 baud by
 * default, the PN532's HSU rate after power-up).
 */
import { Pn532, pn532OverHsu } from '../pn532/index.ts';
import { SerialTransport } from '../transports/serial.ts';
import { type Pn532Connection, Pn532Poller, type Pn532PollerOptions } from './pn532-poller.ts';

export interface Pn532HsuOptions {
  path: string;
  baudRate: number;
  /** Poller tuning (tests shorten the pauses). */
  poller?: Pick<Pn532PollerOptions, 'pollMs' | 'restMs' | 'retryMs' | 'maxRetryMs'>;
}

export function pn532HsuConnector(path: string, baudRate: number): () => Promise<Pn532Connection> {
  return async () => {
    const serial = new SerialTransport({ path, baudRate }, path);
    await serial.open();
    const bus = pn532OverHsu(serial);
    const closed = new Promise<string>((resolve) => {
      serial.once('close', (info) => resolve(info.reason));
    });
    return {
      pn532: new Pn532(bus),
      closed,
      async close() {
        bus.detach();
        await serial.close();
      },
    };
  };
}

export function pn532HsuReader(options: Pn532HsuOptions): Pn532Poller {
  return new Pn532Poller({
    ...options.poller,
    connect: pn532HsuConnector(options.path, options.baudRate),
    model: 'PN532-HSU',
    serial: options.path.replace(/^\/dev\//, ''),
    description: `PN532 on ${options.path} (HSU)`,
  });
}
