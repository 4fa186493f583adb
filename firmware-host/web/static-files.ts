/**
 * The page's own files, served as written (no build step): read and
 * gzipped once at start, with an ETag, never from a path the request names.
 * Besides public/, each game's browser modules its plug-in names
 * (`webModules`, in its folder's web/public/), under `/games/<plug-in id>/`:
 * nothing else of a game's folder is served.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { GamePlugin } from '../games/game.ts';
import { installedGames } from '../games/registry.ts';
import { SECURITY_HEADERS } from './http.ts';

export const PUBLIC_DIR = join(import.meta.dirname, 'public');

/** Where a game's browser modules live: the folder its plug-in names (`webFolder`). */
export const gameWebDir = (plugin: GamePlugin) => fileURLToPath(plugin.webFolder);

/** The URL a game's browser module is served at. */
export const gameModuleUrl = (game: string, file: string) => `/games/${game}/${file}`;

/** A module name a plug-in may declare: a plain file of its web/public/, no path. */
const MODULE_NAME = /^[a-z][a-z0-9-]*\.js$/;

/** The installed plug-ins' browser modules, by URL path, each checked to be a plain file name. */
function gameFiles(): [string, string][] {
  return installedGames().plugins.flatMap((plugin) =>
    plugin.webModules.map((file): [string, string] => {
      if (!MODULE_NAME.test(file)) {
        throw new Error(`game ${plugin.id}: web module ${JSON.stringify(file)} is not a file name`);
      }
      return [gameModuleUrl(plugin.id, file), join(gameWebDir(plugin), file)];
    }),
  );
}

/**
 * The page's files by URL path, each with the file it is: every .html, .js,
 * .css and .ico of public/ (`/` is index.html), and the installed games'
 * modules (read when a console starts: a test's registry plugs in its own).
 */
export function staticFiles(): Readonly<Record<string, string>> {
  return Object.fromEntries([
    ['/', join(PUBLIC_DIR, 'index.html')],
    ...readdirSync(PUBLIC_DIR)
      .filter((name) => /\.(html|js|css|ico)$/.test(name))
      .map((name) => [`/${name}`, join(PUBLIC_DIR, name)]),
    ...gameFiles(),
  ]);
}
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  // Browsers ask for /favicon.ico on every page: answered, it is no console error.
  ico: 'image/x-icon',
};

export interface StaticFile {
  type: string;
  plain: Buffer;
  gzip: Buffer;
  etag: string;
}

export function serveStatic(
  request: IncomingMessage,
  response: ServerResponse,
  file: StaticFile,
): void {
  if (request.headers['if-none-match'] === file.etag) {
    response.writeHead(304, { etag: file.etag });
    response.end();
    return;
  }
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  const body = gzip ? file.gzip : file.plain;
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'content-type': file.type,
    'cache-control': 'no-cache',
    etag: file.etag,
    vary: 'accept-encoding',
    'content-length': body.length,
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
  });
  response.end(request.method === 'HEAD' ? undefined : body);
}

/** The page's files by their path, read and compressed once at start (no build step: they are served as written). */
export function loadStaticFiles(paths: Iterable<string>): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const path of new Set(paths)) {
    const plain = readFileSync(path);
    const gzip = gzipSync(plain, { level: 9 });
    const etag = `"${plain.length.toString(36)}-${hashOf(plain)}"`;
    files.set(path, { type: CONTENT_TYPES[path.split('.').pop()!]!, plain, gzip, etag });
  }
  return files;
}

function hashOf(bytes: Buffer): string {
  let hash = 2166136261;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
  return hash.toString(36);
}
