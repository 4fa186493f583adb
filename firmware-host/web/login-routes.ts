/**
 * Logging in and out: the password login (limited per address and per user
 * name, a missing user costing a hash too), the simulated bench's one-time
 * supervisor link, and the logout that ends the login's streams.
 */
import type { WebConfig } from '../config/web-schema.ts';
import type { Logger } from '../log.ts';
import type { ConsoleAccess } from './access.ts';
import { BENCH_LOGIN_PATH, BENCH_USER, type BenchLogin } from './bench-login.ts';
import type { EventStream } from './feed.ts';
import { HttpError, readJson, SECURITY_HEADERS, sendJson } from './http.ts';
import {
  LOGIN_COOKIE,
  type LoginLimiter,
  type LoginRefusal,
  type LoginStore,
  parseCookies,
} from './logins.ts';
import { verifyPassword } from './passwords.ts';
import type { Route, RouteCall } from './router.ts';

export interface LoginContext {
  config: WebConfig;
  log: Logger;
  tls: boolean;
  logins: LoginStore;
  limiter: LoginLimiter;
  access: ConsoleAccess;
  /** On a simulated bench only. */
  bench: BenchLogin | undefined;
  /** The open feeds: a logout ends those of its login. */
  streams: ReadonlySet<EventStream>;
}

export function loginRoutes(context: LoginContext): Route[] {
  const { access, logins, streams, tls } = context;
  return [
    { method: 'GET', path: BENCH_LOGIN_PATH, handle: (call) => benchLogin(context, call) },
    { method: 'POST', path: '/api/login', handle: (call) => login(context, call) },
    {
      method: 'POST',
      path: '/api/logout',
      handle: ({ request, response }) => {
        access.requireSameSite(request);
        logins.delete(parseCookies(request.headers.cookie)[LOGIN_COOKIE]);
        // The streams of that login end with it.
        for (const stream of streams) stream.revalidate();
        response.setHeader('set-cookie', loginCookie('', 0, tls));
        sendJson(response, 200, { ok: true });
      },
    },
  ];
}

/** The bench's one-time link, from this machine only: a supervisor's session, then the table page. */
function benchLogin(
  { bench, logins, log, config, tls }: LoginContext,
  { request, response, url }: RouteCall,
): void {
  const address = request.socket.remoteAddress ?? '';
  if (!bench || !/^(?:127\.|::1$|::ffff:127\.)/.test(address)) {
    throw new HttpError(404, 'not_found', `no such page: GET ${url.pathname}`);
  }
  const used = bench.use(url.searchParams.get('token'));
  if (used !== 'ok') {
    log.warn({ address, used }, 'bench login link refused');
    throw used === 'used'
      ? new HttpError(
          403,
          'login_link_used',
          'this one-time login link was used already: restart the bench (npm start) for a new one',
        )
      : new HttpError(403, 'bad_login_link', 'refused: not the login link printed at start');
  }
  const { token } = logins.create(BENCH_USER, 'supervisor');
  log.info({ user: BENCH_USER, address }, 'logged in with the bench login link');
  response.writeHead(303, {
    ...SECURITY_HEADERS,
    'set-cookie': loginCookie(token, config.sessionHours * 3600, tls),
    'cache-control': 'no-store',
    location: '/#table',
  });
  response.end();
}

async function login(
  { access, limiter, log, config, logins, tls }: LoginContext,
  { request, response }: RouteCall,
): Promise<void> {
  access.requireSameSite(request);
  const address = request.socket.remoteAddress ?? 'unknown';
  // Counted now, before the body is read or any hash run (no await before this).
  const attempt = limiter.start(address);
  if ('code' in attempt) throw tooSoon(log, attempt, address);
  let succeeded = false;
  let name = '';
  let user: WebConfig['users'][string] | undefined;
  try {
    const body = await readJson(request);
    name = typeof body.user === 'string' ? body.user : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const refused = attempt.forUser(name);
    if (refused) throw tooSoon(log, refused, address, name);
    user = Object.hasOwn(config.users, name) ? config.users[name] : undefined;
    // A missing user costs a hash too: the answer's timing does not tell who exists.
    succeeded = (await verifyPassword(password, user?.password ?? DUMMY_HASH)) && !!user;
  } finally {
    attempt.end(succeeded);
  }
  if (!user || !succeeded) {
    log.warn({ user: name, address }, 'login failed');
    throw new HttpError(401, 'bad_login', 'wrong user name or password');
  }
  const { token, login } = logins.create(name, user.role);
  log.info({ user: name, role: user.role, address }, 'logged in');
  response.setHeader('set-cookie', loginCookie(token, config.sessionHours * 3600, tls));
  sendJson(response, 200, { user: name, role: login.role, csrf: login.csrf });
}

/** A login refused before its password is checked: 429 with `Retry-After`, logged. */
function tooSoon(log: Logger, refusal: LoginRefusal, address: string, user?: string): HttpError {
  log.warn({ address, user, code: refusal.code }, `login refused: ${refusal.message}`);
  return new HttpError(429, refusal.code, refusal.message, {
    'retry-after': String(Math.ceil(refusal.retryAfterMs / 1000)),
  });
}

/** A valid hash of no one's password, so a login for an unknown user costs the same. */
const DUMMY_HASH =
  'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

function loginCookie(token: string, maxAge: number, secure: boolean): string {
  return [
    `${LOGIN_COOKIE}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.floor(maxAge)}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}
