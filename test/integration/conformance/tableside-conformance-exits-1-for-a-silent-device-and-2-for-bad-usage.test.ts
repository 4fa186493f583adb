/**
 * The CLI's exit codes: 1 when a required check fails (a device on TCP that
 * accepts the connection and never says a word: the run ends on the HELLO
 * check's timeout, with a table and a verdict), 2 for bad usage.
 */
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, runCliSync } from '../../helpers/cli.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('tableside conformance exit codes', () => {
  it('exits 1 with the HELLO check named when the device stays silent', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });
    const port = (server.address() as { port: number }).port;
    const run = runCli(['conformance', '--link', `tcp://127.0.0.1:${port}`, '--scripted']);
    cleanups.push(async () => run.kill());
    const { code, stdout } = await run.done;
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL\s+hello\s+required\s+§ 4\.1, § 7\.1\s+no HELLO within \d+ ms; the device sent nothing$/m,
    );
    expect(stdout).toMatch(/^SKIP\s+ping\s+required\s+.*not run: no valid HELLO from the device$/m);
    expect(stdout).toMatch(/^DOES NOT CONFORM: \d+ of \d+ required checks did not pass: hello, /m);
  }, 60_000);

  it.each([
    [['conformance'], /--link URL is required/],
    [
      ['conformance', '--link', 'tcp://127.0.0.1:1', '--talker', 'XX'],
      /--talker "XX": expected one of SH, SF, RD, RW/,
    ],
    [
      ['conformance', '--link', 'tcp://127.0.0.1:1', '--key', 'rsa:abc'],
      /--key: expected "ed25519:<base64url>"/,
    ],
    [
      ['conformance', '--link', 'tcp://127.0.0.1:1', '--host-key', '/nonexistent/host-key.pem'],
      /--host-key: host key file \/nonexistent\/host-key\.pem does not exist/,
    ],
    [['conformance', '--link', 'ftp://x'], /transport URL "ftp:\/\/x"/],
    [['conformance', '--bogus'], /unknown option '--bogus'/],
  ])('exits 2 on bad usage: %j', (args, message) => {
    const result = runCliSync(args, { timeout: 30_000 });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
