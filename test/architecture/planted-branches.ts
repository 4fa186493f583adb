/**
 * Planted branches and imports the ownership check must catch (issue 35):
 * the review's 18, among them the 5 the spelling check let through (a
 * ruleset-name comparison, `.includes` of a game's name, a game tag, a
 * branch in the web console's scripts, `case 'wheel'`), and every other form
 * of branch the check knows, on every kind of name, in TypeScript and in a
 * browser script. Each is one line, planted as line 1 of `file`.
 */

export interface Planted {
  kind: string;
  file: string;
  source: string;
  /** What the check must say about line 1 of `file`. */
  says: RegExp;
}

const DAEMON = 'firmware-host/daemon/planted.ts';
const WEB_SCRIPT = 'firmware-host/web/public/planted.js';

export const PLANTED_BRANCHES: readonly Planted[] = [
  // What the spelling check caught already.
  {
    kind: 'an isRoulette predicate',
    file: DAEMON,
    source: 'if (isRouletteRuleset(name)) start();',
    says: /asks isRouletteRuleset/,
  },
  {
    kind: 'a comparison with a game id',
    file: DAEMON,
    source: "if (ruleset.game === 'roulette') start();",
    says: /compares with the game 'roulette'/,
  },
  {
    kind: 'a comparison the other way round',
    file: DAEMON,
    source: "if ('punto-banco' !== game) start();",
    says: /compares with the game 'punto-banco'/,
  },
  {
    kind: 'a case for a game',
    file: DAEMON,
    source: "switch (game) { case 'blackjack': start(); }",
    says: /has a case for the game 'blackjack'/,
  },
  {
    kind: 'a loose comparison with a poker game',
    file: DAEMON,
    source: "if (game != 'seven-card-stud') start();",
    says: /compares with the game 'seven-card-stud'/,
  },
  {
    kind: "a comparison with a plug-in's id",
    file: DAEMON,
    source: "if (plugin.id === 'cards') start();",
    says: /compares with the game 'cards'/,
  },
  // The five that went through.
  {
    kind: 'a ruleset-name comparison',
    file: DAEMON,
    source: "if (config.ruleset === 'tdc-roulette') start();",
    says: /compares with the ruleset 'tdc-roulette'/,
  },
  {
    kind: ".includes of a game's name",
    file: DAEMON,
    source: "if (ruleset.name.includes('roulette')) start();",
    says: /looks for the game 'roulette' with \.includes/,
  },
  {
    kind: "a comparison with a game's tag",
    file: DAEMON,
    source: "if (plugin.webView(name) === 'baccarat') drawRoads();",
    says: /compares with the game tag 'baccarat'/,
  },
  {
    kind: "a branch in the web console's scripts",
    file: WEB_SCRIPT,
    source: "if (state.game === 'roulette') drawWheel();",
    says: /compares with the game 'roulette'/,
  },
  {
    kind: "case 'wheel' (a device kind)",
    file: 'firmware-host/drivers/planted.ts',
    source: "switch (kind) { case 'wheel': spin(); }",
    says: /has a case for the device kind 'wheel'/,
  },
  // The other forms, on every kind of name.
  {
    kind: 'a comparison with a device kind',
    file: 'firmware-host/daemon/extensions/planted.ts',
    source: "if (device.kind !== 'shoe') skip();",
    says: /compares with the device kind 'shoe'/,
  },
  {
    kind: 'a case for a ruleset',
    file: DAEMON,
    source: "switch (name) { case 'monaco-punto-2000': roads(); }",
    says: /has a case for the ruleset 'monaco-punto-2000'/,
  },
  {
    kind: 'a comparison with the simulator tag',
    file: DAEMON,
    source: "if (plugin.simulator === 'croupier') spin();",
    says: /compares with the game tag 'croupier'/,
  },
  {
    kind: '.startsWith of a ruleset',
    file: DAEMON,
    source: "if (name.startsWith('bulgaria-roulette')) start();",
    says: /looks for the ruleset 'bulgaria-roulette' with \.startsWith/,
  },
  {
    kind: ".endsWith of a game's name",
    file: DAEMON,
    source: "if (name.endsWith('blackjack')) start();",
    says: /looks for the game 'blackjack' with \.endsWith/,
  },
  {
    kind: ".indexOf of a game's name",
    file: DAEMON,
    source: "if (name.indexOf('roulette') >= 0) start();",
    says: /looks for the game 'roulette' with \.indexOf/,
  },
  {
    kind: 'a literal list of games',
    file: DAEMON,
    source: "if (['roulette', 'blackjack'].includes(game)) start();",
    says: /looks up the game 'roulette', the game 'blackjack' in a list with \.includes/,
  },
  {
    kind: 'a literal set of device kinds',
    file: 'hardware/planted.ts',
    source: "if (new Set(['wheel', 'reader']).has(kind)) open();",
    says: /looks up the device kind 'wheel', the device kind 'reader' in a list with \.has/,
  },
  {
    kind: "'in' a literal table of device kinds",
    file: 'simulators/planted.ts',
    source: 'if (kind in { shoe: 1, shuffler: 1 }) deal();',
    says: /asks 'in' a table keyed by the device kind 'shoe', the device kind 'shuffler'/,
  },
  {
    kind: "a game's name 'in' an object",
    file: DAEMON,
    source: "if ('roulette' in VIEWS) start();",
    says: /asks whether the game 'roulette' is 'in' it/,
  },
  {
    kind: 'a lookup keyed by a game tag',
    file: DAEMON,
    source: "const draw = VIEWS['baccarat'];",
    says: /looks up the key the game tag 'baccarat'/,
  },
  {
    kind: 'a lookup in a literal table keyed by games',
    file: DAEMON,
    source: 'const draw = ({ cards: drawCards, roulette: drawWheel })[view];',
    says: /looks up a table keyed by the game 'cards', the game 'roulette'/,
  },
  {
    kind: "case 'wheel' in the web console's scripts",
    file: WEB_SCRIPT,
    source: "switch (device.kind) { case 'wheel': drawWheel(); }",
    says: /has a case for the device kind 'wheel'/,
  },
  {
    kind: ".includes of a tag in the web console's scripts",
    file: WEB_SCRIPT,
    source: "if (view.includes('baccarat')) drawRoads();",
    says: /looks for the game tag 'baccarat' with \.includes/,
  },
  // Where the old check let a whole folder name any game.
  {
    kind: "a game named in the engine's shared code",
    file: 'firmware-host/engine/planted.ts',
    source: "if (ruleset.game === 'roulette') start();",
    says: /compares with the game 'roulette'/,
  },
  {
    kind: "a game named in the analysis's shared code",
    file: 'firmware-host/analysis/planted.ts',
    source: "if (study.game === 'punto-banco') start();",
    says: /compares with the game 'punto-banco'/,
  },
  {
    kind: "another game named in a game's folder",
    file: 'firmware-host/games/roulette/planted.ts',
    source: "if (ruleset.game === 'blackjack') start();",
    says: /compares with the game 'blackjack'/,
  },
  {
    kind: "a device kind branched on in a game's folder",
    file: 'firmware-host/games/roulette/planted.ts',
    source: "if (device.kind === 'wheel') spin();",
    says: /compares with the device kind 'wheel'/,
  },
  {
    kind: 'a list spelling out device kinds',
    file: 'firmware-host/cli/planted.ts',
    source: "const KINDS = ['shoe', 'shuffler', 'reader'];",
    says: /spells out the device kind 'shoe', the device kind 'shuffler', the device kind 'reader'/,
  },
  {
    kind: 'a union type spelling out device kinds',
    file: 'firmware-host/web/planted.ts',
    source: "type Kind = 'shoe' | 'wheel';",
    says: /spells out the device kind 'shoe', the device kind 'wheel'/,
  },
];

