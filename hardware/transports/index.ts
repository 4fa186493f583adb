/** The hardware transports: one interface, four kinds, and the link that keeps them open. */
export { HardwareError, type HardwareErrorCode, isHardwareError } from '../errors.ts';
export { HidTransport, loadNodeHid } from './hid.ts';
export {
  DEFAULT_HID_REPORT_FORMAT,
  decodeHidReport,
  encodeHidReports,
  type HidReportFormat,
} from './hid-reports.ts';
export {
  createMemoryPair,
  type MemoryEnd,
  MemoryTransport,
  MemoryWire,
  memoryWire,
  releaseMemoryWire,
} from './memory.ts';
export {
  backoffDelay,
  describeLinkChange,
  type LinkOptions,
  type LinkOptionsInput,
  type LinkState,
  type LinkStateChange,
  linkOptionsSchema,
  parseLinkOptions,
  ReconnectingLink,
} from './reconnecting-link.ts';
export { DEFAULT_BAUD_RATE, SerialTransport } from './serial.ts';
export { TcpTransport } from './tcp.ts';
export type { Transport, TransportClose, TransportEvents, TransportKind } from './transport.ts';
export {
  formatTransportUrl,
  openTransport,
  parseTransportUrl,
  type TransportSpec,
} from './url.ts';
