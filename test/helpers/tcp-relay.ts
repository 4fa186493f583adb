/**
 * A TCP relay in front of a real server (the test broker): what a network
 * between the table and its broker does, with a cable the test can cut. A
 * cut ends every connection through it at once (both sockets destroyed, no
 * DISCONNECT said), as a dying link does; new connections go through again.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface TcpRelay {
  /** `mqtt://127.0.0.1:<port>` of the relay, for a client to connect to. */
  readonly url: string;
  /** Connections through the relay now. */
  readonly open: number;
  /** Ends every connection through the relay at once. */
  cut(): void;
  close(): Promise<void>;
}

export async function startTcpRelay(targetUrl: string): Promise<TcpRelay> {
  const target = new URL(targetUrl);
  const pairs = new Set<[Socket, Socket]>();
  const server: Server = createServer((inbound) => {
    const outbound = createConnection({ host: target.hostname, port: Number(target.port) });
    const pair: [Socket, Socket] = [inbound, outbound];
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on('error', end).on('close', end);
    outbound.on('error', end).on('close', end);
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const cut = () => {
    for (const [inbound, outbound] of [...pairs]) {
      inbound.destroy();
      outbound.destroy();
    }
    pairs.clear();
  };
  return {
    url: `${target.protocol}//127.0.0.1:${port}`,
    get open() {
      return pairs.size;
    },
    cut,
    async close() {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
