/**
 * The table's web console: node:http (or node:https with the same PEM
 * options as MQTT), no framework. Static pages from `public/` (no build
 * step), a JSON API and the live feed (feed.ts). Every answer that carries
 * table data passes the same guard as MQTT.
 *
 * Access: users and roles from the config (`viewer` reads, `supervisor` may
 * make requests), scrypt hashes, an HttpOnly SameSite=Strict session
 * cookie, a per-session CSRF token required on every POST together with a
 * same-origin check, login limits per address and per user name, and a
 * `Host` check (hosts.ts). With no users and a loopback address, anyone at
 * the Pi may watch (read only); on a simulated bench a one-time link logs a
 * supervisor in (bench-login.ts).
 */
import { readFile } from 'node:fs/promises';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { isLoopback, type WebConfig } from '../config/web-schema.ts';
import type { DaemonError } from '../daemon/errors.ts';
import type { TableDaemon } from '../daemon/table-daemon.ts';
import { allRulesetNames, gameOf, rulesetIdentity } from '../games/registry.ts';
import { verifyJournalDir } from '../journal/verify.ts';
import type { Logger } from '../log.ts';
import { BENCH_LOGIN_PATH, BENCH_USER, BenchLogin, isSimulatedBench } from './bench-login.ts';
import { devicesReportOf } from './devices-report.ts';
import { EventStream, type FeedSource, resumeSeq } from './feed.ts';
import { parseDay, readHistoryDay } from './history.ts';
import { consoleHostNames, hostOfHeader } from './hosts.ts';
import { HttpError, readJson, SECURITY_HEADERS, sendJson } from './http.ts';
import { verifyPassword } from './passwords.ts';
import { applyConsoleRequest, parseConsoleRequest } from './requests.ts';
import {
  LoginLimiter,
  type LoginRefusal,
  parseCookies,
  type Role,
  SESSION_COOKIE,
  type Session,
  SessionStore,
  sameToken,
} from './sessions.ts';
import { loadStaticFiles, STATIC_FILES, serveStatic } from './static-files.ts';

export interface WebConsoleOptions {
  daemon: TableDaemon;
  config: WebConfig;
  log: Logger;
  clock?: () => number;
}

type Viewer = Pick<Session, 'user' | 'role'> & { csrf?: string; anonymous: boolean };

export class WebConsole {
  readonly url: string;
  /** On a simulated bench: the one-time supervisor login link (bench-login.ts). */
  readonly loginLink: string | undefined;
  private readonly server: Server;
  private readonly stopFeed: () => void;

  private constructor(
    server: Server,
    url: string,
    loginLink: string | undefined,
    stopFeed: () => void,
  ) {
    this.server = server;
    this.url = url;
    this.loginLink = loginLink;
    this.stopFeed = stopFeed;
  }

