import type { Command } from 'commander';
import type { StudyCommandOptions } from '../games/game-cli.ts';

/**
 * `tableside analyze`: exact probability and house-edge analysis (exhaustive
 * enumeration or exact combinatorics, never sampling). Each game brings its
 * own verbs and its rulesets' study (GamePlugin.cli); this module gathers
 * them from the installed games and sends `analyze ruleset NAME` to the game
 * that plays NAME.
 */
export async function register(program: Command): Promise<void> {
  const analyze = program
    .command('analyze')
    .description('exact house-edge and probability analysis (exhaustive enumeration, no sampling)');

  const { installedGames } = await import('../games/registry.ts');
  const games = installedGames().plugins;
  for (const cli of await Promise.all(games.map((game) => game.cli()))) {
    cli.registerAnalyses(analyze, run);
  }

  analyze
    .command('ruleset')
    .description(
      "any shipped ruleset's study, by its game: every bet computed exactly or named as strategy-dependent",
    )
    .argument('<name>', 'a ruleset name (tableside rulesets lists them)')
    .option(
      '--quick',
      'skip the enumerations that take more than a few seconds (the output names them)',
    )
    .option('--json', 'print JSON')
    .action((name: string, options: StudyCommandOptions) =>
      run('ruleset', async () => {
        const game = installedGames().gameOf(name);
        await (await game.cli()).studyRuleset(name, options);
      }),
    );
}

async function run(name: string, action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    process.stderr.write(
      `tableside analyze ${name}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
