/**
 * A transport URL scheme: how its URLs read and print, and the transport one
 * opens. Each transport declares its own (`serial.ts`, `tcp.ts`, ...,
 * `readers/pn532-hsu.ts`, `readers/wedge.ts`); `url.ts` holds the registry
 * they are registered in, so a vendor's adapter adds a scheme without
 * touching a switch.
 */
import type { Transport } from './transport.ts';

export interface TransportScheme<Spec extends { kind: string } = { kind: string }> {
  /** The scheme's name before the colon, lower case; also the spec's `kind`. */
  readonly scheme: Spec['kind'];
  /** `scheme://...` (true) or `scheme:...` (false). */
  readonly authority: boolean;
  /** One URL of the scheme's shape, for the error of a URL that is none. */
  readonly example: string;
  /** What follows `scheme:` (or `scheme://`) into a spec; throws `badUrl` naming what is wrong. */
  parse(url: string, rest: string): Spec;
  /** The canonical URL of a spec (what `tableside devices` prints). */
  format(spec: Spec): string;
  /** The transport, not yet opened; `url` is what it reports itself as. */
  open(spec: Spec, url: string): Transport;
}
