import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { isConfigError } from '../config/errors.ts';
import { EXIT_BAD_CONFIG } from './config.ts';

interface RunOptions {
  config?: string;
  view?: boolean;
  web?: string | boolean;
}

/**
 * What `tableside run` shows on its standard output: the live view on a
 * terminal; a line per event where `--no-view` asks for it; elsewhere
 * (systemd, a pipe) `quiet`: the table at start, devices, broker, notices
 * and alarms, but not a line per card, which cost the daemon a write and
 * journald a record on the SD card for what the journal and MQTT carry.
 */
export function terminalViewMode(options: {
  /** False with `--no-view`. */
  asked: boolean;
  /** Whether standard output is a TTY. */
  terminal: boolean;
}): 'live' | 'lines' | 'quiet' {
  if (!options.asked) return 'lines';
  return options.terminal ? 'live' : 'quiet';
}

export function register(program: Command): void {
  program
    .command('run')
    .description(
      'run the table: devices in, validated events out to MQTT (no config: a simulator bench on the embedded broker)',
    )
    .option(
      '--config <file>',
      'configuration file (YAML or JSON); default $TABLESIDE_CONFIG or none',
    )
    .option(
      '--no-view',
      'a line per event instead of the live terminal view (without a terminal: alarms only unless asked)',
    )
    .option(
      '--web [host:port]',
      "turn the web console on (default 127.0.0.1:8080; the config's web: section otherwise)",
    )
    .action(async (options: RunOptions) => {
      const { configFileFrom, loadConfig, configWarnings } = await import('../config/loader.ts');
      let loaded: Awaited<ReturnType<typeof loadConfig>>;
      try {
        loaded = await loadConfig({ file: configFileFrom(options.config) });
      } catch (error) {
        if (!isConfigError(error)) throw error;
        process.stderr.write(`${error.message}\n`);
        process.exitCode = EXIT_BAD_CONFIG;
        return;
      }
      if (options.web !== undefined && options.web !== false) {
        const { webFromOption } = await import('../web/option.ts');
        try {
          loaded.config.web = webFromOption(options.web, loaded.config.web);
        } catch (error) {
          process.stderr.write(`tableside run: ${(error as Error).message}\n`);
          process.exitCode = EXIT_BAD_CONFIG;
          return;
        }
      }
      for (const warning of configWarnings(loaded.config)) {
        process.stderr.write(`warning: ${warning}\n`);
      }
      const mode = terminalViewMode({
        asked: options.view !== false,
        terminal: process.stdout.isTTY === true,
      });
      const live = mode === 'live';
      // The live view owns the terminal: the logs go to a file beside the journal before anything starts.
      const logFile = live ? join(dirname(loaded.config.journal.dir), 'tableside.log') : undefined;
      if (logFile) (await import('../log.ts')).logToFile(logFile);
      const { TableDaemon } = await import('../daemon/table-daemon.ts');
      const daemon = new TableDaemon({ config: loaded.config });
      try {
        await daemon.start();
      } catch (error) {
        process.stderr.write(`tableside run: ${(error as Error).message}\n`);
        process.exitCode = 1;
        return;
      }

      if (daemon.webAddress) process.stderr.write(`web console: ${daemon.webAddress}\n`);
      if (daemon.webLoginLink) {
        process.stderr.write(
          `web console: log in as a supervisor (once, on this machine): ${daemon.webLoginLink}\n`,
        );
      } else if (daemon.webAddress && Object.keys(loaded.config.web?.users ?? {}).length === 0) {
        process.stderr.write(
          'web console: no users, so nobody may make requests: tableside user add NAME --role supervisor --config FILE\n',
        );
      }
      const { TerminalView } = await import('../daemon/view.ts');
      const view = new TerminalView({
        daemon,
        out: process.stdout,
        live,
        eventLines: mode === 'quiet' ? 'alarms' : 'all',
        ...(logFile ? { logFile } : {}),
      });
      view.start();
      let stopping = false;
      const shutdown = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        view.stop();
        process.stderr.write(
          `tableside: ${signal}: stopping (offline published, journal closed)\n`,
        );
        await daemon.stop();
        process.exit(process.exitCode ?? 0);
      };
      daemon.once('fatal', (error) => {
        process.stderr.write(
          `tableside: ${error.message}; stopping so that a restart recovers from the journal\n`,
        );
        void shutdown('journal failure').then(() => undefined);
        process.exitCode = 1;
      });
      process.on('SIGINT', () => void shutdown('SIGINT'));
      process.on('SIGTERM', () => void shutdown('SIGTERM'));
    });
}
