/**
 * The names the console answers to. A browser sends the name it was given in
 * the `Host` header: a page of another site whose DNS name was rebound to this
 * address (DNS rebinding) sends that site's name, and is refused, so an
 * anonymous viewer on loopback is not readable from any web page.
 */
import { hostname, networkInterfaces } from 'node:os';
import { isLoopback } from '../config/web-schema.ts';

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * The configured host, the address bound, `localhost` and the loopback
 * addresses on loopback, every interface's address and the machine's name on
 * a wildcard address, and `allowedHosts` (a reverse proxy's names).
 */
export function consoleHostNames(
  configuredHost: string,
  boundAddress: string,
  allowedHosts: readonly string[],
): Set<string> {
  const names = new Set<string>([configuredHost, boundAddress, ...allowedHosts]);
  if (isLoopback(configuredHost) || isLoopback(boundAddress) || WILDCARDS.has(boundAddress)) {
    for (const name of ['localhost', '127.0.0.1', '::1']) names.add(name);
  }
  if (WILDCARDS.has(boundAddress)) {
    for (const addresses of Object.values(networkInterfaces())) {
      for (const { address } of addresses ?? []) names.add(address);
    }
    names.add(hostname());
  }
  for (const wildcard of WILDCARDS) names.delete(wildcard);
  return new Set([...names].map(normalHost));
}

/** The host part of a `Host` header, lower case, without port, brackets or a final dot. */
export function hostOfHeader(header: string): string {
  const value = header.trim();
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(value);
  if (bracketed) return normalHost(bracketed[1]!);
  const colons = value.split(':').length - 1;
  // One colon separates a port; more is an IPv6 address without brackets.
  return normalHost(colons === 1 ? value.slice(0, value.indexOf(':')) : value);
}

function normalHost(name: string): string {
  return name
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
}
