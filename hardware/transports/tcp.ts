/**
 * TCP client transport, `tcp://host:port`: a device behind ser2net, a remote
 * test bench, or a simulator listening on a socket. Raw bytes, no telnet
 * negotiation (configure ser2net with `raw` / `accepter: tcp,...` and no
 * telnet option).
 */
import { connect, type Socket } from 'node:net';
import { HardwareError } from '../errors.ts';
import { BaseTransport } from './transport.ts';

export interface TcpOptions {
  host: string;
  port: number;
  /** TCP keepalive probe delay; lets the kernel notice a dead peer on an idle link. */
  keepAliveMs: number;
}

export const DEFAULT_TCP_KEEPALIVE_MS = 5_000;

export class TcpTransport extends BaseTransport {
  readonly kind = 'tcp' as const;
  private socket: Socket | undefined;

  constructor(readonly options: TcpOptions) {
    super(
      `tcp://${options.host.includes(':') ? `[${options.host}]` : options.host}:${options.port}`,
    );
    if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65_535) {
      throw new HardwareError('bad_options', `${this.url}: port must be 1..65535`);
    }
  }

  protected doOpen(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.options.host, port: this.options.port });
      const failed = (error: Error) => {
        signal.removeEventListener('abort', aborted);
        socket.destroy();
        reject(new HardwareError('open_failed', `${this.url}: ${error.message}`, { cause: error }));
      };
      const aborted = () => failed(new Error('connect abandoned'));
      signal.addEventListener('abort', aborted, { once: true });
      socket.once('error', failed);
      socket.once('connect', () => {
        signal.removeEventListener('abort', aborted);
        socket.off('error', failed);
        socket.setNoDelay(true);
        socket.setKeepAlive(true, this.options.keepAliveMs);
        this.socket = socket;
        let lastError: Error | undefined;
        socket.on('data', (chunk: Buffer) => this.received(chunk));
        socket.on('error', (error) => {
          lastError = error;
        });
        socket.on('close', () => {
          if (this.socket === socket) this.socket = undefined;
          if (lastError) this.ended(`connection lost (${lastError.message})`, lastError);
          else this.ended('connection closed by peer');
        });
        // A half-close from the peer means the device side is gone: close ours too.
        socket.on('end', () => socket.destroy());
        resolve();
      });
    });
  }

  protected doWrite(bytes: Uint8Array): Promise<void> {
    const socket = this.socket;
    if (!socket) return Promise.reject(new Error('socket is gone'));
    return new Promise((resolve, reject) => {
      socket.write(bytes, (error) => (error ? reject(error) : resolve()));
    });
  }

  protected doClose(): Promise<void> {
    const socket = this.socket;
    if (!socket || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      socket.once('close', () => resolve());
      socket.destroy();
    });
  }
}
