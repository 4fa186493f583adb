import type { MqttClient } from 'mqtt';
import type { LinkSession } from '../../device-protocol/link.ts';
import type { Transport } from '../../hardware/transports/transport.ts';

/** Appends one line durably (O_DSYNC or fdatasync) and resolves once it is on the disk. */
export interface DurableStore {
  append(line: string): Promise<void>;
}

/**
 * Reframes what `transport` reads through `session` and publishes each CARD
 * on `cardTopic` at QoS 1. With `store` (the durable relay) each CARD is
 * appended to it before its ACK and its publication; the session must then
 * defer the CARD's ACK (`deferAck: ['CARD']`).
 */
export function relayCards(options: {
  session: LinkSession;
  transport: Transport;
  publisher: MqttClient;
  cardTopic: string;
  store?: DurableStore;
}): void;
