/**
 * The roulette wheel (talker RW): the rotor and the ball are parts of the
 * spin under way, the daemon journals each before it is ACKed (a restart
 * between them and the result must not lose them); a result, a no-spin and
 * the close of betting are records. A result that cannot be true (no such
 * pocket) is refused with an alarm.
 */
import type { DriverProfile, SpinPart } from '../profile.ts';
import { SpinAssembler } from '../spin-assembler.ts';
import { statusAndErrorDelivery } from './faults.ts';

export const wheelProfile: DriverProfile = {
  kind: 'wheel',
  talker: 'RW',
  heldUntilStored: ['ROTOR', 'BALL', 'RESULT', 'NOSPIN', 'NOMOREBETS'],
  commands: [],
  invalidIsFault: true,
  reportsShuffles: false,
  simulatedBy: 'croupier',
  deckRegistry: false,
  deliveries: (port) => {
    /** The spin under way, put together from ROTOR and BALL until its RESULT. */
    const spin = new SpinAssembler();
    const part = (seq: number, message: SpinPart['message']) => {
      if (port.refuse(seq, message)) return;
      spin.add(message);
      const stored: SpinPart = { device: port.name, message, ack: port.acknowledgement(seq) };
      if (!port.spinPart(stored)) stored.ack();
    };
    return {
      deliver: {
        ...statusAndErrorDelivery(port),
        ROTOR: part,
        BALL: part,
        RESULT: (seq, message) => {
          if (port.refuse(seq, message)) return;
          port.record(seq, spin.result(message));
        },
        NOSPIN: (seq, message) => {
          if (port.refuse(seq, message)) return;
          port.record(seq, spin.noSpin(message));
        },
        NOMOREBETS: (seq, message) => {
          if (port.refuse(seq, message)) return;
          port.record(seq, { t: 'no_more_bets' });
        },
      },
      restoreSpin(parts) {
        spin.clear();
        for (const piece of parts) spin.add(piece);
      },
    };
  },
};
