/**
 * The card games' plug-in: every game dealt from a shoe or a deck (Punto
 * Banco, blackjack, Triple Shot, the poker games) plays through the card
 * session (validator + game engine); what differs between them is data of
 * their rulesets, read here.
 */

import type { ShuffleRecord } from '../../table/log.ts';
import { exposedCardOutcome, exposedOutcome } from '../engines.ts';
import type { GamePlugin, GameSession, SessionOptions } from '../game.ts';
import { getRuleset, rulesetNames } from '../rulesets.ts';
import {
  deserializeTableSession,
  sameSessionOptions,
  serializeTableSession,
} from '../session-codec.ts';
import { sessionConfig, TableSession } from '../table-session.ts';
import { RoadsFold } from './baccarat/roads-fold.ts';
import { cardConsolePress, cardConsoleStep } from './console.ts';
import { cardDayHistory } from './history.ts';
import { cardResultWords } from './result-words.ts';
import { cardScoreboard } from './scoreboard.ts';
import type { SessionState } from './table/index.ts';
import { cardViewLines } from './view-lines.ts';

/** practice: the scoreboard roads are baccarat's; other card games show none. */
function keepsRoads(ruleset: string): boolean {
  return getRuleset(ruleset).game === 'punto-banco';
}

class CardGameSession implements GameSession {
  constructor(readonly table: TableSession) {}

  get ruleset(): string {
    return this.table.config.ruleset.name;
  }

  get state(): SessionState {
    return this.table.state;
  }

  apply(record: Parameters<TableSession['apply']>[0]) {
    return this.table.apply(record);
  }

  expecting() {
    return this.table.expecting();
  }

  snapshot() {
    return this.table.snapshot();
  }

  trial(): GameSession {
    return new CardGameSession(new TableSession(this.table.config, this.table.state));
  }

  checkpoint(state: unknown = this.table.state): Record<string, unknown> {
    return { ...serializeTableSession(this.table.config, state as SessionState) };
  }

  /** Between shoes: none in play, one ended, or a deck-per-round game's deck used up. */
  mayChangeRuleset(): boolean {
    return this.table.expecting().kind === 'shuffle';
  }
}

/** The card session a plug-in's session wraps (the terminal view, `replay`). */
export function cardTableOf(session: GameSession): TableSession | undefined {
  return session instanceof CardGameSession ? session.table : undefined;
}

/**
 * The shuffle record of the table's next shoe from the ruleset's defaults. In
 * the games whose two decks alternate (000 § 2.c.2), its colour is the other
 * one than the last deck's, which the session keeps from the journal.
 */
function nextShuffle(session: GameSession): ShuffleRecord {
  const ruleset = getRuleset(session.ruleset);
  if (ruleset.backs.kind === 'alternating') {
    const last = (session.state as { lastColour?: string }).lastColour;
    const [first, second] = ruleset.backs.colours;
    return { t: 'shuffle', decks: 1, backs: [last === first ? second : first] };
  }
  return { t: 'shuffle', decks: ruleset.decks.default, backs: [ruleset.backs.colour] };
}

export const cardGames: GamePlugin = {
  id: 'cards',
  tableNoun: 'card table',
  rulesetNames,
  ruleset: getRuleset,
  deviceKinds: ['shoe', 'shuffler', 'reader'],
  defaultDevices: { shoe: { kind: 'shoe', transport: 'simulate' } },
  simulator: 'dealer',
  simulatorHint: 'a simulated shoe deals it (`tableside sim`)',
  diagSimulation: 'shoe',
  inputTypes: ['shuffle', 'round', 'card', 'cut', 'action', 'void', 'misdeal'],
  requestOps: ['new_round', 'player_action', 'void_hand', 'new_shoe'],
  rulesetChangeRule:
    'the ruleset changes only between shoes: when this shoe has ended (cut card or last hand), or before the first',
  // A file per round would be hundreds a day where a deck serves one round (Triple Shot, the poker games).
  rotatesPerShoe: (name) => getRuleset(name).shoeEnd.kind !== 'reshuffle_every_round',
  webView: (name) => (keepsRoads(name) ? 'baccarat' : 'cards'),
  // The card view and the card History are the console's own; the Scoreboard is the game's.
  webModules: ['roads.js', 'scoreboard.js'],
  webViews: (name) => ({ scoreboard: keepsRoads(name) ? 'roads.js' : 'scoreboard.js' }),
  scoreboard: cardScoreboard,
  shufflerBacks: (session) => [...nextShuffle(session).backs],
  dayHistory: cardDayHistory,
  // From the outcome as the table exposed it, whatever the caller holds: no hole card a fold kept face down.
  // A result no plug-in exposes (a game this build does not know) is worded here too, by its bets only.
  resultWords(event) {
    if (event.type !== 'result') return undefined;
    return [
      ...cardResultWords(exposedOutcome(event.outcome)),
      ...(event.voided?.length
        ? [`Box${event.voided.length > 1 ? 'es' : ''} ${event.voided.join(', ')} void.`]
        : []),
    ];
  },
  exposedOutcome: exposedCardOutcome,
  // Every event of a card table is one every table shares.
  eventText: () => undefined,
  // gameweb: the console's feed and roads are all a card table's view needs.
  webWatch: () => undefined,
  webFolder: new URL('web/public/', import.meta.url).href,
  openSession: (name, options: SessionOptions) =>
    new CardGameSession(new TableSession(sessionConfig(name, options))),
  ownsCheckpoint: (session) =>
    typeof session === 'object' && session !== null && 'options' in session,
  restoreSession(name, session, options) {
    const restored = deserializeTableSession(session);
    if (name !== restored.ruleset) {
      throw new Error(`ruleset ${name} ≠ the session's ${restored.ruleset}`);
    }
    const config = sessionConfig(restored.ruleset, options);
    if (!sameSessionOptions(config.options, restored.options)) {
      throw new Error('written under other session options (config changed)');
    }
    return new CardGameSession(new TableSession(config, restored.state));
  },
  nextShuffle,

  // The game's parts of the daemon (issue 35 item 1).
  publishedFolds: () => [new RoadsFold(keepsRoads)],
  consolePress: cardConsolePress,
  consoleStep: cardConsoleStep,
  viewLines: cardViewLines,
  // gamecli (issue 35 item 1): its `tableside` verbs.
  cli: async () => (await import('./cli/index.ts')).cardsCli,
};
