/**
 * The card reader firmware: the same StandardFirmata board with a PN532 on
 * its I2C pins and nothing else, speaking the protocol's reader messages
 * (TAG) through PN's reader device (hardware/readers/), on the device core.
 */
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import { PartBoard } from '../firmata/part-board.ts';
import type { DeviceKey } from '../keys/device-key.ts';
import { Pn532, pn532OverI2c } from '../pn532/index.ts';
import { Pn532Poller } from '../readers/pn532-poller.ts';
import { ReaderDevice } from '../readers/reader-device.ts';
import type { Transport } from '../transports/transport.ts';
import type { BoardI2c } from './firmware-key.ts';
import { firmwareHello, READER_MODEL } from './identity.ts';

export interface ReaderFirmwareOptions {
  boardUrl: string;
  link: Transport;
  serial: string;
  /** The reader's own key (protocol 1.4): without one, a table deals it only with `unpaired: allow`. */
  key?: DeviceKey;
  /** The table's host key that `tableside device pair` printed (protocol 1.7): the reader takes sessions from that table only; absent: from any host. */
  hostKey?: DevicePublicKey;
  /** A key kept on the board (an ATECC608): its bus, given each board the firmware opens. */
  boardI2c?: BoardI2c;
  boardReadyTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface ReaderFirmware {
  readonly device: ReaderDevice;
  stop(): Promise<void>;
}

/** Opens the board, checks the PN532 (rejects naming the part), and starts the reader. */
export async function startReaderFirmware(options: ReaderFirmwareOptions): Promise<ReaderFirmware> {
  const log = options.log ?? (() => undefined);
  let board: PartBoard | undefined;
  const source = new Pn532Poller({
    connect: async () => {
      options.boardI2c?.attach(undefined);
      await board?.close();
      const opened = await PartBoard.open({
        url: options.boardUrl,
        ...(options.boardReadyTimeoutMs !== undefined
          ? { readyTimeoutMs: options.boardReadyTimeoutMs }
          : {}),
      });
      board = opened;
      options.boardI2c?.attach(opened.i2c);
      const closed = new Promise<string>((resolve) => opened.once('lost', resolve));
      return { pn532: new Pn532(pn532OverI2c(opened.i2c)), closed, close: () => opened.close() };
    },
    model: READER_MODEL,
    serial: options.serial,
    description: `PN532 on the board at ${options.boardUrl} (I2C 0x24)`,
  });
  source.on('fault', (fault) => log(`reader FAULT: ${fault.message}`));
  source.on('recovered', () => log('reader recovered'));
  const identity = await source.start();
  const hello = firmwareHello(READER_MODEL, options.serial);
  log(`reader ready: ${identity.firmware}`);
  const device = new ReaderDevice({
    source,
    transport: options.link,
    hello,
    ...(options.key ? { key: options.key } : {}),
    ...(options.hostKey ? { hostKey: options.hostKey } : {}),
  });
  device.core.on('hostLost', (detail) =>
    log(`reader: no host proved the pairing (${detail}): tags kept`),
  );
  device.core.on('hostConfirmed', () => log('reader: the table proved the pairing'));
  device.start();
  return {
    device,
    async stop() {
      await device.stop();
      options.boardI2c?.attach(undefined);
      await board?.close();
    },
  };
}
