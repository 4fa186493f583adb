/**
 * The card games' `tableside analyze` verbs (poker, baccarat,
 * blackjack-dealer, holdem-bonus, triple-shot and each poker game's study)
 * and their `analyze ruleset NAME` study: exact probability and house-edge
 * analysis (exhaustive enumeration or exact combinatorics, never sampling).
 * The enumerations live in each game's analysis modules (pure); this module
 * parses options, loads the analysis lazily, and prints a table or JSON
 * with the run time.
 *
 * JSON conventions: counts are decimal strings (exact at any size);
 * probabilities, returns and edges are fractions of 1 as numbers, with the
 * exact fraction beside them as a string where the analysis has one.
 */
import type { Command } from 'commander';
import {
  percent,
  print,
  progressBar,
  seconds,
  stagedProgressBar,
  table,
} from '../../../cli/analysis-output.ts';
import type { GameId, Ruleset, RulesetOf } from '../../../engine/rulesets/schema.ts';
import type { AnalysisRunner, StudyCommandOptions } from '../../game-cli.ts';

interface JsonOption {
  json?: boolean;
}

export function registerCardAnalyses(analyze: Command, run: AnalysisRunner): void {
  analyze
    .command('poker')
    .description('count every 5, 6 or 7-card hand from one deck by category (best five)')
    .requiredOption('--cards <n>', 'hand size: 5, 6 or 7')
    .option('--json', 'print JSON')
    .action((options: JsonOption & { cards: string }) => run('poker', () => analyzePoker(options)));

  analyze
    .command('baccarat')
    .description("every coup of an N-deck shoe: outcome counts, each bet's return and house edge")
    .requiredOption('--decks <n>', 'decks in the shoe, 1-16')
    .option('--ruleset <name>', 'a punto-banco ruleset (payouts)', 'bulgaria-punto-banco')
    .option('--json', 'print JSON')
    .action((options: JsonOption & { decks: string; ruleset: string }) =>
      run('baccarat', () => analyzeBaccaratCommand(options)),
    );

  analyze
    .command('blackjack-dealer')
    .description("the dealer's final hand from a full shoe: 17-21, blackjack, bust")
    .requiredOption('--decks <n>', 'decks in the shoe, 1-16')
    .option('--h17', 'dealer hits soft 17 (default: stands on all 17s, 003 § 15(6); 004)')
    .option('--json', 'print JSON')
    .action((options: JsonOption & { decks: string; h17?: boolean }) =>
      run('blackjack-dealer', () => analyzeDealerCommand(options)),
    );

  analyze
    .command('holdem-bonus')
    .description("Texas Hold'em Bonus: the two-card Bonus bet's distribution and house edge (001)")
    .option('--ruleset <name>', 'a holdem-bonus ruleset (its Bonus table)', 'spain-holdem-bonus')
    .option('--json', 'print JSON')
    .action((options: JsonOption & { ruleset: string }) =>
      run('holdem-bonus', () => analyzeHoldemBonusCommand(options)),
    );

  analyze
    .command('triple-shot')
    .description('Triple Shot (000): War edge, six-card poker distribution; what needs a strategy')
    .option('--ruleset <name>', 'a triple-shot ruleset', 'peru-triple-shot')
    .option('--no-poker-bet', "skip the Poker bet's head-to-head enumeration (a few seconds)")
    .option('--json', 'print JSON')
    .action((options: JsonOption & { ruleset: string; pokerBet: boolean }) =>
      run('triple-shot', () => analyzeTripleShotCommand(options)),
    );

  // Each poker game's study verb: its default ruleset, its help and, where a long enumeration can be skipped, `--quick`'s help.
  const poker = [
    [
      'casino-holdem',
      'tdc-casino-holdem',
      "Casino Texas Hold'em (004): the Bonus exactly; Ante/Call under always-call",
      'skip the always-call enumeration (about a second)',
    ],
    [
      'caribbean-stud',
      'bulgaria-caribbean-stud',
      'Caribbean stud (003 § 24-26): the Bonus exactly; always-raise',
    ],
    [
      'russian-poker',
      'tdc-russian-poker',
      'Russian poker (004): what needs a strategy; the dark box exactly',
    ],
    [
      'seven-card-stud',
      'bulgaria-seven-card-stud',
      "Seven-card stud (003 § 27-28): the house's commission; 7-card hands",
    ],
  ] as const;
  for (const [game, fallback, description, quickHelp] of poker) {
    const command = analyze
      .command(game)
      .description(description)
      .option('--ruleset <name>', `a ${game} ruleset`, fallback)
      .option('--json', 'print JSON');
    if (quickHelp !== undefined) command.option('--quick', quickHelp);
    command.action((options: StudyCommandOptions & { ruleset: string }) =>
      run(game, () => studyCardRuleset(options.ruleset, options, game)),
    );
  }
}

