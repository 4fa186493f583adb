import type { Command } from 'commander';
import { registerNotYet } from './not-yet.ts';

export function register(program: Command): void {
  registerNotYet(
    program,
    'replay',
    'feed a table log through the table session and print its events',
  );
}
