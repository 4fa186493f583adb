/** The console's access pieces: scrypt hashes, sessions, the login limiter, cookies, the web config. */
import { describe, expect, it } from 'vitest';
import { webSchema } from '../../../firmware-host/config/web-schema.ts';
import { webFromOption } from '../../../firmware-host/web/option.ts';
import { hashPassword, verifyPassword } from '../../../firmware-host/web/passwords.ts';
import { parseConsoleRequest } from '../../../firmware-host/web/requests.ts';
import {
  LoginLimiter,
  parseCookies,
  SessionStore,
  sameToken,
} from '../../../firmware-host/web/sessions.ts';

describe('passwords', () => {
  it('hashes with scrypt and a fresh salt, and verifies only the right password', async () => {
    const one = await hashPassword('correct horse');
    const two = await hashPassword('correct horse');
    expect(one).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(one).not.toBe(two);
    expect(one).not.toContain('correct');
    expect(await verifyPassword('correct horse', one)).toBe(true);
    expect(await verifyPassword('correct horse', two)).toBe(true);
    expect(await verifyPassword('correct hors', one)).toBe(false);
  });
  it('answers false, never throws, for a malformed hash', async () => {
    for (const hash of [
      '',
      'plain',
      'scrypt$x$8$1$AA==$AA==',
      'bcrypt$1$2$3$4$5',
      'scrypt$16384$8$1$AA==$AA==',
    ]) {
      expect(await verifyPassword('anything', hash)).toBe(false);
    }
  });
});

describe('sessions', () => {
  it('gives each login its own token and CSRF token, and forgets it when it expires', () => {
    let now = 1_000;
    const store = new SessionStore(60_000, () => now);
    const a = store.create('alice', 'supervisor');
    const b = store.create('alice', 'supervisor');
    expect(a.token).not.toBe(b.token);
    expect(a.session.csrf).not.toBe(b.session.csrf);
    expect(store.get(a.token)).toMatchObject({ user: 'alice', role: 'supervisor' });
    expect(store.get('forged')).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
    now += 60_000;
    expect(store.get(a.token)).toBeUndefined();
  });
  it('logs out', () => {
    const store = new SessionStore(60_000);
    const { token } = store.create('bob', 'viewer');
    store.delete(token);
    expect(store.get(token)).toBeUndefined();
  });
  it('compares CSRF tokens exactly', () => {
    expect(sameToken('abc', 'abc')).toBe(true);
    expect(sameToken('abd', 'abc')).toBe(false);
    expect(sameToken('ab', 'abc')).toBe(false);
    expect(sameToken(undefined, 'abc')).toBe(false);
  });
});

describe('LoginLimiter', () => {
  it('refuses an address after five failures within the minute, until the first of them is a minute old', () => {
    let now = 0;
    const limiter = new LoginLimiter(5, 60_000, () => now);
    for (let i = 0; i < 5; i++) {
      expect(limiter.retryAfter('10.0.0.1')).toBe(0);
      limiter.failed('10.0.0.1');
      now += 1_000;
    }
    expect(limiter.retryAfter('10.0.0.1')).toBe(55_000);
    expect(limiter.retryAfter('10.0.0.2')).toBe(0);
    now = 60_001;
    expect(limiter.retryAfter('10.0.0.1')).toBe(0);
  });
  it('clears an address on a success', () => {
    const limiter = new LoginLimiter(2, 60_000, () => 0);
    limiter.failed('a');
    limiter.succeeded('a');
    limiter.failed('a');
    expect(limiter.retryAfter('a')).toBe(0);
  });
});

describe('parseCookies', () => {
  it('reads name=value pairs and ignores what it cannot decode', () => {
    expect(parseCookies('a=1; tableside_session=x%2By; bad=%E0%A4%A; =v')).toEqual({
      a: '1',
      tableside_session: 'x+y',
    });
    expect(parseCookies(undefined)).toEqual({});
  });
});

