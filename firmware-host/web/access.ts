/**
 * Who is asking, and whether they may: the session cookie (or the anonymous
 * viewer of a loopback console with no users), the same-origin check every
 * POST passes, the supervisor's role and CSRF token a request needs, and the
 * `Host` check (hosts.ts) every request passes.
 */
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../log.ts';
import { hostOfHeader } from './hosts.ts';
import { HttpError } from './http.ts';
import { LOGIN_COOKIE, type Login, type LoginStore, parseCookies, sameToken } from './logins.ts';

export type Viewer = Pick<Login, 'user' | 'role'> & { csrf?: string; anonymous: boolean };

export class ConsoleAccess {
  /** Filled once listening: the names a browser may call the console by. */
  hostNames = new Set<string>();

  constructor(
    private readonly logins: LoginStore,
    private readonly options: { anonymous: boolean; tls: boolean; log: Logger },
  ) {}

  viewerOf(request: IncomingMessage): Viewer | undefined {
    const login = this.logins.get(parseCookies(request.headers.cookie)[LOGIN_COOKIE]);
    if (login) return { user: login.user, role: login.role, csrf: login.csrf, anonymous: false };
    return this.options.anonymous
      ? { user: 'anonymous', role: 'viewer', anonymous: true }
      : undefined;
  }

  requireViewer(request: IncomingMessage): Viewer {
    const viewer = this.viewerOf(request);
    if (!viewer) throw new HttpError(401, 'login_required', 'log in to see this table');
    return viewer;
  }

  /** A POST must come from our own pages: same origin, and the session's CSRF token. */
  requireSameSite(request: IncomingMessage): void {
    const site = request.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') {
      throw new HttpError(403, 'cross_site', `refused: a request from another site (${site})`);
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null') {
      const expected = `${this.options.tls ? 'https' : 'http'}://${request.headers.host}`;
      if (origin !== expected) {
        throw new HttpError(
          403,
          'cross_site',
          `refused: a request from ${origin}, not ${expected}`,
        );
      }
    } else if (origin === 'null') {
      throw new HttpError(403, 'cross_site', 'refused: a request from an opaque origin');
    }
  }

  /** A logged-in supervisor whose request carries the session's CSRF token; `op` is for the log. */
  requireSupervisor(request: IncomingMessage, op: string): Viewer {
    const { log } = this.options;
    const viewer = this.requireViewer(request);
    this.requireSameSite(request);
    if (viewer.role !== 'supervisor' || viewer.anonymous) {
      log.warn({ user: viewer.user, op }, 'request refused: not a supervisor');
      throw new HttpError(
        403,
        'not_allowed',
        `${viewer.user} is a viewer: only a supervisor may make requests`,
      );
    }
    const token = request.headers['x-csrf-token'];
    if (!sameToken(Array.isArray(token) ? token[0] : token, viewer.csrf ?? '')) {
      log.warn({ user: viewer.user, op }, 'request refused: missing or wrong CSRF token');
      throw new HttpError(
        403,
        'bad_csrf',
        'refused: the request did not come from this console (CSRF token)',
      );
    }
    return viewer;
  }

  requireOwnHost(request: IncomingMessage): void {
    const header = request.headers.host;
    if (header !== undefined && this.hostNames.has(hostOfHeader(header))) return;
    this.options.log.warn(
      { host: header, allowed: [...this.hostNames] },
      'request refused: not our Host name',
    );
    throw new HttpError(
      421,
      'wrong_host',
      header === undefined
        ? 'refused: the request has no Host header'
        : `refused: the Host header ${JSON.stringify(header)} is not a name of this console (a reverse proxy's name goes in web.allowedHosts)`,
    );
  }
}
