/**
 * A continuous or batch shuffler (talker SF): its shuffle report (SHUFFLED,
 * SHUFFLED2, or ORDER pieces) is a shuffle record, held until stored, with
 * the back colours it names or those the table expects; a COUNT answers a
 * deck check; it takes SHUFFLE and DECKCHECK.
 */
import { JOKER } from '../../../device-protocol/cards.ts';
import type { Message } from '../../../device-protocol/messages.ts';
import { ShuffleOrderAssembler } from '../../../device-protocol/shuffle-order.ts';
import type { ShuffleRecord } from '../../table/log.ts';
import type { DeliveryPort, DriverProfile } from '../profile.ts';
import { jamDelivery, statusAndErrorDelivery } from './faults.ts';
import { simulateJam } from './simulated.ts';

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
  simulation: {
    model: 'TS-SHUFFLER-SIM',
    heldByGate: false,
    paced: (step) => step.kind === 'shuffle',
    play: (step, port) => {
      switch (step.kind) {
        case 'shuffle':
          // The marker joker is placed by the dealer after the shuffle (003 § 24(1)).
          port.reportShuffle(
            step.order.filter((card) => card !== JOKER),
            step.reportOrder !== false,
            step.backs,
          );
          return;
        case 'door':
          port.send({ type: 'DOOR', state: step.open ? 'open' : 'closed' });
          return;
        case 'jam':
          return simulateJam(step.clearAfterMs, port);
        default:
          return;
      }
    },
    command: (message, port) => {
      if (message.type === 'SHUFFLE') port.shuffleCommanded(message.decks);
      if (message.type === 'DECKCHECK') {
        const extra = port.isOn('extra') ? 1 : 0;
        port.send({
          type: 'COUNT',
          counted: message.decks * 52 + extra,
          missing: 0,
          extra,
          missingCards: [],
          extraCards: [],
        });
      }
    },
  },
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
