/**
 * Roulette's plug-in: a wheel instead of a shoe, spins instead of cards, a
 * journal file per day, the ruleset changed between games.
 */

import type { GamePlugin, GameSession } from '../game.ts';
import { getRouletteRuleset, rouletteRulesetNames } from '../rulesets.ts';
import { rouletteConsolePress } from './console.ts';
import { rouletteDayHistory } from './history.ts';
import { rouletteScoreboard } from './scoreboard.ts';
import { RouletteSession, type RouletteState, serializeRouletteState } from './session.ts';
import { rouletteEventText } from './text.ts';
import { rouletteViewLines } from './view-lines.ts';
import { rouletteWebWatch } from './web/wheel-watch.ts';

/** The `game` a roulette checkpoint's session names (checkpoints written before the plug-ins say it too). */
const CHECKPOINT_GAME = 'roulette';

class RouletteGameSession implements GameSession {
  constructor(readonly wheel: RouletteSession) {}

  get ruleset(): string {
    return this.wheel.config.ruleset.name;
  }

  get state(): RouletteState {
    return this.wheel.state;
  }

  apply(record: Parameters<RouletteSession['apply']>[0]) {
    return this.wheel.apply(record);
  }

  expecting() {
    return this.wheel.expecting();
  }

  snapshot() {
    return this.wheel.snapshot();
  }

  trial(): GameSession {
    return new RouletteGameSession(
      new RouletteSession(this.wheel.config.ruleset, this.wheel.state),
    );
  }

  checkpoint(state: unknown = this.wheel.state): Record<string, unknown> {
    return {
      game: CHECKPOINT_GAME,
      ruleset: this.ruleset,
      state: serializeRouletteState(state as RouletteState),
    };
  }

  /** Between games: not once the betting is closed and a spin is awaited. */
  mayChangeRuleset(): boolean {
    return this.wheel.expecting().kind !== 'spin';
  }
}

/** The roulette session a plug-in's session wraps (the terminal view, `replay`). */
export function rouletteTableOf(session: GameSession): RouletteSession | undefined {
  return session instanceof RouletteGameSession ? session.wheel : undefined;
}

export const roulette: GamePlugin = {
  id: 'roulette',
  tableNoun: 'roulette table',
  rulesetNames: rouletteRulesetNames,
  ruleset: getRouletteRuleset,
  deviceKinds: ['wheel'],
  defaultDevices: { wheel: { kind: 'wheel', transport: 'simulate' } },
  simulator: 'croupier',
  simulatorHint: 'a wheel spins it (`tableside sim wheel`)',
  diagSimulation: 'wheel',
  inputTypes: ['spin', 'no_spin', 'no_more_bets', 'closing', 'reopen'],
  requestOps: ['no_more_bets', 'closing', 'reopen'],
  rulesetChangeRule:
    'the ruleset changes only between games: not once the betting is closed and a spin is awaited',
  // A roulette table has no shoe: its journal rotates daily.
  rotatesPerShoe: () => false,
  webView: () => 'roulette',
  webModules: ['table.js', 'history.js', 'scoreboard.js'],
  webViews: () => ({ table: 'table.js', history: 'history.js', scoreboard: 'scoreboard.js' }),
  scoreboard: rouletteScoreboard,
  // practice: a shuffler at a roulette table has no cards of ours to assume; red as before.
  shufflerBacks: () => ['red'],
  dayHistory: rouletteDayHistory,
  resultWords: (event) =>
    event.type === 'spin' ? [`${event.number} ${event.colour}.`] : undefined,
  // A wheel's results are its spins: no result event carries a roulette outcome.
  exposedOutcome: () => undefined,
  eventText: rouletteEventText,
  // gameweb: the wheel watch the web console keeps beside the feed (last spins, hot and cold, bias).
  webWatch: rouletteWebWatch,
  webFolder: new URL('web/public/', import.meta.url).href,
  openSession: (name) => new RouletteGameSession(new RouletteSession(name)),
  ownsCheckpoint: (session) =>
    typeof session === 'object' &&
    session !== null &&
    (session as { game?: unknown }).game === CHECKPOINT_GAME,
  restoreSession(name, session) {
    const saved = session as { ruleset?: unknown; state?: unknown };
    if (saved.ruleset !== name) {
      throw new Error(`ruleset ${name} is not the roulette session's ${String(saved.ruleset)}`);
    }
    return new RouletteGameSession(RouletteSession.deserialize(name, saved.state));
  },

  // The game's parts of the daemon (issue 35 item 1).
  publishedFolds: () => [],
  consolePress: rouletteConsolePress,
  // The lights have no step to show: the wheel reports its spin itself.
  consoleStep: () => undefined,
  viewLines: rouletteViewLines,
  // gamecli (issue 35 item 1): its `tableside` verbs.
  cli: async () => (await import('./cli/index.ts')).rouletteCli,
};
