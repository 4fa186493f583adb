/** Deliveries several kinds share: what a device says of its own state and faults. */
import type { Deliveries, DeliveryPort } from '../profile.ts';

/** What every device may say of itself: STATUS (told, nothing to store) and ERROR (told and alarmed as a device fault). */
export function statusAndErrorDelivery(port: DeliveryPort): Deliveries {
  return {
    STATUS: (_seq, message) => {
      port.notice(message);
    },
    ERROR: (_seq, message) => {
      port.notice(message);
      port.alarm(
        'device_fault',
        `${port.name}: ${message.code}${message.detail ? `: ${message.detail}` : ''}`,
        { fault: message.code },
      );
    },
  };
}

/** JAM: told; a jam (not its clearing) is a device fault. */
export function jamDelivery(port: DeliveryPort): Deliveries {
  return {
    JAM: (_seq, message) => {
      port.notice(message);
      if (message.state !== 'jammed') return;
      port.alarm(
        'device_fault',
        `${port.name}: card path jammed${message.location ? ` at ${message.location}` : ''}`,
        { fault: 'jam' },
      );
    },
  };
}

/** A card a shoe or a reader names: a record, refused while the device is quarantined. */
export function cardDelivery(port: DeliveryPort): Deliveries {
  return {
    CARD: (seq, message) => {
      if (port.refuse(seq, message)) return;
      port.record(seq, { t: 'card', card: message.card, back: message.back, face: message.face });
    },
  };
}
