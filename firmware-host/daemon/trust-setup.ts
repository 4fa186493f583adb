/**
 * The daemon's trust wiring, from the config: the table's signing key, the
 * request verifier, the embedded broker's accounts, and the alarms for
 * refused requests. Kept out of table-daemon.ts, which only calls these.
 */
import type { KeyObject } from 'node:crypto';
import { randomBytes } from 'node:crypto';
import { relative, resolve } from 'node:path';
import type { TablesideConfig } from '../config/schema.ts';
import type { ChainHead, MetaData } from '../journal/journal.ts';
import { signHead } from '../journal/seal.ts';
import { type AccessPolicy, accessPolicy } from '../mqtt/broker-access.ts';
import { tableTopics } from '../mqtt/topics.ts';
import { TrustError } from '../trust/errors.ts';
import { parsePublicKey, readPrivateKeyFile } from '../trust/keys.ts';
import { RequestVerifier } from '../trust/signed-request.ts';

/**
 * The table's private key when the config names one; refuses (TrustError)
 * a key that is missing, unreadable, open to others, or kept inside the
 * journal folder (whoever may write the journal must not hold the key).
 */
export async function loadTableKey(config: TablesideConfig): Promise<KeyObject | undefined> {
  const path = config.journal.signingKey;
  if (path === undefined) return undefined;
  const inside = relative(resolve(config.journal.dir), resolve(path));
  if (!inside.startsWith('..') && !inside.startsWith('/')) {
    throw new TrustError(
      'key_file',
      `journal.signingKey: ${path} is inside the journal folder ${config.journal.dir}; keep the key outside it`,
    );
  }
  return readPrivateKeyFile(path, 'journal.signingKey');
}

/** The journal's sealer: each head signed with the table's key. */
export function headSealer(key: KeyObject, table: string): (head: ChainHead) => MetaData {
  return (head) => ({ ...signHead(key, table, head) });
}

export function requestVerifier(
  config: TablesideConfig,
  clock: () => number,
  startedAt: number,
): RequestVerifier {
  return new RequestVerifier({
    supervisors: new Map(
      Object.entries(config.requests.supervisors).map(([name, key]) => [name, parsePublicKey(key)]),
    ),
    maxSkewMs: config.requests.maxSkewSeconds * 1000,
    // A little before the start, for a request signed as the daemon came up.
    notBefore: startedAt - 1000,
    clock,
  });
}

/** The embedded broker's access policy and the daemon's own account on it, fresh at every start. */
export function embeddedAccess(config: TablesideConfig): {
  policy: AccessPolicy;
  credentials: { username: string; password: string };
} {
  const credentials = {
    username: `tableside-daemon-${config.table}`,
    password: randomBytes(24).toString('base64url'),
  };
  return {
    policy: accessPolicy({
      topics: tableTopics(config.mqtt.baseTopic, config.table),
      users: config.mqtt.users,
      daemon: credentials,
    }),
    credentials,
  };
}

/**
 * Refused requests become alarms, but a flood of them must not flood the
 * journal: at most one alarm per `windowMs`, the next one counting those
 * left out.
 */
export class RefusalAlarms {
  private lastAt = Number.NEGATIVE_INFINITY;
  private suppressed = 0;

  constructor(
    private readonly clock: () => number,
    private readonly windowMs = 1000,
  ) {}

  /** The alarm to journal for this refusal, or undefined when one went out within the window. */
  next(op: string, code: string, error: string) {
    const now = this.clock();
    if (now - this.lastAt < this.windowMs) {
      this.suppressed++;
      return undefined;
    }
    this.lastAt = now;
    const also = this.suppressed;
    this.suppressed = 0;
    return {
      type: 'alarm' as const,
      kind: 'request_refused' as const,
      message: `MQTT request ${op} refused (${code}): ${error}`,
      op,
      code,
      ...(also > 0 ? { alsoRefused: also } : {}),
    };
  }
}
