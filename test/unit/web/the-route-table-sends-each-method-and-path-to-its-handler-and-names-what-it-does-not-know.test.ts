import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../firmware-host/web/http.ts';
import { type RouteCall, Router } from '../../../firmware-host/web/router.ts';

const response = {} as ServerResponse;
const requestOf = (method: string, url: string) => ({ method, url }) as IncomingMessage;

describe('the web console route table', () => {
  const calls: string[] = [];
  const router = new Router([
    { method: 'GET', path: '/api/me', handle: () => void calls.push('me') },
    { method: 'POST', path: '/api/login', handle: () => void calls.push('login') },
    {
      method: 'POST',
      path: /^\/api\/request\/([a-z_]+)$/,
      handle: ({ params, url }: RouteCall) => void calls.push(`request ${params[0]} ${url.search}`),
    },
  ]);

  it('sends a method and path to its handler, and a pattern path with its groups', async () => {
    await router.dispatch(requestOf('GET', '/api/me'), response);
    await router.dispatch(requestOf('POST', '/api/request/void_hand?x=1'), response);
    expect(calls).toEqual(['me', 'request void_hand ?x=1']);
  });

  it('answers 404 naming the method and path for a known path under another method', async () => {
    const refused = router.dispatch(requestOf('GET', '/api/login'), response);
    await expect(refused).rejects.toBeInstanceOf(HttpError);
    await expect(refused).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'no such page: GET /api/login',
    });
    await expect(
      router.dispatch(requestOf('POST', '/api/request/Void'), response),
    ).rejects.toMatchObject({ status: 404, message: 'no such page: POST /api/request/Void' });
  });

  it('refuses two routes for the same method and path', () => {
    expect(
      () =>
        new Router([
          { method: 'GET', path: '/', handle: () => undefined },
          { method: 'GET', path: '/', handle: () => undefined },
        ]),
    ).toThrow('two routes for GET /');
  });
});
