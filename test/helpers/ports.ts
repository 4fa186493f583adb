/**
 * A free TCP port on 127.0.0.1. Another process may take it before the
 * caller binds it; tests bind it promptly.
 */
import { createServer, Socket } from 'node:net';
import { until } from './until.ts';

/**
 * Picks at random below the kernel's ephemeral range (32768+ on Linux), so
 * that a port a test broker frees while it is stopped is not handed to
 * another test's `listen(0)` before the broker starts again on it.
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await canListen(port)) return port;
  }
  return listenOn(0);
}

async function canListen(port: number): Promise<boolean> {
  try {
    await listenOn(port);
    return true;
  } catch {
    return false;
  }
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      const bound = typeof address === 'object' && address ? address.port : port;
      server.close(() => resolve(bound));
    });
  });
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(
  port: number,
  timeoutMs = 10_000,
  host = '127.0.0.1',
): Promise<void> {
  const listening = () =>
    new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        socket.destroy();
        resolve(false);
      });
      socket.connect(port, host);
    });
  await until(listening, `something to listen on ${host}:${port}`, timeoutMs);
}
