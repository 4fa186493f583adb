import type { Command } from 'commander';

/** `tableside rulesets`: the shipped rulesets; `rulesets show NAME [--json]`: one of them. */
export function register(program: Command): void {
  const rulesets = program
    .command('rulesets')
    .description('list the game rulesets, or show one')
    .option('--json', 'print the list as JSON')
    .action(async (options: { json?: boolean }) => {
      await guarded('rulesets', async () => {
        const { listRulesets, listRouletteRulesets } = await import('../games/rulesets.ts');
        const all = [...listRulesets(), ...listRouletteRulesets()];
        if (options.json) {
          const rows = all.map(({ name, game, jurisdiction, title }) => ({
            name,
            game,
            jurisdiction,
            title,
          }));
          process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
          return;
        }
        const rows = [
          ['NAME', 'GAME', 'JURISDICTION', 'TITLE'],
          ...all.map((r) => [r.name, r.game, r.jurisdiction, r.title]),
        ];
        process.stdout.write(table(rows));
      });
    });
  rulesets
    .command('show')
    .description(
      'print one ruleset: decks, backs, burn, shoe end, misdeal policy, pay tables, sources',
    )
    .argument('<name>', 'ruleset name, as listed by `tableside rulesets`')
    .option('--json', 'print as JSON')
    .action(async (name: string, _options: unknown, command: Command) => {
      await guarded('rulesets show', async () => {
        const { gameOf } = await import('../games/registry.ts');
        // Any game's ruleset; an unknown name lists every game's.
        const ruleset = gameOf(name).ruleset(name);
        // `--json` may land on the parent `rulesets` command, which has its own.
        if (command.optsWithGlobals<{ json?: boolean }>().json) {
          process.stdout.write(`${JSON.stringify(ruleset, null, 2)}\n`);
          return;
        }
        const { stringify } = await import('yaml');
        process.stdout.write(stringify(ruleset, { lineWidth: 100 }));
      });
    });
}

function table(rows: readonly (readonly string[])[]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!)))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}

/** Runs a command body; an error becomes one line on stderr and exit code 1, never a stack trace. */
async function guarded(command: string, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    process.stderr.write(
      `tableside ${command}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
