import type { Command } from 'commander';

/**
 * Registers a command that a later change fills in. It says so plainly and
 * exits 1, so nobody mistakes it for a working command.
 */
export function registerNotYet(program: Command, name: string, summary: string): void {
  program
    .command(name)
    .description(`${summary} (not available in this build yet)`)
    .allowUnknownOption(true)
    .allowExcessArguments(true)
    .action(() => {
      process.stderr.write(`tableside ${name}: not available in this build yet\n`);
      process.exitCode = 1;
    });
}
