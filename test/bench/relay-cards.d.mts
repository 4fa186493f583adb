import type { MqttClient } from 'mqtt';
import type { LinkSession } from '../../device-protocol/link.ts';
import type { Transport } from '../../hardware/transports/transport.ts';

/** Reframes what `transport` reads through `session` and publishes each CARD on `cardTopic` at QoS 1. */
export function relayCards(options: {
  session: LinkSession;
  transport: Transport;
  publisher: MqttClient;
  cardTopic: string;
}): void;
