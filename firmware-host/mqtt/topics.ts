/**
 * The topic map of one table (docs/integrator/mqtt.md), built once from the base
 * topic and the table id, so that no code elsewhere concatenates topics.
 */
export type EventTopicKind = 'card' | 'hand' | 'shoe' | 'alarm' | 'spin';

export const REQUEST_OPS = [
  'new_round',
  'player_action',
  'void_hand',
  'new_shoe',
  'set_ruleset',
  'health_check',
  // Roulette: the dealer's "no more bets", and closing time (003 § 11(2), § 13(2)).
  'no_more_bets',
  'closing',
  // A closed table opens again (issue 35): a supervisor's, journaled by name.
  'reopen',
] as const;
export type RequestOp = (typeof REQUEST_OPS)[number];

export interface TableTopics {
  /** `<base>/<table>`: everything of this table lives below it. */
  readonly root: string;
  /** Retained `online` / `offline`; `offline` is also the last will. */
  readonly bridgeState: string;
  /** Retained JSON: versions, game, ruleset, devices. */
  readonly bridgeInfo: string;
  /** Retained snapshot of the shoe and the hand in play. */
  readonly state: string;
  /**
   * Retained: what the table's game publishes besides its state, by its
   * name (`roads`: baccarat's scoreboard roads of the shoe in play). Throws
   * for a name that is not one topic level of its own (a plug-in's mistake).
   */
  published(name: string): string;
  /** Retained `online` / `offline` per device. */
  deviceAvailability(device: string): string;
  /** QoS 1 JSON events, each with `seq` and `ts`. */
  events(kind: EventTopicKind): string;
  /** Retained JSON: the journal's last head signed with the table's key. */
  readonly journalHead: string;
  /** Where requests arrive; `+` matches any op (unknown ones get an error response). */
  readonly requestFilter: string;
  request(op: string): string;
  response(op: string): string;
  /** The op of a request topic, or undefined for a topic that is not a request. */
  opOf(topic: string): string | undefined;
}

/** The table's own first levels: a game's published name may not take one. */
const TABLE_LEVELS = ['bridge', 'state', 'journal', 'devices', 'events'];

/** `name` as one topic level of the table's root, or an error naming what is wrong with it. */
function publishedLevel(name: string): string {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) {
    throw new Error(
      `a game publishes "${name}": not one topic level (lower-case letters, digits, dashes)`,
    );
  }
  if (TABLE_LEVELS.includes(name)) {
    throw new Error(`a game publishes "${name}": the table's own topic ${name} is not a game's`);
  }
  return name;
}

export function tableTopics(baseTopic: string, table: string): TableTopics {
  const root = `${baseTopic}/${table}`;
  const requestPrefix = `${root}/bridge/request/`;
  return {
    root,
    bridgeState: `${root}/bridge/state`,
    bridgeInfo: `${root}/bridge/info`,
    state: `${root}/state`,
    journalHead: `${root}/journal/head`,
    published: (name) => `${root}/${publishedLevel(name)}`,
    deviceAvailability: (device) => `${root}/devices/${device}/availability`,
    events: (kind) => `${root}/events/${kind}`,
    requestFilter: `${requestPrefix}+`,
    request: (op) => `${requestPrefix}${op}`,
    response: (op) => `${root}/bridge/response/${op}`,
    opOf: (topic) => {
      if (!topic.startsWith(requestPrefix)) return undefined;
      const op = topic.slice(requestPrefix.length);
      return op.length > 0 && !op.includes('/') ? op : undefined;
    },
  };
}