export const PLANTED_IMPORTS: readonly Planted[] = [
  {
    kind: "the daemon importing roulette's engine",
    file: DAEMON,
    source: "import { settle } from '../games/roulette/engine/settle.ts';",
    says: /imports roulette's firmware-host\/games\/roulette\/engine\/settle\.ts/,
  },
  {
    kind: "a type-only import of a card game's ruleset",
    file: 'firmware-host/config/planted.ts',
    source: "import type { X } from '../games/cards/baccarat/rulesets.ts';",
    says: /imports cards's firmware-host\/games\/cards\/baccarat\/rulesets\.ts/,
  },
  {
    kind: "a dynamic import of a game's session",
    file: DAEMON,
    source: "const session = () => import('../games/roulette/session.ts');",
    says: /imports roulette's firmware-host\/games\/roulette\/session\.ts/,
  },
  {
    kind: "a game's folder importing another game's",
    file: 'firmware-host/games/cards/planted.ts',
    source: "import { x } from '../roulette/history.ts';",
    says: /imports roulette's firmware-host\/games\/roulette\/history\.ts/,
  },
  {
    kind: "shared engine code importing a game's engine",
    file: 'firmware-host/engine/planted.ts',
    source: "import { x } from '../games/cards/blackjack/hand.ts';",
    says: /imports cards's firmware-host\/games\/cards\/blackjack\/hand\.ts/,
  },
  {
    kind: "a browser script importing a game's view",
    file: WEB_SCRIPT,
    source: "import { tableView } from '../../games/roulette/web/public/table.js';",
    says: /imports roulette's firmware-host\/games\/roulette\/web\/public\/table\.js/,
  },
];
