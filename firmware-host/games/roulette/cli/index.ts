/**
 * Roulette's `tableside` verbs (GamePlugin.cli): `hand` settles a bet slip
 * on a winning number, `analyze roulette` and `analyze wheel` are its
 * analyses, and a roulette ruleset's study is its bets' edges.
 */
import type { GameCli } from '../../game-cli.ts';
import { analyzeRouletteCommand, registerRouletteAnalyses } from './analyze.ts';

export const rouletteCli: GameCli = {
  hand: async (options) => (await import('./hand.ts')).runRouletteHand(options),
  registerAnalyses: registerRouletteAnalyses,
  studyRuleset: (name, options) =>
    analyzeRouletteCommand({ ruleset: name, ...(options.json ? { json: true } : {}) }),
  commands: {},
};
