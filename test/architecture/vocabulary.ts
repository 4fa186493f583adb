/**
 * The names a branch on a game or a device kind would compare with (issue
 * 35), read from the code's own data, not a hand list: every game id (the
 * engines' registry and the rulesets' `game`), plug-in id, ruleset name (all
 * of each plug-in's), game tag (the values a plug-in hands out for others to
 * dispatch on: its web view, simulator, diag session, CLI verbs, console
 * behaviour) and device kind (the plug-ins' kinds, the simulators' and
 * every kind of the drivers' profile registry).
 */
import { DEVICE_PROFILES } from '../../firmware-host/drivers/profiles/registry.ts';
import { GAMES } from '../../firmware-host/games/engines.ts';
import { GAME_PLUGINS } from '../../firmware-host/games/registry.ts';
import { DEVICE_KINDS } from '../../simulators/steps.ts';

export type NameKind = 'game' | 'ruleset' | 'game tag' | 'device kind';

export interface BranchName {
  kind: NameKind;
  /** The plug-in whose name it is; undefined for a device kind, or a tag several games share. */
  game?: string;
}

/**
 * Tags that are also an everyday word of the code, where comparing with them
 * is no branch on a game: the card simulator's 'dealer' is every card
 * table's dealer seat too (`wanted.seat === 'dealer'`).
 */
const ORDINARY_WORDS = new Set(['dealer']);

/** Every name a branch could be on, with what it names; a game's name wins over a device kind's. */
export function branchVocabulary(): ReadonlyMap<string, BranchName> {
  const names = new Map<string, BranchName>();
  const add = (name: string, entry: BranchName) => {
    const had = names.get(name);
    if (had === undefined) names.set(name, entry);
    else if (had.game !== entry.game && had.kind === entry.kind)
      names.set(name, { kind: had.kind });
  };
  for (const plugin of GAME_PLUGINS) {
    add(plugin.id, { kind: 'game', game: plugin.id });
    for (const name of plugin.rulesetNames()) {
      add(name, { kind: 'ruleset', game: plugin.id });
      add(plugin.ruleset(name).game, { kind: 'game', game: plugin.id });
    }
  }
  for (const id of Object.keys(GAMES)) {
    const plugin = GAME_PLUGINS.find((each) =>
      each.rulesetNames().some((name) => each.ruleset(name).game === id),
    );
    add(id, { kind: 'game', game: plugin?.id });
  }
  const deviceKinds = new Set([
    ...GAME_PLUGINS.flatMap((plugin) => plugin.deviceKinds),
    ...DEVICE_KINDS,
    ...Object.keys(DEVICE_PROFILES),
  ]);
  for (const kind of deviceKinds) add(kind, { kind: 'device kind' });
  for (const plugin of GAME_PLUGINS) {
    const tags = [
      ...plugin.rulesetNames().map((name) => plugin.webView(name)),
      plugin.simulator,
      plugin.diagSimulation,
    ];
    for (const tag of tags)
      if (!ORDINARY_WORDS.has(tag)) add(tag, { kind: 'game tag', game: plugin.id });
  }
  return names;
}