  static async start(options: WebConsoleOptions): Promise<WebConsole> {
    const { config, log } = options;
    const clock = options.clock ?? Date.now;
    const files = loadStaticFiles();
    const sessions = new SessionStore(config.sessionHours * 3_600_000, clock);
    const limiter = new LoginLimiter({}, clock);
    const anonymous =
      config.anonymousViewer && isLoopback(config.host) && Object.keys(config.users).length === 0;
    const tls = config.tls ? await readTls(config.tls) : undefined;
    const bench = isSimulatedBench({ devices: options.daemon.config.devices, web: config })
      ? new BenchLogin()
      : undefined;
    const changeListeners = new Set<() => void>();
    const onChange = () => {
      for (const listener of changeListeners) listener();
    };
    options.daemon.on('journaled', onChange);
    const source = (): FeedSource => {
      const journal = options.daemon.journalFeed;
      if (!journal) throw new HttpError(503, 'not_ready', 'the journal is not open yet');
      return {
        journal,
        snapshot: () => options.daemon.snapshot(),
        roads: () => options.daemon.roads(),
        onChange: (listener) => {
          changeListeners.add(listener);
          return () => changeListeners.delete(listener);
        },
      };
    };
    const notices: Array<{ ts: number; level: string; message: string }> = [];
    const remember = (level: string, message: string) => {
      notices.push({ ts: clock(), level, message });
      if (notices.length > 50) notices.shift();
    };
    const onNotice = (level: string, message: string) => remember(level, message);
    const onAvailability = (device: string, availability: string, reason: string) =>
      remember(
        availability === 'online' ? 'info' : 'warn',
        `${device}: ${availability} (${reason})`,
      );
    options.daemon.on('notice', onNotice);
    options.daemon.on('availability', onAvailability);
    let lastVerify: Record<string, unknown> | undefined;
    const streams = new Set<EventStream>();

    const viewerOf = (request: IncomingMessage): Viewer | undefined => {
      const session = sessions.get(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
      if (session)
        return { user: session.user, role: session.role, csrf: session.csrf, anonymous: false };
      return anonymous ? { user: 'anonymous', role: 'viewer', anonymous: true } : undefined;
    };
    const requireViewer = (request: IncomingMessage): Viewer => {
      const viewer = viewerOf(request);
      if (!viewer) throw new HttpError(401, 'login_required', 'log in to see this table');
      return viewer;
    };
    /** A POST must come from our own pages: same origin, and the session's CSRF token. */
    const requireSameSite = (request: IncomingMessage): void => {
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        throw new HttpError(403, 'cross_site', `refused: a request from another site (${site})`);
      }
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== 'null') {
        const expected = `${tls ? 'https' : 'http'}://${request.headers.host}`;
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
    };

    /** Filled once listening: the names a browser may call the console by. */
    let hostNames = new Set<string>();
    const requireOwnHost = (request: IncomingMessage): void => {
      const header = request.headers.host;
      if (header !== undefined && hostNames.has(hostOfHeader(header))) return;
      log.warn({ host: header, allowed: [...hostNames] }, 'request refused: not our Host name');
      throw new HttpError(
        421,
        'wrong_host',
        header === undefined
          ? 'refused: the request has no Host header'
          : `refused: the Host header ${JSON.stringify(header)} is not a name of this console (a reverse proxy's name goes in web.allowedHosts)`,
      );
    };

    const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
      requireOwnHost(request);
      const url = new URL(request.url ?? '/', 'http://console');
      const path = url.pathname;
      const method = request.method ?? 'GET';
      const file = STATIC_FILES[path];
      if (file && (method === 'GET' || method === 'HEAD')) {
        serveStatic(request, response, files.get(file)!);
        return;
      }
      if (path === BENCH_LOGIN_PATH && method === 'GET') {
        const address = request.socket.remoteAddress ?? '';
        if (!bench || !/^(?:127\.|::1$|::ffff:127\.)/.test(address)) {
          throw new HttpError(404, 'not_found', `no such page: ${method} ${path}`);
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
        const { token } = sessions.create(BENCH_USER, 'supervisor');
        log.info({ user: BENCH_USER, address }, 'logged in with the bench login link');
        response.writeHead(303, {
          ...SECURITY_HEADERS,
          'set-cookie': sessionCookie(token, config.sessionHours * 3600, !!tls),
          'cache-control': 'no-store',
          location: '/#table',
        });
        response.end();
        return;
      }
      if (path === '/api/login' && method === 'POST') {
        requireSameSite(request);
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
        const { token, session } = sessions.create(name, user.role);
        log.info({ user: name, role: user.role, address }, 'logged in');
        response.setHeader('set-cookie', sessionCookie(token, config.sessionHours * 3600, !!tls));
        sendJson(response, 200, { user: name, role: session.role, csrf: session.csrf });
        return;
      }
      if (path === '/api/logout' && method === 'POST') {
        requireSameSite(request);
        sessions.delete(parseCookies(request.headers.cookie)[SESSION_COOKIE]);
        // The streams of that login end with it.
        for (const stream of streams) stream.revalidate();
        response.setHeader('set-cookie', sessionCookie('', 0, !!tls));
        sendJson(response, 200, { ok: true });
        return;
      }
      if (path === '/api/me' && method === 'GET') {
        const viewer = viewerOf(request);
        sendJson(
          response,
          200,
          viewer ? { ...viewer, ...tableInfo() } : { user: null, anonymous: false },
        );
        return;
      }
      if (path === '/api/stream' && method === 'GET') {
        const viewer = requireViewer(request);
        const token = parseCookies(request.headers.cookie)[SESSION_COOKIE];
        const lastEventId = request.headers['last-event-id'];
        const stream = new EventStream(response, {
          source: source(),
          since: resumeSeq(
            Array.isArray(lastEventId) ? lastEventId[0] : lastEventId,
            url.searchParams.get('since'),
          ),
          hello: { user: viewer.user, role: viewer.role, ...tableInfo() },
          freshFrom: freshStart(options.daemon),
          stillAllowed: () => viewer.anonymous || sessions.get(token) !== undefined,
        });
        streams.add(stream);
        response.on('close', () => streams.delete(stream));
        return;
      }
      if (path === '/api/devices' && method === 'GET') {
        requireViewer(request);
        sendJson(response, 200, await devicesReport());
        return;
      }
      if (path === '/api/journal/verify' && method === 'GET') {
        requireViewer(request);
        const report = await verifyJournalDir(options.daemon.config.journal.dir);
        lastVerify = { ...report, at: clock(), findings: report.findings.slice(0, 20) };
        if (!report.ok) {
          log.error({ findings: report.findings.slice(0, 5) }, 'journal does not verify');
        }
        sendJson(response, 200, lastVerify);
        return;
      }
      if (path === '/api/history' && method === 'GET') {
        requireViewer(request);
        let day: string;
        try {
          day = parseDay(url.searchParams.get('day'), clock());
        } catch (error) {
          throw new HttpError(400, 'bad_day', (error as Error).message);
        }
        const history = await readHistoryDay(source().journal, day);
        if (history.error)
          log.error({ day, error: history.error }, 'history: journal not readable');
        if (url.searchParams.get('download') === '1') {
          response.setHeader(
            'content-disposition',
            `attachment; filename="${options.daemon.table}-${day}.json"`,
          );
        }
        sendJson(response, 200, { table: options.daemon.table, ...history });
        return;
      }
      const requestOp = /^\/api\/request\/([a-z_]+)$/.exec(path)?.[1];
      if (requestOp !== undefined && method === 'POST') {
        const viewer = requireViewer(request);
        requireSameSite(request);
        if (viewer.role !== 'supervisor' || viewer.anonymous) {
          log.warn({ user: viewer.user, op: requestOp }, 'request refused: not a supervisor');
          throw new HttpError(
            403,
            'not_allowed',
            `${viewer.user} is a viewer: only a supervisor may make requests`,
          );
        }
        const token = request.headers['x-csrf-token'];
        if (!sameToken(Array.isArray(token) ? token[0] : token, viewer.csrf ?? '')) {
          log.warn(
            { user: viewer.user, op: requestOp },
            'request refused: missing or wrong CSRF token',
          );
          throw new HttpError(
            403,
            'bad_csrf',
            'refused: the request did not come from this console (CSRF token)',
          );
        }
        const parsed = parseConsoleRequest(requestOp, await readJson(request));
        if (!parsed.ok) throw new HttpError(400, 'bad_request', parsed.error);
        log.info({ user: viewer.user, request: parsed.request }, 'console request');
        try {
          const data = await applyConsoleRequest(options.daemon, parsed.request, viewer.user);
          sendJson(response, 200, { status: 'ok', data });
        } catch (error) {
          const code = (error as DaemonError).code;
          log.warn(
            { user: viewer.user, op: requestOp, err: (error as Error).message },
            'console request refused',
          );
          throw new HttpError(
            409,
            typeof code === 'string' ? code : 'refused',
            (error as Error).message,
          );
        }
        return;
      }
      throw new HttpError(404, 'not_found', `no such page: ${method} ${path}`);
    };

    const tableInfo = () => {
      // Any game's ruleset: the game registry knows them all, and which view draws the table.
      const name = options.daemon.ruleset;
      const ruleset = rulesetIdentity(name);
      return {
        table: options.daemon.table,
        ruleset: ruleset.name,
        rulesetTitle: ruleset.title,
        game: ruleset.game,
        view: gameOf(name).webView(name),
        // Card and roulette rulesets alike: `set_ruleset` takes either between shoes or games.
        rulesets: allRulesetNames(),
      };
    };

    const devicesReport = () => devicesReportOf(options.daemon, notices, lastVerify);

    const listener = (request: IncomingMessage, response: ServerResponse) => {
      handle(request, response).catch((error: unknown) => {
        if (error instanceof HttpError) {
          if (error.status >= 500) log.error({ err: error.message }, 'web request failed');
          for (const [name, value] of Object.entries(error.headers))
            response.setHeader(name, value);
          sendJson(response, error.status, {
            status: 'error',
            code: error.code,
            error: error.message,
          });
          return;
        }
        log.error({ err: error }, 'web request failed');
        sendJson(response, 500, {
          status: 'error',
          code: 'failed',
          error: 'internal error (see the log)',
        });
      });
    };
    const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error) =>
        reject(
          new Error(
            `web console: cannot listen on ${config.host}:${config.port}: ${error.message}`,
          ),
        ),
      );
      server.listen(config.port, config.host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    hostNames = consoleHostNames(config.host, address.address, config.allowedHosts);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `${tls ? 'https' : 'http'}://${host}:${address.port}`;
    log.info({ url, users: Object.keys(config.users).length, anonymous }, 'web console listening');
    const loginLink = bench?.link(url);
    const web = new WebConsole(server, url, loginLink, () => {
      options.daemon.off('journaled', onChange);
      options.daemon.off('notice', onNotice);
      options.daemon.off('availability', onAvailability);
      for (const stream of streams) stream.close();
    });
    return web;
  }

  async stop(): Promise<void> {
    this.stopFeed();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
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

/** A page opened mid-shoe gets the shoe's events so far (at most the last 5,000 records). */
function freshStart(daemon: TableDaemon): number | undefined {
  const shoe = daemon.shoeStartSeq();
  if (shoe === 0) return undefined;
  return Math.max(shoe - 1, daemon.lastSeq - 5000);
}

function sessionCookie(token: string, maxAge: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${encodeURIComponent(token)}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${Math.floor(maxAge)}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

async function readTls(
  tls: NonNullable<WebConfig['tls']>,
): Promise<{ cert: Buffer; key: Buffer; ca?: Buffer }> {
  const read = async (key: 'cert' | 'key' | 'ca', path: string) => {
    try {
      return await readFile(path);
    } catch (error) {
      throw new Error(`web.tls.${key}: cannot read ${path}: ${(error as Error).message}`);
    }
  };
  return {
    cert: await read('cert', tls.cert),
    key: await read('key', tls.key),
    ...(tls.ca ? { ca: await read('ca', tls.ca) } : {}),
  };
}

export type { Role };
