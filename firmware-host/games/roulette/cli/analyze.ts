/**
 * `tableside analyze roulette` (every bet's exact house edge) and
 * `tableside analyze wheel JOURNAL_DIR` (the wheel-bias watch over the
 * spins a table journalled). The analyses are pure, in analysis/; this
 * module reads the journal, prints and draws.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { WheelSpin } from '../analysis/wheel-bias.ts';

interface RouletteOptions {
  ruleset: string;
  json?: boolean;
}

interface WheelOptions {
  ruleset: string;
  json?: boolean;
  svg?: string;
  falseAlarm?: string;
  last?: string;
}

export function registerRouletteAnalyses(
  analyze: Command,
  run: (name: string, action: () => Promise<void>) => Promise<void>,
): void {
  analyze
    .command('roulette')
    .description("every roulette bet's exact house edge, call bets included (003 § 12; 004)")
    .option('--ruleset <name>', 'a roulette ruleset', 'tdc-roulette')
    .option('--json', 'print JSON')
    .action((options: RouletteOptions) => run('roulette', () => analyzeRouletteCommand(options)));

  analyze
    .command('wheel')
    .description(
      'wheel-bias watch over the spins in a journal: frequencies, sectors, direction split, repeats',
    )
    .argument('<journal>', 'journal folder (journal.dir of the config), or a table log file')
    .option(
      '--ruleset <name>',
      "a roulette ruleset (the wheel's order and colours)",
      'tdc-roulette',
    )
    .option('--false-alarm <p>', 'false-alarm rate per test per report', '0.001')
    .option('--last <n>', 'only the last n spins')
    .option('--svg <file>', 'also draw the chart as SVG into this file')
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      `
Each test fires when its p-value is below the false-alarm rate: on a fair
wheel each fires with at most that probability per report (docs/operator/wheel-bias.md).
Exit 0 when the spins were read, whatever the tests found.

Examples:
  tableside analyze wheel /var/lib/tableside/journal
  tableside analyze wheel /var/lib/tableside/journal --last 2000 --svg wheel.svg`,
    )
    .action((journal: string, options: WheelOptions) =>
      run('wheel', () => analyzeWheelCommand(journal, options)),
    );
}

export async function analyzeRouletteCommand(options: RouletteOptions): Promise<void> {
  const [{ analyzeRoulette }, { getRouletteRuleset }, { print, table, percent }] =
    await Promise.all([
      import('../analysis/roulette.ts'),
      import('../../rulesets.ts'),
      import('../../../cli/analysis-output.ts'),
    ]);
  const ruleset = getRouletteRuleset(options.ruleset);
  const analysis = analyzeRoulette(ruleset);
  if (options.json) {
    print({
      ruleset: ruleset.name,
      pockets: analysis.pockets,
      zero: ruleset.zero.outsideBets,
      bets: Object.fromEntries(
        analysis.bets.map((bet) => [
          bet.bet,
          {
            instances: bet.instances,
            chips: bet.chips,
            pays: bet.pays,
            win_probability: bet.winProbability?.toNumber() ?? null,
            win_probability_exact: bet.winProbability?.toString() ?? null,
            expected_return: bet.expectedReturn.toNumber(),
            expected_return_exact: bet.expectedReturn.toString(),
            house_edge: bet.houseEdge.toNumber(),
            house_edge_exact: bet.houseEdge.toString(),
            ...(bet.range
              ? {
                  house_edge_range_exact: [
                    bet.range.lowest.toString(),
                    bet.range.highest.toString(),
                  ],
                }
              : {}),
            source: bet.source,
          },
        ]),
      ),
    });
    return;
  }
  process.stdout.write(
    `${ruleset.title}, ruleset ${ruleset.name}: every bet settled on each of the 37 numbers\n\n`,
  );
  process.stdout.write(
    table(
      ['bet', 'instances', 'chips', 'pays', 'house edge', 'exactly'],
      analysis.bets.map((bet) => [
        bet.bet,
        String(bet.instances),
        typeof bet.chips === 'number' ? String(bet.chips) : bet.chips.join('-'),
        bet.pays === null ? 'per part' : `${bet.pays}:1`,
        percent(bet.houseEdge.toNumber()),
        bet.range ? `${bet.range.lowest} .. ${bet.range.highest}` : bet.houseEdge.toString(),
      ]),
    ),
  );
  process.stdout.write(
    `\nzero and the outside bets: ${ruleset.zero.outsideBets} (${ruleset.zero.source})\n`,
  );
}

interface ReadSpins {
  spins: WheelSpin[];
  /** Lines or records that could not be read as a spin. */
  skipped: number;
  /** Results with no rotor spin or no ball launch before them: void games (003 § 11(5)), not fair spins. */
  voided: number;
}

