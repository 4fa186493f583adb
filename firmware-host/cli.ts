#!/usr/bin/env node
/**
 * The one CLI entry. Each command lives in its own module under cli/ and
 * loads its heavy dependencies lazily inside its action, so that
 * `tableside decode` never pays for MQTT or johnny-five.
 *
 * The command modules themselves are loaded on demand too: `tableside run`
 * (the daemon, resident for years) loads only cli/run.ts, not the other
 * thirteen commands' code; help and unknown commands load them all. A
 * game's commands of its own (baccarat's `roads`) come from its plug-in
 * (GamePlugin.cli), asked only when the name is none of these.
 */
import { Command } from 'commander';
import { VERSION } from '../device-protocol/version.ts';

interface CommandModule {
  register(program: Command): void | Promise<void>;
}

/** In the order `tableside --help` lists them. */
const COMMANDS: Readonly<Record<string, () => Promise<CommandModule>>> = {
  run: () => import('./cli/run.ts'),
  config: () => import('./cli/config.ts'),
  decode: () => import('./cli/decode.ts'),
  encode: () => import('./cli/encode.ts'),
  rulesets: () => import('./cli/rulesets.ts'),
  hand: () => import('./cli/hand.ts'),
  analyze: () => import('./cli/analyze.ts'),
  replay: () => import('./cli/replay.ts'),
  devices: () => import('./cli/devices.ts'),
  device: () => import('./cli/device.ts'),
  conformance: () => import('./cli/conformance.ts'),
  sim: () => import('./cli/sim.ts'),
  deck: () => import('./cli/deck.ts'),
  journal: () => import('./cli/journal.ts'),
  diag: () => import('./cli/diag.ts'),
  key: () => import('./cli/key.ts'),
  request: () => import('./cli/request.ts'),
  firmware: () => import('./cli/firmware.ts'),
  user: () => import('./cli/user.ts'),
};

/**
 * The program with the command named in `argv` registered, or every command
 * when none is named (help, version, a typo that deserves a suggestion).
 */
export async function buildProgram(argv: readonly string[] = process.argv): Promise<Command> {
  const program = new Command('tableside')
    .description(
      'Table-side daemon and tools for casino card shoes, shufflers, card readers and roulette wheels',
    )
    .version(VERSION);
  const named = argv[2];
  const loaders =
    named !== undefined && Object.hasOwn(COMMANDS, named)
      ? [COMMANDS[named]!]
      : await withGameCommands(named);
  const modules = await Promise.all(loaders.map((load) => load()));
  // In turn: `analyze` asks the games for their verbs while it registers.
  for (const command of modules) await command.register(program);
  return program;
}

/** The game's command of that name, else every command: the shipped ones, then the games' own. */
async function withGameCommands(
  named: string | undefined,
): Promise<readonly (() => Promise<CommandModule>)[]> {
  const { installedGames } = await import('./games/registry.ts');
  const games = await Promise.all(installedGames().plugins.map((game) => game.cli()));
  const own = games.flatMap((cli) => Object.entries(cli.commands));
  const match = own.find(([name]) => name === named);
  if (match) return [match[1]];
  return [...Object.values(COMMANDS), ...own.map(([, load]) => load)];
}

// `tableside analyze … | head`: a reader that has read enough closes the pipe;
// that ends the output, it is not an error to report with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

await (await buildProgram()).parseAsync(process.argv);
