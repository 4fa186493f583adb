/**
 * Password guessing against the web console over real HTTP, from several
 * client addresses (127.0.0.x): an attempt counts when it starts, one
 * password is checked at a time per address, a user name tried too often is
 * refused from any address, and logging in as someone else clears nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { heldRequest, type RawAnswer, rawLogin } from './helpers/raw-http.ts';
import { USERS, WebTable } from './helpers/web-table.ts';

const statuses = (answers: RawAnswer[]) => answers.map((answer) => answer.status);
/** Guesses one at a time until the answer is "too many attempts" (at most ten). */
async function guessUntilLimited(guess: (i: number) => Promise<RawAnswer>): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = [];
  for (let i = 0; i < 10; i++) {
    answers.push(await guess(i));
    if (answers.at(-1)!.code === 'too_many_attempts') break;
  }
  return answers;
}

const count = (answers: RawAnswer[], status: number) =>
  answers.filter((answer) => answer.status === status).length;

describe('parallel and alternating login guesses are limited per address and per user name', () => {
  let table: WebTable | undefined;
  afterEach(async () => {
    await table?.stop();
    table = undefined;
  });

  it('refuses a burst, and the right password in it, while a guess is checked; counts each attempt as it starts; keeps per-user counts', async () => {
    table = await WebTable.start('login-limits', { cardIntervalMs: 200, roundIntervalMs: 400 });
    const url = table.url;

    // One guess for alice whose password is not sent yet: its attempt has started.
    const held = heldRequest(url, {
      path: '/api/login',
      headers: { 'content-type': 'application/json', expect: '100-continue' },
      body: JSON.stringify({ user: 'alice', password: 'guess-0' }),
    });
    await held.continued;
    // A burst from the same address meanwhile: 29 guesses and the right password, all refused.
    const burst = await Promise.all([
      ...Array.from({ length: 29 }, (_, i) => rawLogin(url, 'alice', `guess-${i + 1}`)),
      rawLogin(url, 'alice', USERS.alice.password),
    ]);
    expect(statuses(burst)).toEqual(Array(30).fill(429));
    expect(burst.at(-1)).toMatchObject({
      code: 'login_in_progress',
      error: 'a login from this address is already being checked: wait for its answer',
    });
    expect(Number(burst.at(-1)!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await held.finish()).status).toBe(401);

    // Four wrong supervisor guesses, a good viewer login, again and again: bob clears nothing of alice's.
    const guesses: RawAnswer[] = [];
    const viewerLogins: RawAnswer[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) {
        guesses.push(await rawLogin(url, 'alice', `round-${round}-${i}`, '127.0.0.60'));
      }
      viewerLogins.push(await rawLogin(url, 'bob', USERS.bob.password, '127.0.0.60'));
    }
    expect(count(guesses, 401)).toBeLessThanOrEqual(5);
    expect(count(guesses, 429)).toBeGreaterThanOrEqual(7);
    expect(viewerLogins[0]!.status).toBe(200);

    // Thirty guesses at once from one address, each for another name: at most five are checked.
    const parallel = await Promise.all(
      Array.from({ length: 30 }, (_, i) => rawLogin(url, `guess-${i}`, 'password', '127.0.0.2')),
    );
    expect(count(parallel, 401)).toBeGreaterThanOrEqual(1);
    expect(count(parallel, 401)).toBeLessThanOrEqual(5);
    expect(count(parallel, 429)).toBe(30 - count(parallel, 401));
    // Guesses one after the other then: five checked in all, burst included, and no more.
    const sequential = await guessUntilLimited((i) => rawLogin(url, `next-${i}`, 'x', '127.0.0.2'));
    expect(count([...parallel, ...sequential], 401)).toBe(5);
    const afterBurst = await rawLogin(url, 'bob', USERS.bob.password, '127.0.0.2');
    expect(afterBurst).toMatchObject({ status: 429, code: 'too_many_attempts' });
    expect(afterBurst.error).toMatch(
      /^too many failed logins from this address: try again in \d+ s$/,
    );

    // Thirty guesses at once for bob, each from its own address: at most five are checked,
    // and then bob's right password is refused from any address for the rest of the minute.
    const spread = await Promise.all(
      Array.from({ length: 30 }, (_, i) => rawLogin(url, 'bob', `spray-${i}`, `127.0.0.${10 + i}`)),
    );
    expect(count(spread, 401)).toBeGreaterThanOrEqual(1);
    expect(count(spread, 401)).toBeLessThanOrEqual(5);
    expect(count(spread, 429)).toBe(30 - count(spread, 401));
    const more = await guessUntilLimited((i) => rawLogin(url, 'bob', `more-${i}`, `127.0.1.${i}`));
    expect(count([...spread, ...more], 401)).toBe(5);
    const bob = await rawLogin(url, 'bob', USERS.bob.password, '127.0.0.99');
    expect(bob).toMatchObject({ status: 429, code: 'too_many_attempts' });
    expect(bob.error).toMatch(/^too many failed logins for bob: try again in \d+ s$/);

    expect(table.daemon.running).toBe(true);
  });
});
