/**
 * A continuous or batch shuffler (talker SF): its shuffle report (SHUFFLED,
 * SHUFFLED2, or ORDER pieces) is a shuffle record, held until stored, with
 * the back colours it names or those the table expects; a COUNT answers a
 * deck check; it takes SHUFFLE and DECKCHECK.
 */
import type { Message } from '../../../device-protocol/messages.ts';
import { ShuffleOrderAssembler } from '../../../device-protocol/shuffle-order.ts';
import type { ShuffleRecord } from '../../table/log.ts';
import type { DeliveryPort, DriverProfile } from '../profile.ts';
import { jamDelivery, statusAndErrorDelivery } from './faults.ts';

type ShufflePiece = Extract<Message, { type: 'SHUFFLED' | 'SHUFFLED2' | 'ORDER' }>;

function shuffleDelivery(port: DeliveryPort): (seq: number, message: ShufflePiece) => void {
  const assembler = new ShuffleOrderAssembler();
  return (seq, message) => {
    // A quarantined shuffler's shuffle is no more the table's than its cards.
    if (port.refuse(seq, message, false)) return;
    const report = assembler.accept(message);
    if (report.kind === 'pending') {
      port.settle(seq);
      return;
    }
    if (report.kind === 'error') {
      port.settle(seq);
      port.alarm('device_fault', `${port.name}: shuffle report unusable: ${report.error}`, {
        fault: 'shuffle_report',
      });
      return;
    }
    const backs = report.backs ? [...report.backs] : port.unnamedBacks();
    const decks =
      port.takeCommandedDecks() ??
      Math.min(16, Math.max(1, Math.round(report.count / (52 * backs.length))));
    const record: Omit<ShuffleRecord, 'ts' | 'src'> = { t: 'shuffle', decks, backs };
    if (report.order) record.order = [...report.order];
    port.record(seq, record);
  };
}

export const shufflerProfile: DriverProfile = {
  kind: 'shuffler',
  talker: 'SF',
  heldUntilStored: ['SHUFFLED', 'SHUFFLED2', 'ORDER'],
  commands: ['SHUFFLE', 'DECKCHECK'],
  invalidIsFault: false,
  reportsShuffles: true,
  simulatedBy: 'dealer',
  deckRegistry: false,
  deliveries: (port) => {
    const shuffle = shuffleDelivery(port);
    return {
      deliver: {
        ...statusAndErrorDelivery(port),
        ...jamDelivery(port),
        SHUFFLED: shuffle,
        SHUFFLED2: shuffle,
        ORDER: shuffle,
        COUNT: (_seq, message) => {
          port.counted(message);
          port.notice(message);
        },
        DOOR: (_seq, message) => {
          port.notice(message);
        },
      },
    };
  },
};
