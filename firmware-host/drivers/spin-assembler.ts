/**
 * Puts a roulette spin together from the wheel's reports (PROTOCOL.md
 * § 7.5): ROTOR and BALL as they happen, then the RESULT that ends the spin
 * or a NOSPIN that voids it. A RESULT without a BALL (or a ROTOR) before it
 * becomes a spin record without that direction: the table session raises
 * it as a result with no spin. The daemon journals each ROTOR and BALL
 * before it is ACKed and gives them back after a restart (`restoreSpin`),
 * so a crash between the ball and the result loses no part of the spin.
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
