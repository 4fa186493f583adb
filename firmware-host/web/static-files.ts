/**
 * The page's own files, served as written (no build step): read and
 * gzipped once at start, with an ETag, never from a path the request names.
 */
import { readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { SECURITY_HEADERS } from './http.ts';

export const PUBLIC_DIR = join(import.meta.dirname, 'public');
/** The page's files: every .html, .js, .css and .ico of public/, by URL path (`/` is index.html). */
export const STATIC_FILES: Readonly<Record<string, string>> = Object.fromEntries([
  ['/', 'index.html'],
  ...readdirSync(PUBLIC_DIR)
    .filter((name) => /\.(html|js|css|ico)$/.test(name))
    .map((name) => [`/${name}`, name]),
]);
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

/** The page's files, read and compressed once at start (no build step: they are served as written). */
export function loadStaticFiles(): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of new Set(Object.values(STATIC_FILES))) {
    const plain = readFileSync(join(PUBLIC_DIR, name));
    const gzip = gzipSync(plain, { level: 9 });
    const etag = `"${plain.length.toString(36)}-${hashOf(plain)}"`;
    files.set(name, { type: CONTENT_TYPES[name.split('.').pop()!]!, plain, gzip, etag });
  }
  return files;
}

function hashOf(bytes: Buffer): string {
  let hash = 2166136261;
  for (const byte of bytes) hash = Math.imul(hash ^ byte, 16777619) >>> 0;
  return hash.toString(36);
}
