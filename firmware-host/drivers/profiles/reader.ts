/**
 * An RFID reader (talker RD): a tag it reads is a card through the deck
 * registry (a foreign card when the registry cannot name it), or a raw tag
 * while a deck is enrolled; tableside's reader firmware names cards itself.
 */
import type { DriverProfile } from '../profile.ts';
import { cardDelivery, statusAndErrorDelivery } from './faults.ts';

export const readerProfile: DriverProfile = {
  kind: 'reader',
  talker: 'RD',
  heldUntilStored: ['CARD', 'TAG'],
  commands: [],
  invalidIsFault: false,
  reportsShuffles: false,
  simulatedBy: 'dealer',
  deckRegistry: true,
  simulation: {
    model: 'TS-READER-SIM',
    heldByGate: false,
    paced: (step) => step.kind === 'card' || step.kind === 'tag',
    play: (step, port) => {
      switch (step.kind) {
        case 'shuffle':
          port.newTags(step.decks);
          return;
        case 'card':
          port.send({ type: 'TAG', uid: step.uid ?? port.tagOf(step.card, step.back) });
          return;
        case 'tag':
          port.send({ type: 'TAG', uid: step.uid });
          return;
        default:
          // A reader has no card path to jam, no lid and no door.
          return;
      }
    },
  },
  deliveries: (port) => ({
    deliver: {
      ...cardDelivery(port),
      ...statusAndErrorDelivery(port),
      TAG: (seq, message) => {
        if (port.rawTags) {
          port.tag(message.uid, port.acknowledgement(seq));
          return;
        }
        if (port.refuse(seq, message)) return;
        const known = port.registry?.lookup(message.uid);
        if (!known) {
          port.counters.foreignTags++;
          port.settle(seq);
          port.alarm(
            'foreign_card',
            `${port.name}: tag ${message.uid} is not in the deck registry`,
            {
              uid: message.uid,
            },
          );
          return;
        }
        port.record(seq, { t: 'card', card: known.card, back: known.back, face: 'down' });
      },
    },
  }),
};
