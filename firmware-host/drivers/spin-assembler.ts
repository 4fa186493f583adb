/**
 * Puts a roulette spin together from the wheel's reports (PROTOCOL.md
 * § 3.6): ROTOR and BALL as they happen, then the RESULT that ends the spin
 * or a NOSPIN that voids it. A RESULT without a BALL (or a ROTOR) before it
 * becomes a spin record without that direction: the table session raises
 * it as a result with no spin. Held in memory only: ROTOR and BALL are ACKed
 * at once, so a host restart between them and the RESULT loses them, and
 * the table then sees that spin as a result with no spin (on the safe side:
 * the inspector looks).
 */
import type {
  BallMessage,
  NoSpinMessage,
  ResultMessage,
  RotorMessage,
} from '../../device-protocol/messages.ts';
import type { NoSpinRecord, SpinRecord } from '../table/log.ts';

export class SpinAssembler {
  private rotor: RotorMessage | undefined;
  private ball: BallMessage | undefined;

  add(message: RotorMessage | BallMessage): void {
    if (message.type === 'ROTOR') {
      // A new rotor spin starts a new spin: a ball from before it is stale.
      this.rotor = message;
      this.ball = undefined;
    } else {
      this.ball = message;
    }
  }

  result(message: ResultMessage): Omit<SpinRecord, 'ts' | 'src'> {
    const record: Omit<SpinRecord, 'ts' | 'src'> = {
      t: 'spin',
      ...(this.rotor ? { rotor: this.rotor.direction } : {}),
      ...(this.ball ? { ball: this.ball.direction } : {}),
      number: message.number,
      revolutions: message.revolutions,
      ...(this.rotor ? { rpm: this.rotor.rpm } : {}),
    };
    this.clear();
    return record;
  }

  noSpin(message: NoSpinMessage): Omit<NoSpinRecord, 'ts' | 'src'> {
    const record: Omit<NoSpinRecord, 'ts' | 'src'> = {
      t: 'no_spin',
      reason: message.reason,
      ...(this.rotor ? { rotor: this.rotor.direction } : {}),
    };
    this.clear();
    return record;
  }

  clear(): void {
    this.rotor = undefined;
    this.ball = undefined;
  }
}
