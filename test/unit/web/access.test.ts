/** The console's access pieces: scrypt hashes, logins, the login limiter, cookies, the web config. */
import { describe, expect, it } from 'vitest';
import { webSchema } from '../../../firmware-host/config/web-schema.ts';
import { BenchLogin, isSimulatedBench } from '../../../firmware-host/web/bench-login.ts';
import { consoleHostNames, hostOfHeader } from '../../../firmware-host/web/hosts.ts';
import {
  type LoginAttempt,
  LoginLimiter,
  LoginStore,
  parseCookies,
  sameToken,
} from '../../../firmware-host/web/logins.ts';
import { webFromOption } from '../../../firmware-host/web/option.ts';
import { hashPassword, verifyPassword } from '../../../firmware-host/web/passwords.ts';
import { parseConsoleRequest } from '../../../firmware-host/web/requests.ts';

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

describe('logins', () => {
  it('gives each login its own token and CSRF token, and forgets it when it expires', () => {
    let now = 1_000;
    const store = new LoginStore(60_000, () => now);
    const a = store.create('alice', 'supervisor');
    const b = store.create('alice', 'supervisor');
    expect(a.token).not.toBe(b.token);
    expect(a.login.csrf).not.toBe(b.login.csrf);
    expect(store.get(a.token)).toMatchObject({ user: 'alice', role: 'supervisor' });
    expect(store.get('forged')).toBeUndefined();
    expect(store.get(undefined)).toBeUndefined();
    now += 60_000;
    expect(store.get(a.token)).toBeUndefined();
  });
  it('logs out', () => {
    const store = new LoginStore(60_000);
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
  type Started = ReturnType<LoginLimiter['start']>;
  const attemptOf = (started: Started): LoginAttempt => {
    if ('code' in started) throw new Error(`refused: ${started.message}`);
    return started;
  };
  const fail = (limiter: LoginLimiter, address: string, user: string) => {
    const attempt = attemptOf(limiter.start(address));
    expect(attempt.forUser(user)).toBeUndefined();
    attempt.end(false);
  };

  it('refuses an address after five attempts within the minute, until the first of them is a minute old', () => {
    let now = 0;
    const limiter = new LoginLimiter({}, () => now);
    for (let i = 0; i < 5; i++) {
      fail(limiter, '10.0.0.1', `user${i}`);
      now += 1_000;
    }
    expect(limiter.start('10.0.0.1')).toEqual({
      code: 'too_many_attempts',
      message: 'too many failed logins from this address: try again in 55 s',
      retryAfterMs: 55_000,
    });
    attemptOf(limiter.start('10.0.0.2')).end(false);
    now = 60_001;
    attemptOf(limiter.start('10.0.0.1')).end(false);
  });
  it('counts an attempt when it starts: the sixth of six started together is refused', () => {
    const limiter = new LoginLimiter({ concurrent: 10 }, () => 0);
    const started = Array.from({ length: 6 }, () => limiter.start('a'));
    expect(started.slice(0, 5).every((s) => !('code' in s))).toBe(true);
    expect(started[5]).toMatchObject({ code: 'too_many_attempts' });
  });
  it('checks one password at a time per address and per user name', () => {
    const limiter = new LoginLimiter({}, () => 0);
    const first = attemptOf(limiter.start('a'));
    expect(limiter.start('a')).toMatchObject({
      code: 'login_in_progress',
      message: 'a login from this address is already being checked: wait for its answer',
    });
    expect(first.forUser('alice')).toBeUndefined();
    const other = attemptOf(limiter.start('b'));
    expect(other.forUser('alice')).toMatchObject({
      code: 'login_in_progress',
      message: 'a login for alice is already being checked: wait for its answer',
    });
    other.end(false);
    first.end(false);
    attemptOf(limiter.start('a')).end(false);
  });
  it('refuses a user name tried five times from anywhere', () => {
    const limiter = new LoginLimiter({}, () => 0);
    for (let i = 0; i < 5; i++) fail(limiter, `10.0.0.${i}`, 'alice');
    const attempt = attemptOf(limiter.start('10.0.0.9'));
    expect(attempt.forUser('alice')).toMatchObject({
      code: 'too_many_attempts',
      message: 'too many failed logins for alice: try again in 60 s',
    });
    attempt.end(false);
  });
  it("forgives a user's own failures from that address on a success, not another user's", () => {
    const limiter = new LoginLimiter({}, () => 0);
    for (let i = 0; i < 4; i++) fail(limiter, 'a', 'alice');
    const bob = attemptOf(limiter.start('a'));
    expect(bob.forUser('bob')).toBeUndefined();
    bob.end(true);
    fail(limiter, 'a', 'alice');
    expect(limiter.start('a')).toMatchObject({ code: 'too_many_attempts' });

    const mine = new LoginLimiter({}, () => 0);
    for (let i = 0; i < 4; i++) fail(mine, 'a', 'alice');
    const right = attemptOf(mine.start('a'));
    expect(right.forUser('alice')).toBeUndefined();
    right.end(true);
    for (let i = 0; i < 4; i++) fail(mine, 'a', 'alice');
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

describe('the names the console answers to', () => {
  it('on loopback: the address, localhost and the loopback addresses, plus allowedHosts', () => {
    const names = consoleHostNames('127.0.0.1', '127.0.0.1', ['Table-1.Casino.Example']);
    expect([...names].sort()).toEqual(
      ['127.0.0.1', '::1', 'localhost', 'table-1.casino.example'].sort(),
    );
  });
  it('on a named address: the name and the address it resolved to, not localhost', () => {
    const names = consoleHostNames('table-1.lan', '10.1.2.3', []);
    expect([...names].sort()).toEqual(['10.1.2.3', 'table-1.lan']);
  });
  it('reads the host of a Host header without its port, brackets, case or final dot', () => {
    expect(hostOfHeader('127.0.0.1:8080')).toBe('127.0.0.1');
    expect(hostOfHeader('[::1]:8080')).toBe('::1');
    expect(hostOfHeader('LOCALHOST.:8080')).toBe('localhost');
    expect(hostOfHeader('evil.example')).toBe('evil.example');
    expect(hostOfHeader('::1')).toBe('::1');
  });
  it('web.allowedHosts takes names and addresses, and refuses a URL or a port', () => {
    expect(
      webSchema.parse({ allowedHosts: ['table-1.casino.example', '10.0.0.5', '[fd00::1]'] })
        .allowedHosts,
    ).toEqual(['table-1.casino.example', '10.0.0.5', '[fd00::1]']);
    for (const bad of ['http://table-1', 'table-1:8080', '', 'a b']) {
      const parsed = webSchema.safeParse({ allowedHosts: [bad] });
      expect(parsed.success, bad).toBe(false);
      expect(parsed.error!.issues[0]!.message).toContain('without scheme or port');
    }
  });
});

describe('the bench login link', () => {
  const web = webSchema.parse({});
  const simulated = { shoe: { transport: 'simulate' } };
  it('is offered on a simulated bench bound to loopback with no users only', () => {
    expect(isSimulatedBench({ devices: simulated, web } as never)).toBe(true);
    const real = { shoe: { transport: '/dev/ttyUSB0' }, wheel: { transport: 'simulate' } };
    expect(isSimulatedBench({ devices: real, web } as never)).toBe(false);
    const users = { alice: { role: 'supervisor', password: 'scrypt$1$1$1$AA==$AA==' } };
    expect(isSimulatedBench({ devices: simulated, web: { ...web, users } } as never)).toBe(false);
    expect(
      isSimulatedBench({ devices: simulated, web: { ...web, host: '0.0.0.0' } } as never),
    ).toBe(false);
    expect(isSimulatedBench({ devices: simulated, web: undefined } as never)).toBe(false);
  });
  it('lets its token in once, and no other', () => {
    const login = new BenchLogin();
    const token = new URL(login.link('http://127.0.0.1:8080')).searchParams.get('token');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(login.use(`${token}x`)).toBe('wrong');
    expect(login.use(null)).toBe('wrong');
    expect(login.use(token)).toBe('ok');
    expect(login.use(token)).toBe('used');
  });
});
