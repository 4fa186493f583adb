import type { Command } from 'commander';
import { registerNotYet } from './not-yet.ts';

export function register(program: Command): void {
  registerNotYet(program, 'hand', 'deal one round from given cards and print the outcome');
}
