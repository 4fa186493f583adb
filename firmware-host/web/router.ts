/**
 * The console's route table: a method and a path (or a pattern whose groups
 * become the call's `params`) to a handler. What no route takes is a 404
 * naming the method and path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpError } from './http.ts';

export interface RouteCall {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  /** The groups of a pattern route's path, in order. */
  params: string[];
}

export interface Route {
  method: 'GET' | 'HEAD' | 'POST';
  path: string | RegExp;
  handle(call: RouteCall): Promise<void> | void;
}

export class Router {
  private readonly exact = new Map<string, Route>();
  private readonly patterns: Route[] = [];

  constructor(routes: readonly Route[]) {
    for (const route of routes) {
      if (typeof route.path !== 'string') {
        this.patterns.push(route);
        continue;
      }
      const key = `${route.method} ${route.path}`;
      if (this.exact.has(key)) throw new Error(`web console: two routes for ${key}`);
      this.exact.set(key, route);
    }
  }

  async dispatch(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://console');
    const path = url.pathname;
    const method = request.method ?? 'GET';
    const route = this.exact.get(`${method} ${path}`);
    if (route) {
      await route.handle({ request, response, url, params: [] });
      return;
    }
    for (const pattern of this.patterns) {
      if (pattern.method !== method) continue;
      const match = (pattern.path as RegExp).exec(path);
      if (match) {
        await pattern.handle({ request, response, url, params: match.slice(1) });
        return;
      }
    }
    throw new HttpError(404, 'not_found', `no such page: ${method} ${path}`);
  }
}
