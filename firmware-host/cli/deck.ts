import type { Command } from 'commander';
import { registerNotYet } from './not-yet.ts';

export function register(program: Command): void {
  registerNotYet(program, 'deck', 'deck registry for RFID readers (enroll)');
}
