/** The environment variables that override the file, and the key each one sets (kept apart so the CLI lists them without loading the loader). */
export const ENV_OVERRIDES = [
  { variable: 'TABLESIDE_TABLE_ID', path: ['table'] },
  { variable: 'TABLESIDE_RULESET', path: ['ruleset'] },
  { variable: 'TABLESIDE_MQTT_URL', path: ['mqtt', 'url'] },
  { variable: 'TABLESIDE_MQTT_USERNAME', path: ['mqtt', 'username'] },
  { variable: 'TABLESIDE_MQTT_PASSWORD', path: ['mqtt', 'password'] },
  { variable: 'TABLESIDE_MQTT_BASE_TOPIC', path: ['mqtt', 'baseTopic'] },
  { variable: 'TABLESIDE_JOURNAL_DIR', path: ['journal', 'dir'] },
] as const;

/** The variable naming the config file when no `--config` is given. */
export const CONFIG_FILE_VARIABLE = 'TABLESIDE_CONFIG';
