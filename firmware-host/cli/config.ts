import type { Command } from 'commander';
import { registerNotYet } from './not-yet.ts';

export function register(program: Command): void {
  registerNotYet(program, 'config', 'check a configuration file');
}
