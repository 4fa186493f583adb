/** `memory://name` (host end) or `memory://name?end=device`: an in-process wire. */
import { type MemoryEnd, memoryWire } from './memory.ts';
import type { TransportScheme } from './scheme.ts';
import { badUrl, queryOf, splitQuery } from './url-parts.ts';

export interface MemorySpec {
  kind: 'memory';
  name: string;
  end: MemoryEnd;
}

export const memoryScheme: TransportScheme<MemorySpec> = {
  scheme: 'memory',
  authority: true,
  example: 'memory://name',
  parse(url, rest) {
    const [name, query] = splitQuery(rest);
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(name)) {
      throw badUrl(url, 'expected memory://name (letters, digits, . _ -)');
    }
    const params = queryOf(url, query, ['end']);
    const end = params.get('end') ?? 'host';
    if (end !== 'host' && end !== 'device')
      throw badUrl(url, `end=${end}: expected host or device`);
    return { kind: 'memory', name, end };
  },
  format: (spec) => `memory://${spec.name}${spec.end === 'device' ? '?end=device' : ''}`,
  open(spec) {
    const wire = memoryWire(spec.name);
    return spec.end === 'host' ? wire.host : wire.device;
  },
};
