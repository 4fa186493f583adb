import type { Command } from 'commander';
import { ENV_OVERRIDES } from '../config/env.ts';
import { isConfigError } from '../config/errors.ts';

/** Exit status for an invalid configuration (the daemon uses the same). */
export const EXIT_BAD_CONFIG = 2;

export function register(program: Command): void {
  const config = program
    .command('config')
    .description('check or show the table configuration')
    .addHelpText(
      'after',
      `\nEnvironment overrides (applied over the file):\n${ENV_OVERRIDES.map(
        ({ variable, path }) => `  ${variable.padEnd(26)} ${path.join('.')}`,
      ).join('\n')}\n  TABLESIDE_CONFIG           the config file when no FILE/--config is given`,
    );

  config
    .command('check')
    .description('validate a config file; prints OK and a summary, or every problem (exit 2)')
    .argument('<file>', 'config file (YAML or JSON)')
    .action(async (file: string) => {
      const { configWarnings, summarizeConfig } = await import('../config/loader.ts');
      const loaded = await load(file);
      if (!loaded) return;
      process.stdout.write(`OK ${loaded.file}\n`);
      for (const line of summarizeConfig(loaded.config)) process.stdout.write(`${line}\n`);
      if (loaded.overrides.length > 0) {
        process.stdout.write(`environment overrides: ${loaded.overrides.join(', ')}\n`);
      }
      for (const warning of configWarnings(loaded.config)) {
        process.stdout.write(`warning: ${warning}\n`);
      }
    });

  config
    .command('show')
    .description('print the effective config (defaults + file + environment), password redacted')
    .argument('[file]', 'config file (YAML or JSON); default: $TABLESIDE_CONFIG or none')
    .option('--json', 'print JSON instead of YAML')
    .action(async (file: string | undefined, options: { json?: boolean }) => {
      const { configFileFrom, redactConfig } = await import('../config/loader.ts');
      const { stringify } = await import('yaml');
      const loaded = await load(configFileFrom(file));
      if (!loaded) return;
      const effective = redactConfig(loaded.config);
      process.stdout.write(
        options.json ? `${JSON.stringify(effective, null, 2)}\n` : stringify(effective),
      );
    });
}

async function load(file: string | undefined) {
  const { loadConfig } = await import('../config/loader.ts');
  try {
    return await loadConfig({ file });
  } catch (error) {
    if (!isConfigError(error)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = EXIT_BAD_CONFIG;
    return undefined;
  }
}