// ------------------------------------------------------------------ helpers

/** The ruleset, if it is of the game a verb studies; else the error naming both. */
function rulesetOfGame<G extends GameId>(ruleset: Ruleset, game: G): RulesetOf<G> {
  if (ruleset.game !== game) {
    throw new Error(`ruleset ${ruleset.name} is a ${ruleset.game} ruleset, not ${game}`);
  }
  return ruleset as RulesetOf<G>;
}

function wholeNumber(text: string, what: string): number {
  if (!/^\d+$/.test(text.trim())) {
    throw new Error(`${what} must be a whole number, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

// ------------------------------------------------------------------- poker

async function analyzePoker(options: JsonOption & { cards: string }): Promise<void> {
  const [{ pokerCategoryCounts, checkHandSize }, { choose, countRows, groupDigits }] =
    await Promise.all([import('../poker/analysis/poker.ts'), import('../../../analysis/exact.ts')]);
  const cards = checkHandSize(wholeNumber(options.cards, '--cards'));
  const bar = await progressBar(Number(choose(52, cards)));
  const start = performance.now();
  let result: Awaited<ReturnType<typeof pokerCategoryCounts>>;
  try {
    result = pokerCategoryCounts(cards, (done) => bar.update(done));
  } finally {
    bar.stop();
  }
  const runTime = seconds(start);
  const handsPerSecond = Math.round(Number(result.total) / Math.max(runTime, 0.001));
  const categories = Object.entries(result.categories);
  if (options.json) {
    print({
      cards,
      total: result.total.toString(),
      categories: Object.fromEntries(categories.map(([name, count]) => [name, count.toString()])),
      run_time_s: runTime,
      hands_per_second: handsPerSecond,
    });
    return;
  }
  process.stdout.write(`Every ${cards}-card hand from one 52-card deck, best five (000 § 4)\n\n`);
  process.stdout.write(
    table(['category', 'hands', 'probability'], countRows(categories, result.total, 9, true)),
  );
  process.stdout.write(
    `\nrun time ${runTime.toFixed(2)} s, ${groupDigits(handsPerSecond)} hands per second\n`,
  );
}

// ---------------------------------------------------------------- baccarat

async function analyzeBaccaratCommand(
  options: JsonOption & { decks: string; ruleset: string },
): Promise<void> {
  const [{ enumerateBaccarat, analyzeBaccarat }, { getRuleset }, { countRows, countsJson }] =
    await Promise.all([
      import('../baccarat/analysis.ts'),
      import('../../rulesets.ts'),
      import('../../../analysis/exact.ts'),
    ]);
  const decks = wholeNumber(options.decks, '--decks');
  const ruleset = rulesetOfGame(getRuleset(options.ruleset), 'punto-banco');
  const start = performance.now();
  const analysis = analyzeBaccarat(enumerateBaccarat(decks, ruleset.tableau), ruleset);
  const runTime = seconds(start);
  const outcomes = Object.entries(analysis.outcomes);
  const bets = Object.entries(analysis.bets);
  if (options.json) {
    print({
      decks,
      ruleset: ruleset.name,
      total: analysis.total.toString(),
      outcomes: countsJson(outcomes, analysis.total),
      bets: Object.fromEntries(
        bets.map(([name, bet]) => [
          name,
          {
            expected_return: bet.expectedReturn.toNumber(),
            house_edge: bet.houseEdge.toNumber(),
            house_edge_exact: bet.houseEdge.toString(),
            offered: bet.offered,
            source: bet.source,
          },
        ]),
      ),
      run_time_s: runTime,
    });
    return;
  }
  process.stdout.write(
    `Punto Banco, ${decks} decks, ruleset ${ruleset.name}: every coup, weighted to six cards\n\n`,
  );
  process.stdout.write(
    table(['outcome', 'deals', 'probability'], countRows(outcomes, analysis.total, 8, true)),
  );
  process.stdout.write('\n');
  process.stdout.write(
    table(
      ['bet', 'expected return', 'house edge', 'offered'],
      bets.map(([name, bet]) => [
        name,
        percent(bet.expectedReturn.toNumber()),
        percent(bet.houseEdge.toNumber()),
        bet.offered ? 'yes' : 'no (analysed as the ruleset would pay it)',
      ]),
    ),
  );
  process.stdout.write(`\nrun time ${runTime.toFixed(3)} s\n`);
}

// -------------------------------------------------------- blackjack dealer

async function analyzeDealerCommand(
  options: JsonOption & { decks: string; h17?: boolean },
): Promise<void> {
  const [{ analyzeDealer }, { countRows, countsJson }] = await Promise.all([
    import('../blackjack/analysis.ts'),
    import('../../../analysis/exact.ts'),
  ]);
  const decks = wholeNumber(options.decks, '--decks');
  const hitSoft17 = options.h17 === true;
  const start = performance.now();
  const analysis = analyzeDealer(decks, hitSoft17);
  const runTime = seconds(start);
  const outcomes = Object.entries(analysis.outcomes);
  if (options.json) {
    print({
      decks,
      h17: hitSoft17,
      total: analysis.total.toString(),
      longest_hand: analysis.longestHand,
      outcomes: countsJson(outcomes, analysis.total),
      run_time_s: runTime,
    });
    return;
  }
  process.stdout.write(
    `Dealer's final hand, ${decks} decks, ${hitSoft17 ? 'hits' : 'stands on'} soft 17, from a full shoe\n`,
  );
  process.stdout.write(
    `(counts are ordered draws completed to ${analysis.longestHand} cards, the longest dealer hand)\n\n`,
  );
  process.stdout.write(
    table(['final', 'draws', 'probability'], countRows(outcomes, analysis.total, 8)),
  );
  process.stdout.write(`\nrun time ${runTime.toFixed(3)} s\n`);
}

// ------------------------------------------------------------ holdem bonus

async function analyzeHoldemBonusCommand(options: JsonOption & { ruleset: string }): Promise<void> {
  const [{ analyzeHoldemBonus }, { getRuleset }, { groupDigits, ratio }] = await Promise.all([
    import('../poker/analysis/holdem-bonus.ts'),
    import('../../rulesets.ts'),
    import('../../../analysis/exact.ts'),
  ]);
  const ruleset = rulesetOfGame(getRuleset(options.ruleset), 'holdem-bonus');
  const start = performance.now();
  const analysis = analyzeHoldemBonus(ruleset.bonus);
  const runTime = seconds(start);
  if (options.json) {
    print({
      ruleset: ruleset.name,
      total: analysis.total.toString(),
      hands: analysis.lines.map((line) => ({
        hand: line.label,
        pays: line.pays,
        count: line.count.toString(),
        probability: ratio(line.count, analysis.total),
      })),
      expected_return: analysis.expectedReturn.toNumber(),
      house_edge: analysis.houseEdge.toNumber(),
      house_edge_exact: analysis.houseEdge.toString(),
      source: analysis.source,
      run_time_s: runTime,
    });
    return;
  }
  process.stdout.write(
    `Texas Hold'em Bonus, Bonus bet, ruleset ${ruleset.name}: every player hand with every dealer hand\n\n`,
  );
  process.stdout.write(
    table(
      ['hand', 'pays', 'deals', 'probability'],
      analysis.lines.map((line) => [
        line.label,
        line.pays < 0 ? 'loses' : `${line.pays}:1`,
        groupDigits(line.count),
        ratio(line.count, analysis.total).toFixed(8),
      ]),
    ),
  );
  process.stdout.write(
    `\ntotal ${groupDigits(analysis.total)} deals; expected return ${percent(analysis.expectedReturn.toNumber())}, house edge ${percent(analysis.houseEdge.toNumber())} (exactly ${analysis.houseEdge})\n`,
  );
  process.stdout.write(`source: ${analysis.source}\nrun time ${runTime.toFixed(3)} s\n`);
}

// ------------------------------------------------------------- triple shot

async function analyzeTripleShotCommand(
  options: JsonOption & { ruleset: string; pokerBet: boolean },
): Promise<void> {
  const [{ analyzeTripleShot }, { getRuleset }, { groupDigits, ratio }] = await Promise.all([
    import('../triple-shot/analysis.ts'),
    import('../../rulesets.ts'),
    import('../../../analysis/exact.ts'),
  ]);
  const ruleset = rulesetOfGame(getRuleset(options.ruleset), 'triple-shot');
  const bar = await stagedProgressBar();
  const start = performance.now();
  let analysis: ReturnType<typeof analyzeTripleShot>;
  try {
    analysis = analyzeTripleShot(ruleset, {
      pokerBet: options.pokerBet,
      onProgress: bar.update,
    });
  } finally {
    bar.stop();
  }
  const runTime = seconds(start);
  const { war, poker, pokerBet } = analysis;
  const categories = Object.entries(poker.categories);
  if (options.json) {
    print({
      ruleset: ruleset.name,
      war: {
        total: war.total.toString(),
        win: war.win.toString(),
        tie: war.tie.toString(),
        lose: war.lose.toString(),
        expected_return: war.expectedReturn.toNumber(),
        house_edge: war.houseEdge.toNumber(),
        house_edge_exact: war.houseEdge.toString(),
        source: war.source,
      },
      poker: {
        cards: 6,
        total: poker.total.toString(),
        categories: Object.fromEntries(
          categories.map(([name, count]) => [
            name,
            {
              count: count.toString(),
              probability: ratio(count, poker.total),
              pays: ruleset.poker.table[name as keyof typeof ruleset.poker.table],
            },
          ]),
        ),
      },
      poker_bet: pokerBet && {
        total: pokerBet.total.toString(),
        by_category: Object.fromEntries(
          Object.entries(pokerBet.byCategory).map(([name, { win, tie, lose }]) => [
            name,
            { win: win.toString(), tie: tie.toString(), lose: lose.toString() },
          ]),
        ),
        expected_return: pokerBet.expectedReturn.toNumber(),
        house_edge: pokerBet.houseEdge.toNumber(),
        house_edge_exact: pokerBet.houseEdge.toString(),
        source: pokerBet.source,
        assumes: 'no dealer qualifier (000 names none); ties as the ruleset says',
      },
      not_computed: analysis.notComputed,
      run_time_s: runTime,
    });
    return;
  }
  process.stdout.write(`Triple Shot, ruleset ${ruleset.name}\n\n`);
  process.stdout.write(
    `War (${war.source}): ${groupDigits(war.total)} ordered deals, win ${groupDigits(war.win)}, tie ${groupDigits(war.tie)}, lose ${groupDigits(war.lose)}\n`,
  );
  process.stdout.write(
    `  expected return ${percent(war.expectedReturn.toNumber())}, house edge ${percent(war.houseEdge.toNumber())} (exactly ${war.houseEdge})\n\n`,
  );
  process.stdout.write('Six-card poker hands, best five (000 § 1.i, § 4), whatever the play:\n');
  process.stdout.write(
    table(
      ['category', 'pays if it beats the dealer', 'hands', 'probability'],
      categories.map(([name, count]) => [
        name,
        `${ruleset.poker.table[name as keyof typeof ruleset.poker.table]}:1`,
        groupDigits(count),
        ratio(count, poker.total).toFixed(9),
      ]),
    ),
  );
  if (pokerBet) {
    process.stdout.write(
      `\nPoker bet against the dealer's six cards (${pokerBet.source}; no dealer qualifier, 000 names none):\n`,
    );
    process.stdout.write(
      table(
        ['player hand', 'wins', 'ties', 'loses'],
        Object.entries(pokerBet.byCategory).map(([name, { win, tie, lose }]) => [
          name,
          groupDigits(win),
          groupDigits(tie),
          groupDigits(lose),
        ]),
      ),
    );
    process.stdout.write(
      `  ${groupDigits(pokerBet.total)} ordered deals; expected return ${percent(pokerBet.expectedReturn.toNumber())}, house edge ${percent(pokerBet.houseEdge.toNumber())}\n`,
    );
  }
  process.stdout.write('\nNot computed:\n');
  for (const { bet, reason } of analysis.notComputed) process.stdout.write(`  ${bet}: ${reason}\n`);
  process.stdout.write(`\nrun time ${runTime.toFixed(2)} s\n`);
}

/** `analyze ruleset NAME` (and each poker game's verb): the ruleset's study, every bet computed or named. */
export async function studyCardRuleset(
  name: string,
  options: StudyCommandOptions,
  game?: GameId,
): Promise<void> {
  const [{ studyRuleset }, { betJson, edgePerUnitStaked }, { getRuleset }] = await Promise.all([
    import('../studies.ts'),
    import('../poker/analysis/study.ts'),
    import('../../rulesets.ts'),
  ]);
  const ruleset = getRuleset(name);
  if (game !== undefined) rulesetOfGame(ruleset, game);
  const bar = await stagedProgressBar();
  const start = performance.now();
  let study: ReturnType<typeof studyRuleset>;
  try {
    // The long enumerations first, on every core (analysis-threads.ts).
    const { precomputeStudy } = await import('./analysis-threads.ts');
    await precomputeStudy(ruleset, options.quick === true, bar.update);
    study = studyRuleset(ruleset, { quick: options.quick === true, onProgress: bar.update });
  } finally {
    bar.stop();
  }
  const runTime = seconds(start);
  if (options.json) {
    print({
      ruleset: study.ruleset,
      game: study.game,
      title: study.title,
      quick: options.quick === true,
      bets: Object.fromEntries(study.bets.map((bet) => [bet.bet, betJson(bet)])),
      details: study.details,
      notes: study.notes,
      run_time_s: runTime,
    });
    return;
  }
  process.stdout.write(`${study.title}, ruleset ${study.ruleset} (${study.game})\n\n`);
  const edge = (f: Parameters<typeof edgePerUnitStaked>[0]) => {
    const perStake = edgePerUnitStaked(f);
    return `${percent(f.houseEdge.toNumber())} per ${f.per}${perStake === null ? '' : ` (${percent(perStake)} of all staked)`}`;
  };
  process.stdout.write(
    table(
      ['bet', 'status', 'house edge'],
      study.bets.map((bet) => [
        bet.bet,
        bet.status.replace('_', ' '),
        bet.status === 'computed'
          ? edge(bet)
          : bet.status === 'skipped'
            ? 'skipped (--quick)'
            : bet.assumed && !('notComputed' in bet.assumed)
              ? `${edge(bet.assumed)} under the strategy below`
              : 'not computed',
      ]),
      3,
    ),
  );
  process.stdout.write('\n');
  for (const bet of study.bets) {
    if (bet.status === 'computed') {
      process.stdout.write(
        `${bet.bet}: exactly ${bet.houseEdge} per ${bet.per}${bet.assumes ? `; assumes ${bet.assumes}` : ''} (${bet.source})\n`,
      );
      continue;
    }
    process.stdout.write(`${bet.bet}: ${bet.reason} (${bet.source})\n`);
    if (bet.status === 'strategy_dependent' && bet.assumed) {
      process.stdout.write(
        'notComputed' in bet.assumed
          ? `  strategy "${bet.assumed.strategy}": ${bet.assumed.notComputed}\n`
          : `  strategy "${bet.assumed.strategy}": house edge exactly ${bet.assumed.houseEdge} per ${bet.assumed.per}\n`,
      );
    }
  }
  for (const section of study.tables) {
    process.stdout.write(`\n${section.title}\n`);
    process.stdout.write(table(section.header, section.rows));
  }
  if (study.notes.length > 0) {
    process.stdout.write('\nNotes:\n');
    for (const note of study.notes) process.stdout.write(`  ${note}\n`);
  }
  process.stdout.write(`\nrun time ${runTime.toFixed(2)} s\n`);
}
