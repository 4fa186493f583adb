/**
 * The card games' `tableside` verbs (GamePlugin.cli): `hand` deals a round
 * from given cards, the `analyze` verbs and studies enumerate exactly, and
 * `roads` is baccarat's. Each verb's module loads when its command runs.
 */
import type { GameCli } from '../../game-cli.ts';
import { registerCardAnalyses, studyCardRuleset } from './analyze.ts';

export const cardsCli: GameCli = {
  hand: async (options) => (await import('./hand.ts')).runCardHand(options),
  registerAnalyses: registerCardAnalyses,
  studyRuleset: (name, options) => studyCardRuleset(name, options),
  commands: { roads: () => import('./roads.ts') },
};
