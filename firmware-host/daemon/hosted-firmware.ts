/**
 * A device firmware run by the daemon in its own process (`transport:
 * firmware` in the table config): the firmware's host link is one end of an
 * in-process memory wire, the daemon's driver the other, so a one-process
 * table works with a real shoe on a StandardFirmata board.
 */
import { readFile } from 'node:fs/promises';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import { parseCalibration } from '../../hardware/firmware/colour.ts';
import { firmwareKeyFromAtecc608 } from '../../hardware/firmware/firmware-key.ts';
import type { DeviceKey } from '../../hardware/keys/device-key.ts';
import { DeckRegistry } from '../../hardware/readers/deck-registry.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { DeviceConfig } from '../config/schema.ts';
import type { HostedDeviceFirmware } from '../drivers/profile.ts';
import { kindsWhere, profileFor } from '../drivers/profiles/registry.ts';

export interface HostedFirmware {
  readonly firmware: HostedDeviceFirmware;
  stop(): Promise<void>;
}

export async function startHostedFirmware(
  name: string,
  device: DeviceConfig,
  link: Transport,
  serial: string,
  /** The key of the config's `keyFile` (`atecc608`: read here from the chip): the firmware proves it to the daemon's driver. */
  key?: DeviceKey,
  /** The table's host key (protocol 1.7): a firmware with a key takes sessions from this host only. */
  hostKey?: DevicePublicKey,
): Promise<HostedFirmware> {
  // The kind's profile says whether tableside has a firmware of it the daemon can run.
  const hosted = profileFor(device.kind).hostedFirmware;
  if (!hosted || !device.board || !device.registry) {
    throw new Error(
      `devices.${name}: transport firmware runs a ${kindsWhere((profile) => profile.hostedFirmware !== undefined)} with a board and a registry`,
    );
  }
  const registry = await DeckRegistry.load(device.registry);
  const calibration = device.calibration
    ? parseCalibration(await readFile(device.calibration, 'utf8'), device.calibration)
    : undefined;
  // The chip's key is read before the firmware starts: without its board the table does not start.
  const onBoard = device.atecc608 ? await firmwareKeyFromAtecc608(device.board) : undefined;
  const firmware = await hosted.start({
    boardUrl: device.board,
    link,
    registry,
    serial,
    ...(key ? { key } : {}),
    ...(onBoard ? { key: onBoard.key, boardI2c: onBoard.boardI2c! } : {}),
    ...((key || onBoard) && hostKey ? { hostKey } : {}),
    ...(calibration ? { calibration } : {}),
    ...(device.outbox ? { outboxPath: device.outbox } : {}),
    ...(device.beamBroken ? { beamBroken: device.beamBroken } : {}),
  });
  // The board may be slow to answer or absent: the firmware reports that as a
  // fault over the link and keeps trying, so the daemon does not wait for it.
  const started = firmware.start().catch(() => undefined);
  return {
    firmware,
    async stop() {
      await started;
      await firmware.stop();
    },
  };
}