/**
 * Spin records in order: from a journal folder (chain checked) or a table
 * log file. A result the wheel saw without a rotor spin or a ball launch is
 * a ball dropped unspun: the table session voids that game, and it is no
 * evidence about the wheel, so it is counted apart.
 */
async function readSpins(path: string): Promise<ReadSpins> {
  const spins: WheelSpin[] = [];
  let skipped = 0;
  let voided = 0;
  const take = (data: unknown) => {
    if (typeof data !== 'object' || data === null || (data as { t?: unknown }).t !== 'spin') return;
    const record = data as {
      number?: unknown;
      rotor?: unknown;
      ball?: unknown;
      revolutions?: unknown;
    };
    const number = record.number;
    if (typeof number !== 'number' || !Number.isInteger(number) || number < 0 || number > 36) {
      skipped++;
      return;
    }
    const direction = (value: unknown) => (value === 'cw' || value === 'ccw' ? value : undefined);
    const rotor = direction(record.rotor);
    const ball = direction(record.ball);
    if (!rotor || !ball) {
      voided++;
      return;
    }
    spins.push({
      number,
      rotor,
      ball,
      ...(typeof record.revolutions === 'number' ? { revolutions: record.revolutions } : {}),
    });
  };
  if ((await stat(path)).isDirectory()) {
    const { readJournalRecords } = await import('../../../journal/journal.ts');
    for await (const record of readJournalRecords(path)) {
      if (record.kind === 'input') take(record.data);
    }
    return { spins, skipped, voided };
  }
  for (const line of (await readFile(path, 'utf8')).split(/\r?\n/)) {
    if (line.trim() === '') continue;
    try {
      take(JSON.parse(line));
    } catch {
      skipped++;
    }
  }
  return { spins, skipped, voided };
}

export async function analyzeWheelCommand(path: string, options: WheelOptions): Promise<void> {
  const [
    { analyzeWheel, wheelBiasOptionsSchema },
    { wheelChartText, wheelChartSvg },
    { getRouletteRuleset },
    { print },
  ] = await Promise.all([
    import('../analysis/wheel-bias.ts'),
    import('../analysis/wheel-chart.ts'),
    import('../../rulesets.ts'),
    import('../../../cli/analysis-output.ts'),
  ]);
  const ruleset = getRouletteRuleset(options.ruleset);
  const falseAlarm = Number(options.falseAlarm ?? '0.001');
  if (!(falseAlarm > 0 && falseAlarm <= 0.5)) {
    throw new Error(
      `--false-alarm must be a probability above 0 and at most 0.5, got ${JSON.stringify(options.falseAlarm)}`,
    );
  }
  let last: number | undefined;
  if (options.last !== undefined) {
    if (!/^[1-9][0-9]*$/.test(options.last))
      throw new Error(
        `--last must be a whole number of spins, got ${JSON.stringify(options.last)}`,
      );
    last = Number(options.last);
  }
  const read = await readSpins(path);
  const spins = last === undefined ? read.spins : read.spins.slice(-last);
  if (spins.length === 0) throw new Error(`no spin records in ${path}`);
  const report = analyzeWheel(
    ruleset.wheel.order,
    spins,
    wheelBiasOptionsSchema.parse({ falseAlarm }),
  );
  if (options.svg !== undefined) {
    await writeFile(options.svg, wheelChartSvg(report, ruleset.wheel, `Wheel bias watch: ${path}`));
  }
  if (options.json) {
    print({ ruleset: ruleset.name, skipped: read.skipped, voided: read.voided, ...report });
    return;
  }
  process.stdout.write(wheelChartText(report, ruleset.wheel));
  process.stdout.write(`\ntests (false-alarm rate ${falseAlarm} per test per report)\n`);
  for (const test of report.tests) {
    const status = !test.ran ? 'not run' : test.alarm ? 'ALARM' : 'ok';
    process.stdout.write(`  ${test.test.padEnd(16)} ${status.padEnd(8)} ${test.detail}\n`);
  }
  if (read.skipped > 0)
    process.stdout.write(`\n${read.skipped} unreadable spin record(s) skipped\n`);
  if (read.voided > 0) {
    process.stdout.write(
      `${read.voided} result(s) with no rotor spin or no ball launch left out (void games, 003 § 11(5))\n`,
    );
  }
  if (options.svg !== undefined) process.stdout.write(`\nchart written to ${options.svg}\n`);
  process.stdout.write(
    `\n${report.alarms === 0 ? 'no alarm' : `${report.alarms} ALARM(S)`} over ${report.spins} spins\n`,
  );
}
