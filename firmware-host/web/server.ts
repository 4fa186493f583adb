/**
 * The table's web console: node:http (or node:https with the same PEM
 * options as MQTT), no framework. Static pages from `public/` (no build
 * step), a JSON API and the live feed (feed.ts). Every answer that carries
 * table data passes the same guard as MQTT. It reads and asks the table
 * through its port (port.ts) only.
 *
 * Access: users and roles from the config (`viewer` reads, `supervisor` may
 * make requests), scrypt hashes, an HttpOnly SameSite=Strict session
 * cookie, a per-session CSRF token required on every POST together with a
 * same-origin check, login limits per address and per user name, and a
 * `Host` check (hosts.ts). With no users and a loopback address, anyone at
 * the Pi may watch (read only); on a simulated bench a one-time link logs a
 * supervisor in (bench-login.ts). The routes are login-routes.ts and
 * table-routes.ts; who may call them, access.ts.
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
import type { Logger } from '../log.ts';
import { ConsoleAccess } from './access.ts';
import { BenchLogin, isSimulatedBench } from './bench-login.ts';
import type { EventStream } from './feed.ts';
import { consoleHostNames } from './hosts.ts';
import { HttpError, sendJson } from './http.ts';
import { loginRoutes } from './login-routes.ts';
import { LoginLimiter, LoginStore, type Role } from './logins.ts';
import type { ConsolePort } from './port.ts';
import { type Route, Router } from './router.ts';
import { loadStaticFiles, type StaticFile, serveStatic, staticFiles } from './static-files.ts';
import { tableRoutes } from './table-routes.ts';
import { TableWatch } from './table-watch.ts';

export interface WebConsoleOptions {
  /** What the console reads of the table and asks of it. */
  table: ConsolePort;
  config: WebConfig;
  log: Logger;
  clock?: () => number;
}

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
    const { config, log, table: port } = options;
    const clock = options.clock ?? Date.now;
    const logins = new LoginStore(config.sessionHours * 3_600_000, clock);
    const anonymous =
      config.anonymousViewer && isLoopback(config.host) && Object.keys(config.users).length === 0;
    const tls = config.tls ? await readTls(config.tls) : undefined;
    const access = new ConsoleAccess(logins, { anonymous, tls: !!tls, log });
    const bench = isSimulatedBench({ devices: port.devices, web: config })
      ? new BenchLogin()
      : undefined;
    const watch = new TableWatch(port, clock, (error) =>
      log.error({ err: error }, "the game's watch: the journal is not readable"),
    );
    const streams = new Set<EventStream>();
    const router = new Router([
      ...staticRoutes(staticFiles()),
      ...loginRoutes({
        config,
        log,
        tls: !!tls,
        logins,
        limiter: new LoginLimiter({}, clock),
        access,
        bench,
        streams,
      }),
      ...tableRoutes({ port, log, clock, logins, access, watch, streams }),
    ]);
    const listener = (request: IncomingMessage, response: ServerResponse) => {
      handle(access, router, request, response).catch((error: unknown) =>
        sendError(log, response, error),
      );
    };
    const server = tls ? createHttpsServer(tls, listener) : createHttpServer(listener);
    try {
      await listen(server, config);
    } catch (error) {
      watch.stop();
      throw error;
    }
    const address = server.address() as AddressInfo;
    access.hostNames = consoleHostNames(config.host, address.address, config.allowedHosts);
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const url = `${tls ? 'https' : 'http'}://${host}:${address.port}`;
    log.info({ url, users: Object.keys(config.users).length, anonymous }, 'web console listening');
    return new WebConsole(server, url, bench?.link(url), () => {
      watch.stop();
      for (const stream of streams) stream.close();
    });
  }

  async stop(): Promise<void> {
    this.stopFeed();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

/** Every request passes the `Host` check first, then goes where the route table says. */
async function handle(
  access: ConsoleAccess,
  router: Router,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  access.requireOwnHost(request);
  await router.dispatch(request, response);
}

/** The page's own files, for GET and HEAD. */
/** The page's files read once at start, each answered at its URL path. */
function staticRoutes(paths: Readonly<Record<string, string>>): Route[] {
  const files: ReadonlyMap<string, StaticFile> = loadStaticFiles(Object.values(paths));
  return Object.entries(paths).flatMap(([path, name]) =>
    (['GET', 'HEAD'] as const).map(
      (method): Route => ({
        method,
        path,
        handle: ({ request, response }) => serveStatic(request, response, files.get(name)!),
      }),
    ),
  );
}

/** An HttpError answers with its status and code; anything else is a 500 that names nothing. */
function sendError(log: Logger, response: ServerResponse, error: unknown): void {
  if (error instanceof HttpError) {
    if (error.status >= 500) log.error({ err: error.message }, 'web request failed');
    for (const [name, value] of Object.entries(error.headers)) response.setHeader(name, value);
    sendJson(response, error.status, { status: 'error', code: error.code, error: error.message });
    return;
  }
  log.error({ err: error }, 'web request failed');
  sendJson(response, 500, {
    status: 'error',
    code: 'failed',
    error: 'internal error (see the log)',
  });
}

function listen(server: Server, config: WebConfig): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', (error) =>
      reject(
        new Error(`web console: cannot listen on ${config.host}:${config.port}: ${error.message}`),
      ),
    );
    server.listen(config.port, config.host, () => resolve());
  });
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
