/**
 * Who may do what on the embedded broker (docs/integrator/signed-requests-and-acls.md, "Broker credentials and
 * ACLs"): the same rules as the shipped Mosquitto ACL file.
 *
 * - The daemon has its own account, made at each start (a random password
 *   never written anywhere), and is the only client that may publish under
 *   `<base>/<table>/`, except requests.
 * - With `mqtt.users` named, every other client must log in: consumers
 *   read and publish nothing; supervisors read and publish requests
 *   (`<base>/<table>/bridge/request/<op>`).
 * - With no users (a bench) anyone may connect and publish requests, as
 *   before, but still not the table's events, state or responses.
 * - `<base>/<table>/diag/…` is open to all but consumers: `tableside diag`
 *   checks the broker's round trip there, and nothing reads it.
 * - A request is never retained: the broker would hand it to the table
 *   again at every connect.
 * - Only the daemon may read `$SYS/…` (the broker's clients and load).
 */
import { checkPassword, sameSecret } from '../trust/password.ts';
import type { TableTopics } from './topics.ts';

export type BrokerRole = 'daemon' | 'consumer' | 'supervisor' | 'anonymous';

export interface BrokerUser {
  role: 'consumer' | 'supervisor';
  passwordHash: string;
}

export interface AccessPolicyOptions {
  topics: Pick<TableTopics, 'root' | 'opOf'>;
  users: Readonly<Record<string, BrokerUser>>;
  daemon: { username: string; password: string };
}

export interface AccessPolicy {
  /** The role of a client logging in with these credentials, or a refusal naming why. */
  authenticate(
    username: string | undefined,
    password: Buffer | undefined,
  ): Promise<{ ok: true; role: BrokerRole } | { ok: false; reason: string }>;
  /** Why a client of `role` may not publish on `topic` (`retain`ed), or undefined when it may. */
  publishProblem(role: BrokerRole, topic: string, retain?: boolean): string | undefined;
  /** Why a client of `role` may not subscribe to `filter`, or undefined when it may. */
  subscribeProblem(role: BrokerRole, filter: string): string | undefined;
}

export function accessPolicy(options: AccessPolicyOptions): AccessPolicy {
  const { topics, users, daemon } = options;
  const accounts = Object.keys(users).length > 0;
  const isRequest = (topic: string) => topics.opOf(topic) !== undefined;
  const isTables = (topic: string) => topic === topics.root || topic.startsWith(`${topics.root}/`);
  // `tableside diag` checks the round trip there; nothing acts on it.
  const isDiag = (topic: string) => topic.startsWith(`${topics.root}/diag/`);
  return {
    async authenticate(username, password) {
      const secret = password?.toString() ?? '';
      if (username === daemon.username) {
        return sameSecret(secret, daemon.password)
          ? { ok: true, role: 'daemon' }
          : { ok: false, reason: 'bad password for the daemon account' };
      }
      if (!accounts) return { ok: true, role: 'anonymous' };
      if (username === undefined) return { ok: false, reason: 'credentials required' };
      const user = Object.hasOwn(users, username) ? users[username] : undefined;
      // Hash even for an unknown name, so the answer's timing does not tell names apart.
      const good = await checkPassword(secret, user?.passwordHash ?? 'scrypt:AAAA:AAAA');
      if (!user || !good) return { ok: false, reason: `bad username or password (${username})` };
      return { ok: true, role: user.role };
    },
    publishProblem(role, topic, retain = false) {
      if (role === 'daemon') return undefined;
      if (role === 'consumer') return 'consumers may not publish';
      if (isRequest(topic) && retain) {
        return 'a request may not be retained: the table would be handed it again at every connect';
      }
      if (isRequest(topic) || isDiag(topic)) return undefined;
      if (role === 'supervisor') return 'supervisors may publish requests only';
      return isTables(topic) ? `only the daemon publishes on ${topics.root}/` : undefined;
    },
    subscribeProblem(role, filter) {
      if (role === 'daemon' || !filter.startsWith('$SYS')) return undefined;
      return 'only the daemon reads $SYS';
    },
  };
}
