import { CodedError } from '../../device-protocol/coded-error.ts';

/**
 * The one coded error class of the configuration domain. It carries every
 * issue found, not the first: an operator fixes a config in one round trip.
 */
export type ConfigErrorCode =
  /** The file could not be read. */
  | 'unreadable'
  /** The file is not valid JSON or YAML. */
  | 'syntax'
  /** The content breaks the schema. */
  | 'invalid';

export interface ConfigIssue {
  /** Dotted path of the setting, e.g. `devices.shoe.transport`; `(root)` or `(file)` otherwise. */
  path: string;
  /** What was expected. */
  message: string;
}

export class ConfigError extends CodedError<ConfigErrorCode> {
  override readonly name = 'ConfigError';
  constructor(
    code: ConfigErrorCode,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(
      code,
      `invalid configuration (${issues.length} ${issues.length === 1 ? 'problem' : 'problems'}):\n` +
        listed(issues),
    );
  }
}

/** Problems the message lists: a broken file can give thousands, and a screen of them helps nobody. */
export const MAX_LISTED_ISSUES = 20;

function listed(issues: readonly ConfigIssue[]): string {
  const lines = issues
    .slice(0, MAX_LISTED_ISSUES)
    .map((issue) => `  ${issue.path}: ${issue.message}`);
  const rest = issues.length - MAX_LISTED_ISSUES;
  if (rest > 0) {
    lines.push(`  … and ${rest} more (fix the first ones: the rest often follow from them)`);
  }
  return lines.join('\n');
}

export function isConfigError(value: unknown): value is ConfigError {
  return value instanceof ConfigError;
}
