/**
 * What still branches on a game or a device kind outside its own code, and
 * what imports a game's module from outside the game (issue 35), each keyed
 * by its file and what it does (no line number) with the work that removes
 * it. The check fails on anything not listed and on a listed entry that is
 * gone, so these lists only shrink. Printed by print-known.ts; at printing:
 * ownership: 3 game branches (2 listed keys), 2 device-kind branches (2), 25 imports of a game's module from outside it (24); outside its folder: cards 759 lines in 1 files, roulette 0 lines in 0 files.
 */

/** Branch on a game's or a device kind's name → the work that removes it. */
export const KNOWN_BRANCHES: Readonly<Record<string, string>> = {
  "firmware-host/daemon/extensions/simulation.ts: compares with the game tag 'croupier'":
    "asks the game's plug-in (issue 35 item 1)",
  "firmware-host/games/cards/plugin.ts: spells out the device kind 'shoe', the device kind 'shuffler', the device kind 'reader'":
    "reads the kinds from the device kinds' profile registry (issue 35 item 2)",
  "firmware-host/games/game.ts: spells out the device kind 'shoe', the device kind 'wheel'":
    "reads the kinds from the device kinds' profile registry (issue 35 item 2)",
  'firmware-host/games/rulesets.ts: asks isRouletteRuleset':
    "asks the game's plug-in (issue 35 item 1)",
};

/** Import of a game's module from outside that game → the work that removes it. */
export const KNOWN_OWNERSHIP_IMPORTS: Readonly<Record<string, string>> = {
  "firmware-host/daemon/extensions/simulation.ts: imports cards's firmware-host/games/cards/daemon/simulated-dealer.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/daemon/extensions/simulation.ts: imports roulette's firmware-host/games/roulette/daemon/simulated-croupier.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/diag/diagnose.ts: imports roulette's firmware-host/games/roulette/diag/simulate-wheel.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/engine/rulesets/schema.ts: imports cards's firmware-host/engine/rulesets/poker.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/engines.ts: imports cards's firmware-host/games/cards/baccarat/engine.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/engines.ts: imports cards's firmware-host/games/cards/blackjack/engine.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/engines.ts: imports cards's firmware-host/games/cards/poker/games.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/engines.ts: imports cards's firmware-host/games/cards/triple-shot/engine.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/game.ts: imports cards's firmware-host/games/cards/table/index.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/game.ts: imports roulette's firmware-host/games/roulette/session.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports cards's firmware-host/engine/rulesets/poker.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports cards's firmware-host/games/cards/baccarat/rulesets.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports cards's firmware-host/games/cards/blackjack/rulesets.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports cards's firmware-host/games/cards/triple-shot/rulesets.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports roulette's firmware-host/games/roulette/engine/call-bets.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports roulette's firmware-host/games/roulette/rulesets-schema.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/games/rulesets.ts: imports roulette's firmware-host/games/roulette/rulesets.ts":
    'asks the roulette plug-in instead (issue 35 item 1)',
  "firmware-host/games/session-codec.ts: imports cards's firmware-host/games/cards/table/index.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "firmware-host/games/table-session.ts: imports cards's firmware-host/games/cards/table/index.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "simulators/behaviours.ts: imports cards's firmware-host/games/cards/simulated/legal-shoe.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "simulators/device.ts: imports cards's firmware-host/games/cards/simulated/legal-round.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "simulators/device.ts: imports cards's firmware-host/games/cards/simulated/legal-shoe.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "simulators/plan.ts: imports cards's firmware-host/games/cards/simulated/legal-round.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
  "simulators/plan.ts: imports cards's firmware-host/games/cards/simulated/legal-shoe.ts":
    'asks the cards plug-in instead (issue 35 item 1)',
};
