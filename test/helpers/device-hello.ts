/** The HELLO of the shoe the protocol tests talk to (PROTOCOL.md § 7.1's example), at a given protocol. */
import type { HelloMessage } from '../../device-protocol/messages.ts';

export function shoeHello(protocol = '1.0'): HelloMessage {
  return {
    type: 'HELLO',
    model: 'TS-SHOE-2',
    serial: 'SH0042',
    protocol,
    firmware: '2.3.1',
    firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  };
}
