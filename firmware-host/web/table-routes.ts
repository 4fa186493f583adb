/**
 * The table's API: who am I and what table is this, the live feed, the
 * Devices page, the journal's verification, a day's history, the game's
 * Scoreboard and a supervisor's requests.
 */

import { gameOf, rulesetIdentity, rulesetsOfGame } from '../games/registry.ts';
import { utcDay } from '../journal/record.ts';
import { verifyJournalDir } from '../journal/verify.ts';
import type { Logger } from '../log.ts';
import type { ConsoleAccess } from './access.ts';
import { devicesReportOf } from './devices-report.ts';
import { EventStream, resumeSeq } from './feed.ts';
import { parseDay, readHistoryDay } from './history.ts';
import { HttpError, readJson, sendJson } from './http.ts';
import { LOGIN_COOKIE, type LoginStore, parseCookies } from './logins.ts';
import type { ConsolePort } from './port.ts';
import { applyConsoleRequest, parseConsoleRequest } from './requests.ts';
import type { Route, RouteCall } from './router.ts';
import { webViewOf, webViewUrlsOf } from './table-view.ts';
import type { TableWatch } from './table-watch.ts';

export interface TableRoutesContext {
  port: ConsolePort;
  log: Logger;
  clock: () => number;
  logins: LoginStore;
  access: ConsoleAccess;
  watch: TableWatch;
  /** The open feeds: added here, ended by a logout or the console's stop. */
  streams: Set<EventStream>;
}

export function tableRoutes(context: TableRoutesContext): Route[] {
  const { access, port, watch, log, clock } = context;
  let lastVerify: Record<string, unknown> | undefined;
  return [
    {
      method: 'GET',
      path: '/api/me',
      handle: ({ request, response }) => {
        const viewer = access.viewerOf(request);
        sendJson(
          response,
          200,
          viewer ? { ...viewer, ...tableInfo(port) } : { user: null, anonymous: false },
        );
      },
    },
    { method: 'GET', path: '/api/stream', handle: (call) => openStream(context, call) },
    {
      method: 'GET',
      path: '/api/devices',
      handle: async ({ request, response }) => {
        access.requireViewer(request);
        sendJson(response, 200, await devicesReportOf(port, watch.notices, lastVerify));
      },
    },
    {
      method: 'GET',
      path: '/api/journal/verify',
      handle: async ({ request, response }) => {
        access.requireViewer(request);
        const report = await verifyJournalDir(port.journalDir);
        lastVerify = { ...report, at: clock(), findings: report.findings.slice(0, 20) };
        if (!report.ok) {
          log.error({ findings: report.findings.slice(0, 5) }, 'journal does not verify');
        }
        sendJson(response, 200, lastVerify);
      },
    },
    { method: 'GET', path: '/api/history', handle: (call) => history(context, call) },
    { method: 'GET', path: '/api/scoreboard', handle: (call) => scoreboard(context, call) },
    {
      method: 'POST',
      path: /^\/api\/request\/([a-z_]+)$/,
      handle: (call) => request(context, call),
    },
  ];
}

/** The live feed (feed.ts): resumes by `Last-Event-ID` or `since`, ends with the login. */
function openStream(
  { access, port, logins, watch, streams }: TableRoutesContext,
  { request, response, url }: RouteCall,
): void {
  const viewer = access.requireViewer(request);
  const token = parseCookies(request.headers.cookie)[LOGIN_COOKIE];
  const lastEventId = request.headers['last-event-id'];
  const stream = new EventStream(response, {
    source: watch.source(),
    since: resumeSeq(
      Array.isArray(lastEventId) ? lastEventId[0] : lastEventId,
      url.searchParams.get('since'),
    ),
    hello: { user: viewer.user, role: viewer.role, ...tableInfo(port) },
    freshFrom: freshStart(port) ?? watch.game?.replayFrom(),
    stillAllowed: () => viewer.anonymous || logins.get(token) !== undefined,
  });
  streams.add(stream);
  response.on('close', () => streams.delete(stream));
}

/** One day of the journal in the units of the table's game (the History page), or its download. */
async function history(
  { access, port, watch, log, clock }: TableRoutesContext,
  { request, response, url }: RouteCall,
): Promise<void> {
  access.requireViewer(request);
  let day: string;
  try {
    day = parseDay(url.searchParams.get('day'), clock());
  } catch (error) {
    throw new HttpError(400, 'bad_day', (error as Error).message);
  }
  const history = await readHistoryDay(
    watch.source().journal,
    day,
    gameOf(port.ruleset).dayHistory(),
  );
  if (history.error) log.error({ day, error: history.error }, 'history: journal not readable');
  if (url.searchParams.get('download') === '1') {
    response.setHeader('content-disposition', `attachment; filename="${port.table}-${day}.json"`);
  }
  sendJson(response, 200, { table: port.table, ...history });
}

/**
 * The game's Scoreboard of today (UTC), counted by its plug-in from the
 * day's results as History reads them; a 404 at a table whose game counts
 * none (baccarat's is its roads, on the feed).
 */
async function scoreboard(
  { access, port, watch, log, clock }: TableRoutesContext,
  { request, response }: RouteCall,
): Promise<void> {
  access.requireViewer(request);
  const board = gameOf(port.ruleset).scoreboard(port.ruleset);
  if (!board) {
    throw new HttpError(404, 'no_scoreboard', `a ${port.ruleset} table has no counted scoreboard`);
  }
  const day = utcDay(clock());
  const read = await readHistoryDay(watch.source().journal, day, board);
  if (read.error) log.error({ day, error: read.error }, 'scoreboard: journal not readable');
  sendJson(response, 200, {
    table: port.table,
    ruleset: port.ruleset,
    day,
    ...read.board,
    ...(read.error === undefined ? {} : { error: read.error }),
  });
}

/** A supervisor's request, journaled as `web:<user>`; one the table refuses is a 409 naming why. */
async function request(
  { access, port, log }: TableRoutesContext,
  { request, response, params }: RouteCall,
): Promise<void> {
  const op = params[0] ?? '';
  const viewer = access.requireSupervisor(request, op);
  const parsed = parseConsoleRequest(op, await readJson(request));
  if (!parsed.ok) throw new HttpError(400, 'bad_request', parsed.error);
  log.info({ user: viewer.user, request: parsed.request }, 'console request');
  try {
    const data = await applyConsoleRequest(port, parsed.request, viewer.user);
    sendJson(response, 200, { status: 'ok', data });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    log.warn({ user: viewer.user, op, err: (error as Error).message }, 'console request refused');
    throw new HttpError(409, typeof code === 'string' ? code : 'refused', (error as Error).message);
  }
}

function tableInfo(port: ConsolePort) {
  const ruleset = rulesetIdentity(port.ruleset);
  return {
    table: port.table,
    ruleset: ruleset.name,
    rulesetTitle: ruleset.title,
    game: ruleset.game,
    view: webViewOf(port.ruleset),
    // The game's own modules for its parts of the page, by URL (table-view.ts).
    views: webViewUrlsOf(port.ruleset),
    // Its own game's: a table never changes game (`set_ruleset` refuses another's, other_game).
    rulesets: rulesetsOfGame(port.ruleset),
  };
}

/** A page opened mid-shoe gets the shoe's events so far (at most the last 5,000 records). */
function freshStart(port: ConsolePort): number | undefined {
  const shoe = port.shoeStartSeq();
  if (shoe === 0) return undefined;
  return Math.max(shoe - 1, port.lastSeq - 5000);
}
