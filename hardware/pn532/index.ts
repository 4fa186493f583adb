/** The NXP PN532 NFC controller: frames, the command driver and its I2C and HSU links. */
export type { Pn532Bus } from './bus.ts';
export { isPn532Error, Pn532Error, type Pn532ErrorCode } from './errors.ts';
export {
  ACK_FRAME,
  encodeHostFrame,
  NACK_FRAME,
  type Pn532Frame,
  Pn532FrameReader,
} from './frame.ts';
export { HSU_WAKE_UP, type HsuLink, type Pn532HsuBus, pn532OverHsu } from './hsu.ts';
export { PN532_I2C_ADDRESS, type Pn532I2cOptions, pn532OverI2c } from './i2c.ts';
export {
  CMD_GET_FIRMWARE_VERSION,
  CMD_IN_LIST_PASSIVE_TARGET,
  CMD_SAM_CONFIGURATION,
  type FirmwareVersion,
  type PassiveTarget,
  Pn532,
  type Pn532Options,
} from './pn532.ts';
