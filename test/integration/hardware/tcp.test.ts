import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type LinkStateChange,
  ReconnectingLink,
} from '../../../hardware/transports/reconnecting-link.ts';
import { openTransport } from '../../../hardware/transports/url.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A stand-in for ser2net: accepts connections and remembers them. */
async function listen(port = 0): Promise<{ server: Server; port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return { server, port: address.port, sockets };
}

describe('TCP transport against a local server', () => {
  it('reconnects after the server drops the connection and after it stops listening', async () => {
    const first = await listen();
    const link = new ReconnectingLink(
      openTransport(`tcp://127.0.0.1:${first.port}`),
      { initialDelayMs: 10, maxDelayMs: 40 },
      { random: () => 0.5 },
    );
    cleanups.push(() => link.close());
    const changes: LinkStateChange[] = [];
    link.on('state', (change) => changes.push(change));
    const chunks: string[] = [];
    link.on('data', (chunk) => chunks.push(chunk.toString()));
    link.start();
    await link.whenState('open');
    await vi.waitFor(() => expect(first.sockets).toHaveLength(1));
    first.sockets[0]?.write('one;');
    await vi.waitFor(() => expect(chunks.join('')).toBe('one;'));

    // The far end drops us: the link reopens on its own.
    first.sockets[0]?.destroy();
    const dropped = await link.whenState('reopening');
    expect(dropped?.reason).toMatch(/closed by peer|connection lost/);
    await link.whenState('open');
    await vi.waitFor(() => expect(first.sockets).toHaveLength(2));
    first.sockets[1]?.write('two;');
    await vi.waitFor(() => expect(chunks.join('')).toBe('one;two;'));

    // The server goes away altogether: refused connects are reported, then it comes back.
    for (const socket of first.sockets) socket.destroy();
    await new Promise<void>((resolve) => first.server.close(() => resolve()));
    await vi.waitFor(() =>
      expect(changes.some((c) => /open failed: .*ECONNREFUSED/.test(c.reason))).toBe(true),
    );
    const second = await listen(first.port);
    await link.whenState('open');
    await vi.waitFor(() => expect(second.sockets).toHaveLength(1));
    const received: string[] = [];
    second.sockets[0]?.on('data', (chunk) => received.push(chunk.toString()));
    await link.write(Buffer.from('three;'));
    await vi.waitFor(() => expect(received.join('')).toBe('three;'));
    expect(changes.filter((c) => c.state === 'open')).toHaveLength(3);
  });
});
