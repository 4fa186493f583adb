/**
 * HTTP requests fetch cannot make: from another loopback address
 * (127.0.0.2, … stand for other clients), with a `Host` header of our
 * choosing, or with a body held back after the headers (`Expect:
 * 100-continue`: the server's `100 Continue` says it has started on them).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** The JSON body's `code`, when it has one. */
  code?: string;
  error?: string;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The client's source address (any of 127.0.0.0/8 on Linux). */
  from?: string;
}

/** Starts a request whose body is sent only when `finish` is called. */
export function heldRequest(
  url: string,
  options: RawRequest,
): { continued: Promise<void>; finish: () => Promise<RawAnswer> } {
  const target = new URL(url);
  const body = Buffer.from(options.body ?? '');
  let answered!: (answer: RawAnswer) => void;
  let failed!: (error: Error) => void;
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    answered = resolve;
    failed = reject;
  });
  let continued!: () => void;
  const started = new Promise<void>((resolve) => {
    continued = resolve;
  });
  const request = httpRequest({
    host: target.hostname,
    port: target.port,
    method: options.method ?? 'POST',
    path: options.path,
    agent: false,
    ...(options.from ? { localAddress: options.from } : {}),
    headers: { 'content-length': String(body.length), ...options.headers },
  });
  request.on('continue', continued);
  request.on('error', failed);
  request.on('response', (response) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let parsed: { code?: string; error?: string } = {};
      try {
        parsed = JSON.parse(text) as typeof parsed;
      } catch {
        // not JSON: the body is there as text
      }
      answered({
        status: response.statusCode ?? 0,
        headers: response.headers,
        body: text,
        ...(parsed.code ? { code: parsed.code } : {}),
        ...(parsed.error ? { error: parsed.error } : {}),
      });
    });
  });
  request.flushHeaders();
  return {
    continued: started,
    finish: () => {
      request.end(body);
      return answer;
    },
  };
}

export function rawRequest(url: string, options: RawRequest): Promise<RawAnswer> {
  return heldRequest(url, options).finish();
}

/** A console login from `from`, as raw HTTP. */
export function rawLogin(url: string, user: string, password: string, from?: string) {
  return rawRequest(url, {
    path: '/api/login',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, password }),
    ...(from ? { from } : {}),
  });
}
