/**
 * What a game brings to `tableside` (issue 35 item 1): its `hand`, its
 * `analyze` verbs and ruleset study, and commands of its own. The CLI's
 * commands ask the game that plays a ruleset (the installed registry) and
 * load these parts only when a command needs them, so `tableside decode`
 * never pays for a game's analyses. Types only: the parts live in each
 * game's `cli/`.
 */

/**
 * The `commander` command a game adds its verbs to. games/ names no package
 * and no composition root, so the contract says only what it is; a game's
 * `cli/` takes it as commander's Command.
 */
export interface CliCommand {
  command(nameAndArgs: string): unknown;
}

/** `tableside hand`'s options, every game's (a game refuses those that mean nothing at its table). */
export interface HandOptions {
  ruleset: string;
  /** Card games: the cards in shoe order. */
  cards?: string;
  actions?: string;
  boxes?: string;
  dark?: string;
  stakes?: string;
  json?: boolean;
  /** Roulette: the winning number and the bet slip. */
  number?: string;
  bets?: string;
}

/** `tableside analyze ruleset NAME`'s options. */
export interface StudyCommandOptions {
  json?: boolean;
  quick?: boolean;
}

/** Runs one `analyze` verb's action: its error goes to stderr as `tableside analyze NAME: …`, exit 1. */
export type AnalysisRunner = (name: string, action: () => Promise<void>) => Promise<void>;

/** A top-level command of a game's own (baccarat's `roads`). */
export interface CliCommandModule {
  register(program: CliCommand): void | Promise<void>;
}

export interface GameCli {
  /** Settles `tableside hand` for one of its rulesets: prints the round, sets `process.exitCode` on bad input. */
  hand(options: HandOptions): Promise<void>;
  /** Adds its own `tableside analyze` verbs (`analyze baccarat`, `analyze wheel`). */
  registerAnalyses(analyze: CliCommand, run: AnalysisRunner): void;
  /** `tableside analyze ruleset NAME` for one of its rulesets. */
  studyRuleset(name: string, options: StudyCommandOptions): Promise<void>;
  /** Its own top-level commands by name, each loaded when named (or for help). */
  readonly commands: Readonly<Record<string, () => Promise<CliCommandModule>>>;
}
