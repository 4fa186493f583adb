/** `tcp://host:port` (`tcp://[::1]:4001` for IPv6), `?keepalive=MS`. */
import type { TransportScheme } from './scheme.ts';
import { DEFAULT_TCP_KEEPALIVE_MS, TcpTransport } from './tcp.ts';
import { badUrl, integerParam, queryOf, splitQuery } from './url-parts.ts';

export interface TcpSpec {
  kind: 'tcp';
  host: string;
  port: number;
  keepAliveMs: number;
}

export const tcpScheme: TransportScheme<TcpSpec> = {
  scheme: 'tcp',
  authority: true,
  example: 'tcp://host:port',
  parse(url, rest) {
    const [authority, query] = splitQuery(rest);
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})\/?$/.exec(authority);
    if (!match) throw badUrl(url, 'expected tcp://host:port');
    const host = match[1] ?? match[2] ?? '';
    const port = Number(match[3]);
    if (port < 1 || port > 65_535) throw badUrl(url, `port ${port} is not 1..65535`);
    const params = queryOf(url, query, ['keepalive']);
    const keepAliveMs = integerParam(url, params, 'keepalive', DEFAULT_TCP_KEEPALIVE_MS);
    return { kind: 'tcp', host, port, keepAliveMs };
  },
  format: (spec) => `tcp://${spec.host.includes(':') ? `[${spec.host}]` : spec.host}:${spec.port}`,
  open: (spec) =>
    new TcpTransport({ host: spec.host, port: spec.port, keepAliveMs: spec.keepAliveMs }),
};