describe('console requests', () => {
  it('accepts the four requests and names what is wrong with a bad one', () => {
    expect(parseConsoleRequest('void_hand', { reason: ' dealer flashed a card ' })).toEqual({
      ok: true,
      request: { op: 'void_hand', reason: 'dealer flashed a card' },
    });
    expect(parseConsoleRequest('new_shoe', {})).toEqual({ ok: true, request: { op: 'new_shoe' } });
    expect(parseConsoleRequest('void_hand', {})).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^void_hand: reason: /),
    });
    expect(parseConsoleRequest('new_round', { boxes: [1] })).toMatchObject({ ok: false });
    expect(parseConsoleRequest('__proto__', {})).toMatchObject({
      ok: false,
      error: expect.stringContaining('unknown request'),
    });
  });
});

describe('web config', () => {
  it('defaults to loopback:8080 with no users', () => {
    expect(webSchema.parse({})).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      users: {},
      anonymousViewer: true,
    });
  });
  it('refuses another address without users, and a password that is not a hash', () => {
    const open = webSchema.safeParse({ host: '0.0.0.0' });
    expect(open.success).toBe(false);
    expect(open.error!.issues[0]!.message).toContain('needs users');
    const plain = webSchema.safeParse({
      users: { alice: { role: 'supervisor', password: 'hunter2' } },
    });
    expect(plain.success).toBe(false);
    expect(plain.error!.issues[0]!.message).toContain('scrypt hash');
    expect(webSchema.safeParse({ users: { bob: { role: 'admin', password: 'x' } } }).success).toBe(
      false,
    );
  });
  it('--web takes a port or host:port over the configured section', () => {
    expect(webFromOption(true, undefined)).toMatchObject({ host: '127.0.0.1', port: 8080 });
    expect(webFromOption('9000', undefined)).toMatchObject({ host: '127.0.0.1', port: 9000 });
    expect(webFromOption('[::1]:9001', undefined)).toMatchObject({ host: '::1', port: 9001 });
    const configured = webSchema.parse({ port: 7000, sessionHours: 2 });
    expect(webFromOption(true, configured)).toMatchObject({ port: 7000, sessionHours: 2 });
    expect(() => webFromOption('0.0.0.0:80', undefined)).toThrow(/needs users/);
    expect(() => webFromOption('a:b', undefined)).toThrow(/expected host:port or port/);
  });
});

describe('the web section in the loaded config', () => {
  it('resolves TLS files against the config file, redacts hashes, and warns about clear text', async () => {
    const { mkdtempSync, rmSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { loadConfig, redactConfig, configWarnings, summarizeConfig } = await import(
      '../../../firmware-host/config/loader.ts'
    );
    const dir = mkdtempSync(join(tmpdir(), 'tableside-webcfg-'));
    try {
      const file = join(dir, 'table.json');
      const hash = await hashPassword('long password');
      writeFileSync(
        file,
        JSON.stringify({
          web: {
            host: '0.0.0.0',
            tls: { cert: 'certs/web.pem', key: 'certs/web.key' },
            users: { alice: { role: 'supervisor', password: hash } },
          },
        }),
      );
      const { config } = await loadConfig({ file, cwd: '/' });
      expect(config.web?.tls).toEqual({
        cert: join(dir, 'certs/web.pem'),
        key: join(dir, 'certs/web.key'),
      });
      expect(redactConfig(config).web?.users.alice?.password).toBe('********');
      expect(config.web?.users.alice?.password).toBe(hash);
      expect(configWarnings(config)).toContain(
        `web.tls.cert: file not found: ${join(dir, 'certs/web.pem')}`,
      );
      expect(summarizeConfig(config).at(-1)).toBe('web console: https://0.0.0.0:8080 (1 user(s))');
      const { tls: _tls, ...clear } = config.web!;
      expect(configWarnings({ ...config, web: { ...clear } })).toContain(
        'web: served on 0.0.0.0 without TLS, so logins cross the network in clear text (set web.tls)',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
