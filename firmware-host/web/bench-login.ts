/**
 * The simulated bench's way in for a supervisor: `npm start` has no users, so
 * nobody could make a request from the console. On a bench only (every device
 * simulated, no `web.users`, bound to loopback) the console makes a random
 * token at start and prints a link carrying it, as Jupyter does; the first
 * browser to open it, from this machine, gets a supervisor session. Never on
 * a config with a real device or any user.
 */
import { randomBytes } from 'node:crypto';
import type { TablesideConfig } from '../config/schema.ts';
import { isLoopback } from '../config/web-schema.ts';
import { sameToken } from './logins.ts';

export const BENCH_LOGIN_PATH = '/bench-login';
/** The session's user name: requests are journaled as `web:bench`. */
export const BENCH_USER = 'bench';

export function isSimulatedBench(config: Pick<TablesideConfig, 'devices' | 'web'>): boolean {
  const web = config.web;
  return (
    web !== undefined &&
    isLoopback(web.host) &&
    Object.keys(web.users).length === 0 &&
    Object.values(config.devices).every((device) => device.transport === 'simulate')
  );
}

/** A one-time token: `use` is true for the first right token, false ever after. */
export class BenchLogin {
  private token: string | undefined = randomBytes(32).toString('base64url');

  /** The link to print, on the console's base URL. */
  link(base: string): string {
    return `${base}${BENCH_LOGIN_PATH}?token=${this.token ?? ''}`;
  }

  use(submitted: string | null): 'ok' | 'used' | 'wrong' {
    if (this.token === undefined) return 'used';
    if (!sameToken(submitted ?? undefined, this.token)) return 'wrong';
    this.token = undefined;
    return 'ok';
  }
}
