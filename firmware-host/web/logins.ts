/**
 * The web console's logins: opaque random tokens in a cookie (kept in
 * memory: a daemon restart logs everyone out, which on a table is the safe
 * side), each with its own CSRF token, and login limits per client address
 * and per user name. (A login, not a "session": that word is the device
 * link's and the auth handshake's.)
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export type Role = 'viewer' | 'supervisor';

/** One user logged in: who, with which role, until when. */
export interface Login {
  user: string;
  role: Role;
  csrf: string;
  expires: number;
}

/** The cookie's name stays as browsers already hold it. */
export const LOGIN_COOKIE = 'tableside_session';

export class LoginStore {
  private readonly logins = new Map<string, Login>();
  private readonly lifetimeMs: number;
  private readonly clock: () => number;

  constructor(lifetimeMs: number, clock: () => number = Date.now) {
    this.lifetimeMs = lifetimeMs;
    this.clock = clock;
  }

  create(user: string, role: Role): { token: string; login: Login } {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const login: Login = {
      user,
      role,
      csrf: randomBytes(24).toString('base64url'),
      expires: this.clock() + this.lifetimeMs,
    };
    this.logins.set(token, login);
    return { token, login };
  }

  get(token: string | undefined): Login | undefined {
    if (!token) return undefined;
    const login = this.logins.get(token);
    if (!login) return undefined;
    if (login.expires <= this.clock()) {
      this.logins.delete(token);
      return undefined;
    }
    return login;
  }

  delete(token: string | undefined): void {
    if (token) this.logins.delete(token);
  }

  private prune(): void {
    const now = this.clock();
    for (const [token, login] of this.logins) {
      if (login.expires <= now) this.logins.delete(token);
    }
  }
}

/** Constant-time comparison of a submitted CSRF token with the login's. */
export function sameToken(submitted: string | undefined, expected: string): boolean {
  if (submitted === undefined) return false;
  const a = Buffer.from(submitted);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Why a login is refused before its password is checked, and for how long. */
export interface LoginRefusal {
  code: 'too_many_attempts' | 'login_in_progress';
  message: string;
  retryAfterMs: number;
}

export interface LoginLimits {
  /** Attempts counted within `windowMs` before more are refused, per address and per user name. */
  attempts: number;
  windowMs: number;
  /** Attempts whose password is being checked at once, per address and per user name. */
  concurrent: number;
}

interface Counted {
  at: number;
  /** The other key of the attempt: the user name in an address's list, the address in a user's. */
  other: string | undefined;
  id: number;
}

/**
 * Logins per client address and per user name. An attempt counts from the
 * moment it starts, not when its hash is done, so a burst of parallel logins
 * cannot slip past the count while the first ones are still being hashed;
 * and only `concurrent` of them are hashed at once. A success forgives only
 * the failures of the same user from the same address (their own typos):
 * logging in as someone else clears nothing.
 */
export class LoginLimiter {
  private readonly byAddress = new Map<string, Counted[]>();
  private readonly byUser = new Map<string, Counted[]>();
  private readonly inFlight = new Map<string, number>();
  private nextId = 1;
  private readonly limits: LoginLimits;
  private readonly clock: () => number;

  constructor(limits: Partial<LoginLimits> = {}, clock: () => number = Date.now) {
    this.limits = { attempts: 5, windowMs: 60_000, concurrent: 1, ...limits };
    this.clock = clock;
  }

  /**
   * Starts an attempt from `address` (before its body is read): a refusal,
   * or the attempt, already counted. Its `forUser` adds the user name's
   * limits once the body names it; `end` must follow either way.
   */
  start(address: string): LoginRefusal | LoginAttempt {
    const refusal = this.refusal(this.byAddress, `a:${address}`, address, 'from this address');
    if (refusal) return refusal;
    const id = this.nextId++;
    this.count(this.byAddress, address, undefined, id);
    this.hold(`a:${address}`);
    let user: string | undefined;
    let ended = false;
    return {
      forUser: (name) => {
        const refused = this.refusal(this.byUser, `u:${name}`, name, `for ${name}`);
        if (refused) return refused;
        user = name;
        this.count(this.byUser, name, address, id);
        for (const counted of this.byAddress.get(address) ?? []) {
          if (counted.id === id) counted.other = name;
        }
        this.hold(`u:${name}`);
        return undefined;
      },
      end: (succeeded) => {
        if (ended) return;
        ended = true;
        this.release(`a:${address}`);
        if (user !== undefined) this.release(`u:${user}`);
        if (!succeeded || user === undefined) return;
        const name = user;
        // The user proved the password: this attempt and their own failures from here are forgiven.
        this.forget(this.byAddress, address, (counted) => counted.other === name);
        this.forget(this.byUser, name, (counted) => counted.other === address);
      },
    };
  }

  private refusal(
    lists: Map<string, Counted[]>,
    flightKey: string,
    key: string,
    whose: string,
  ): LoginRefusal | undefined {
    const recent = this.recent(lists, key);
    if (recent.length >= this.limits.attempts) {
      const wait = Math.max(1, recent[0]!.at + this.limits.windowMs - this.clock());
      return {
        code: 'too_many_attempts',
        message: `too many failed logins ${whose}: try again in ${Math.ceil(wait / 1000)} s`,
        retryAfterMs: wait,
      };
    }
    if ((this.inFlight.get(flightKey) ?? 0) >= this.limits.concurrent) {
      return {
        code: 'login_in_progress',
        message: `a login ${whose} is already being checked: wait for its answer`,
        retryAfterMs: 1000,
      };
    }
    return undefined;
  }

  private count(lists: Map<string, Counted[]>, key: string, other: string | undefined, id: number) {
    const recent = this.recent(lists, key);
    recent.push({ at: this.clock(), other, id });
    lists.set(key, recent);
    this.prune();
  }

  private forget(lists: Map<string, Counted[]>, key: string, which: (counted: Counted) => boolean) {
    const kept = (lists.get(key) ?? []).filter((counted) => !which(counted));
    if (kept.length > 0) lists.set(key, kept);
    else lists.delete(key);
  }

  private hold(key: string): void {
    this.inFlight.set(key, (this.inFlight.get(key) ?? 0) + 1);
  }

  private release(key: string): void {
    const left = (this.inFlight.get(key) ?? 1) - 1;
    if (left > 0) this.inFlight.set(key, left);
    else this.inFlight.delete(key);
  }

  private recent(lists: Map<string, Counted[]>, key: string): Counted[] {
    const since = this.clock() - this.limits.windowMs;
    const recent = (lists.get(key) ?? []).filter((counted) => counted.at > since);
    if (recent.length === 0) lists.delete(key);
    else lists.set(key, recent);
    return recent;
  }

  private lastPrune = 0;

  /** Names tried once and never again must not pile up: drop what left the window, once a window. */
  private prune(): void {
    const now = this.clock();
    if (now - this.lastPrune < this.limits.windowMs) return;
    this.lastPrune = now;
    for (const lists of [this.byAddress, this.byUser]) {
      for (const key of [...lists.keys()]) this.recent(lists, key);
    }
  }
}

/** One login in progress: counted from its start until it ends. */
export interface LoginAttempt {
  /** The user name it is for: a refusal when that name is limited (the attempt stays counted). */
  forUser(name: string): LoginRefusal | undefined;
  /** The password was checked (or the attempt broke off): frees its place; a success forgives. */
  end(succeeded: boolean): void;
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
