/**
 * Names of the codes a broker answers with, for the logs: MQTT 5 reason
 * codes (OASIS MQTT 5.0, section 2.4, table 2-6) and the MQTT 3.1.1 CONNACK
 * return codes (section 3.2.2.3), which is what a 3.1.1-only broker sends
 * back to an MQTT 5 CONNECT. Pure.
 */

export type AckPacket = 'CONNACK' | 'PUBACK' | 'SUBACK' | 'DISCONNECT';

const MQTT5_REASONS: Readonly<Record<number, string>> = {
  0: 'Success',
  1: 'Granted QoS 1',
  2: 'Granted QoS 2',
  4: 'Disconnect with Will Message',
  16: 'No matching subscribers',
  17: 'No subscription existed',
  24: 'Continue authentication',
  25: 'Re-authenticate',
  128: 'Unspecified error',
  129: 'Malformed Packet',
  130: 'Protocol Error',
  131: 'Implementation specific error',
  132: 'Unsupported Protocol Version',
  133: 'Client Identifier not valid',
  134: 'Bad User Name or Password',
  135: 'Not authorized',
  136: 'Server unavailable',
  137: 'Server busy',
  138: 'Banned',
  139: 'Server shutting down',
  140: 'Bad authentication method',
  141: 'Keep Alive timeout',
  142: 'Session taken over',
  143: 'Topic Filter invalid',
  144: 'Topic Name invalid',
  145: 'Packet Identifier in use',
  146: 'Packet Identifier not found',
  147: 'Receive Maximum exceeded',
  148: 'Topic Alias invalid',
  149: 'Packet too large',
  150: 'Message rate too high',
  151: 'Quota exceeded',
  152: 'Administrative action',
  153: 'Payload format invalid',
  154: 'Retain not supported',
  155: 'QoS not supported',
  156: 'Use another server',
  157: 'Server moved',
  158: 'Shared Subscriptions not supported',
  159: 'Connection rate exceeded',
  160: 'Maximum connect time',
  161: 'Subscription Identifiers not supported',
  162: 'Wildcard Subscriptions not supported',
};

/** MQTT 3.1.1 CONNACK return codes; 0x01 is also what a 3.1.1 broker answers an MQTT 5 CONNECT. */
const MQTT311_CONNACK: Readonly<Record<number, string>> = {
  0: 'Connection Accepted',
  1: 'unacceptable protocol version',
  2: 'identifier rejected',
  3: 'Server unavailable',
  4: 'bad user name or password',
  5: 'not authorized',
};

/** A code's name, as the packet it came in means it. */
export function reasonName(packet: AckPacket, code: number, protocolVersion: 4 | 5): string {
  // Below 0x80 in a CONNACK, an MQTT 5 client is reading a 3.1.1 broker's return code.
  const table =
    packet === 'CONNACK' && (protocolVersion === 4 || (code > 0 && code < 0x80))
      ? MQTT311_CONNACK
      : MQTT5_REASONS;
  return table[code] ?? 'unknown code';
}

/** `CONNACK 0x87 Not authorized`: the form every log line uses. */
export function describeReason(packet: AckPacket, code: number, protocolVersion: 4 | 5): string {
  const hex = `0x${code.toString(16).padStart(2, '0')}`;
  return `${packet} ${hex} ${reasonName(packet, code, protocolVersion)}`;
}

/** Whether a CONNACK refusal says the broker does not speak the protocol version asked for. */
export function refusesProtocolVersion(code: number): boolean {
  return code === 0x01 || code === 0x84;
}

/** Reason codes below 0x80 are successes (PUBACK 0x10 "No matching subscribers" included). */
export function isFailure(code: number | undefined): boolean {
  return code !== undefined && code >= 0x80;
}
