/**
 * Logins: opaque random session tokens (kept in memory: a daemon restart
 * logs everyone out, which on a table is the safe side), each with its own
 * CSRF token, and a login rate limit per client address.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export type Role = 'viewer' | 'supervisor';

export interface Session {
  user: string;
  role: Role;
  csrf: string;
  expires: number;
}

export const SESSION_COOKIE = 'tableside_session';

export class SessionStore {
  private readonly sessions = new Map<string, Session>();
  private readonly lifetimeMs: number;
  private readonly clock: () => number;

  constructor(lifetimeMs: number, clock: () => number = Date.now) {
    this.lifetimeMs = lifetimeMs;
    this.clock = clock;
  }

  create(user: string, role: Role): { token: string; session: Session } {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const session: Session = {
      user,
      role,
      csrf: randomBytes(24).toString('base64url'),
      expires: this.clock() + this.lifetimeMs,
    };
    this.sessions.set(token, session);
    return { token, session };
  }

  get(token: string | undefined): Session | undefined {
    if (!token) return undefined;
    const session = this.sessions.get(token);
    if (!session) return undefined;
    if (session.expires <= this.clock()) {
      this.sessions.delete(token);
      return undefined;
    }
    return session;
  }

  delete(token: string | undefined): void {
    if (token) this.sessions.delete(token);
  }

  private prune(): void {
    const now = this.clock();
    for (const [token, session] of this.sessions) {
      if (session.expires <= now) this.sessions.delete(token);
    }
  }
}

/** Constant-time comparison of a submitted CSRF token with the session's. */
export function sameToken(submitted: string | undefined, expected: string): boolean {
  if (submitted === undefined) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Failed logins per client address: after `attempts` failures within
 * `windowMs`, further logins from that address are refused until the
 * window has passed. A success clears the address's count.
 */
export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly attempts = 5,
    private readonly windowMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  /** Milliseconds until `address` may try again; 0 when it may now. */
  retryAfter(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.attempts) return 0;
    return Math.max(0, recent[0]! + this.windowMs - this.clock());
  }

  failed(address: string): void {
    const recent = this.recent(address);
    recent.push(this.clock());
    this.failures.set(address, recent.slice(-this.attempts));
  }

  succeeded(address: string): void {
    this.failures.delete(address);
  }

  private recent(address: string): number[] {
    const since = this.clock() - this.windowMs;
    const recent = (this.failures.get(address) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.failures.delete(address);
    return recent;
  }
}

/** The cookies of a request's `Cookie` header. */
export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const raw of (header ?? '').split(';')) {
    const part = raw.trim();
    const at = part.indexOf('=');
    if (at < 1) continue;
    const name = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      // A cookie we did not set: ignored.
    }
  }
  return cookies;
}
