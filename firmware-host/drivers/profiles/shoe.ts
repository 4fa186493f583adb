/**
 * The smart card shoe (talker SH): its cards, the cut card and the lid are
 * records or start one, held until stored; a card it cannot name is an
 * alarm for the dealer (FOREIGN, NOTAG); it takes the dealer lights and the
 * exit gate.
 */
import type { DriverProfile, LidNotice } from '../profile.ts';
import { cardDelivery, jamDelivery, statusAndErrorDelivery } from './faults.ts';
import { simulateJam } from './simulated.ts';

export const shoeProfile: DriverProfile = {
  kind: 'shoe',
  talker: 'SH',
  heldUntilStored: ['CARD', 'CUT', 'LID'],
  commands: ['INDICATE', 'GATE'],
  invalidIsFault: false,
  reportsShuffles: false,
  simulatedBy: 'dealer',
  deckRegistry: false,
  // tableside's smart shoe firmware (hardware/firmware/shoe.ts), loaded only when a table runs it.
  hostedFirmware: {
    parts: ['beam', 'colour'],
    start: async (options) => {
      const { ShoeFirmware } = await import('../../../hardware/firmware/shoe.ts');
      return new ShoeFirmware(options);
    },
  },
  simulation: {
    model: 'TS-SHOE-SIM',
    heldByGate: true,
    paced: (step) => step.kind === 'card' || step.kind === 'cut',
    play: (step, port) => {
      switch (step.kind) {
        case 'card':
          port.send({ type: 'CARD', card: step.card, back: step.back, face: step.face });
          return;
        case 'cut':
          port.send({ type: 'CUT' });
          return;
        case 'lid':
          port.send({ type: 'LID', state: step.open ? 'open' : 'closed' });
          return;
        case 'jam':
          return simulateJam(step.clearAfterMs, port);
        default:
          return;
      }
    },
  },
  deliveries: (port) => ({
    deliver: {
      ...cardDelivery(port),
      ...statusAndErrorDelivery(port),
      ...jamDelivery(port),
      CUT: (seq, message) => {
        if (port.refuse(seq, message)) return;
        port.record(seq, { t: 'cut' });
      },
      // Closing the lid can start a new shoe, which must be durable before the shoe is told.
      LID: (seq, message) => {
        const notice: LidNotice = {
          type: 'LID',
          state: message.state,
          ack: port.acknowledgement(seq),
        };
        // Nobody to store what the lid started: nothing to wait for.
        if (!port.notice(notice)) notice.ack();
      },
      FOREIGN: (_seq, message) => {
        // A card left the shoe that its registry cannot name (1.3): nothing to store, the dealer acts.
        port.counters.foreignTags++;
        port.alarm('foreign_card', `${port.name}: tag ${message.uid} is not in the deck registry`, {
          uid: message.uid,
          back: message.back,
          face: message.face,
        });
      },
      NOTAG: (_seq, message) => {
        port.alarm(
          'device_fault',
          `${port.name}: a ${message.back} card left the shoe ${message.face === 'up' ? 'face up ' : ''}with no tag read: identify it by hand`,
          { fault: 'card_unidentified', back: message.back, face: message.face },
        );
      },
    },
  }),
};
