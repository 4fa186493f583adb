import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('run')
    .description('run the table daemon (not available in this build yet: prints this help)')
    .option('--config <file>', 'configuration file')
    .action(() => {
      program.outputHelp();
    });
}
