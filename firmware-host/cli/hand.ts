import type { Command } from 'commander';
import type { HandOptions } from '../games/game-cli.ts';

/**
 * `tableside hand`: deals one round from the given cards, in shoe order,
 * through the ruleset's engine (no burn, no shoe state) and prints who got
 * which card and the result of every bet, or settles a bet slip on a
 * wheel's number: the game that plays the ruleset settles it (GamePlugin.cli).
 */
export function register(program: Command): void {
  program
    .command('hand')
    .description('deal one round from given cards and print the outcome (settles disputes)')
    .requiredOption('--ruleset <name>', 'ruleset, as listed by `tableside rulesets`')
    .option('--cards <cards>', 'cards in shoe order, e.g. "9H 2C TD 7S" (card games)')
    .option('--number <n>', 'roulette: the winning number, 0-36')
    .option(
      '--bets <slip>',
      'roulette: bets as NAME=STAKE, e.g. "straight:17=10 split:17-20=5 voisins=9"',
    )
    .option(
      '--actions <decisions>',
      'decisions in order, SEAT:ACTION, e.g. "box1:double box2:stand"; a card drawn while a box decides is a hit',
    )
    .option('--boxes <list>', 'boxes in play, e.g. 1,3 (games with boxes; default 1)')
    .option(
      '--dark <list>',
      "boxes played dark, e.g. 2 (Russian poker, TDC casino hold'em): bets in before the deal, no decisions; each also in --boxes",
    )
    .option(
      '--stakes <list>',
      'stakes per bet for amount-dependent rules, e.g. "box:1.war=10 box:1.poker=20"',
    )
    .option('--json', 'print the outcome as JSON')
    .addHelpText(
      'after',
      `
Decisions (--actions): SEAT:ACTION separated by spaces, SEAT is boxN or dealer.
Actions: hit stand double split surrender insurance no_insurance even_money
(and the poker games' fold bet check raise exchange buy). Decisions are taken
in order as each seat comes to decide; when a seat is deciding and the next
decision listed is someone else's, the next card is that seat's hit, as at
the table where the shoe cannot see a decision. After a split, decisions apply
to the hand being played; dealer:next closes the insurance round (everyone
declines), as does simply dealing the next card.

Dark boxes (--dark, 004): a box played dark has its bets in before the deal
and makes no decision (no exchange, buy, call or fold); only the games that
offer it accept it (tdc-russian-poker, tdc-casino-holdem).

Examples:
  tableside hand --ruleset tdc-baccarat-no-commission --cards "9H 2C TD 7S"
  tableside hand --ruleset tdc-blackjack --boxes 1,2 --cards "TS 5H 6D 5C 7S 9H 3H TC" --actions "box1:stand box2:double"
  tableside hand --ruleset peru-triple-shot --cards "KH 7D 9H TC 2H 5H 3H 8C 4C 6S JD 2S" --actions box1:stand
  tableside hand --ruleset tdc-casino-holdem --boxes 1,2 --dark 2 --cards "AS KS 2C 7D QH QD 9S 4C TS 5H 3D" --actions box1:bet
  tableside hand --ruleset tdc-roulette --number 17 --bets "straight:17=10 split:17-20=5 red=10 voisins=9"

Roulette bets (--bets NAME=STAKE): straight:N, split:LOW-HIGH, street:FIRST
(trios street:0-1-2, street:0-2-3), corner:LOW-HIGH (first four corner:0-3),
sixline:FIRST or sixline:FIRST-LAST, dozen:1-3, column:1-3, red black even odd
low high; call bets neighbours:N, voisins, tiers, orphelins, zero-spiel,
complete:N (the stake a whole number of units). A bet that is not on the
layout, or a stake that does not fit, exits 2.`,
    )
    .action(async (options: HandOptions) => {
      try {
        // The ruleset's game settles its hand; an unknown name is an error listing every game's.
        const { gameOf } = await import('../games/registry.ts');
        await (await gameOf(options.ruleset).cli()).hand(options);
      } catch (error) {
        process.stderr.write(
          `tableside hand: ${error instanceof Error ? error.message : String(error)}\n`,
        );
        process.exitCode = 1;
      }
    });
}
