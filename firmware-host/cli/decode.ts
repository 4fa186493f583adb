import type { Command } from 'commander';
import { registerNotYet } from './not-yet.ts';

export function register(program: Command): void {
  registerNotYet(program, 'decode', 'decode a raw capture of a device line into JSON frames');
}
