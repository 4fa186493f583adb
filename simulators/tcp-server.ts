/**
 * A listening TCP transport for `tableside sim --listen PORT`: the simulator
 * plays the device behind a ser2net-like socket and the daemon connects to it
 * with `tcp://HOST:PORT`. Each accepted connection is one "open"; when the
 * daemon disconnects, the next connection opens the transport again. A second
 * client replaces the first, as a serial line has one host.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { HardwareError } from '../hardware/errors.ts';
import { BaseTransport } from '../hardware/transports/transport.ts';

export class TcpServerTransport extends BaseTransport {
  readonly kind = 'tcp' as const;
  private server: Server | undefined;
  private listening: Promise<void> | undefined;
  private socket: Socket | undefined;
  private waiting: Socket | undefined;
  private accepted: ((socket: Socket) => void) | undefined;

  constructor(
    readonly port: number,
    readonly host = '0.0.0.0',
  ) {
    super(`tcp-listen://${host}:${port}`);
    if (!Number.isInteger(port) || port < 0 || port > 65_535) {
      throw new HardwareError('bad_options', `listen port ${port}: expected 0-65535`);
    }
  }

  /** The port actually bound (useful with port 0). */
  get boundPort(): number | undefined {
    const address = this.server?.address();
    return typeof address === 'object' && address ? address.port : undefined;
  }

  /** Starts listening without waiting for a client. */
  listen(): Promise<void> {
    if (this.listening) return this.listening;
    const server = createServer((socket) => {
      socket.setNoDelay(true);
      if (this.accepted) {
        const take = this.accepted;
        this.accepted = undefined;
        take(socket);
        return;
      }
      if (this.socket) {
        // One host per line: the newcomer replaces the old connection.
        this.socket.destroy();
      }
      this.waiting?.destroy();
      this.waiting = socket;
    });
    this.server = server;
    this.listening = new Promise((resolve, reject) => {
      server.once('error', (error) =>
        reject(new HardwareError('open_failed', `${this.url}: ${error.message}`, { cause: error })),
      );
      server.listen(this.port, this.host, () => resolve());
    });
    return this.listening;
  }

  protected async doOpen(signal: AbortSignal): Promise<void> {
    await this.listen();
    const socket =
      this.waiting ??
      (await new Promise<Socket>((resolve, reject) => {
        this.accepted = resolve;
        signal.addEventListener(
          'abort',
          () => {
            this.accepted = undefined;
            reject(new HardwareError('open_failed', `${this.url}: no host connected`));
          },
          { once: true },
        );
      }));
    this.waiting = undefined;
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      if (this.socket === socket) this.socket = undefined;
      this.ended('host disconnected');
    });
  }

  protected doWrite(bytes: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('no host connected'));
    return new Promise((resolve, reject) => {
      socket.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  protected doClose(): Promise<void> {
    const socket = this.socket;
    this.socket = undefined;
    if (!socket || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }

  /** Stops listening too (close() only drops the current connection). */
  async shutdown(): Promise<void> {
    await this.close();
    this.waiting?.destroy();
    const server = this.server;
    this.server = undefined;
    this.listening = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
