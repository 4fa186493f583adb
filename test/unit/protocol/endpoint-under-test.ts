/**
 * The one place the state-table test (PROTOCOL.md § 6) meets the link code:
 * a device endpoint and a host endpoint, each taking lines and time and
 * answering with the lines it writes and the messages it hands its program.
 * Each is the link endpoint (`device-protocol/endpoint/`) in its role, as
 * the runner drives it: the tables are checked against the code that runs.
 */

import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import { challengeFrame } from '../../../device-protocol/auth/handshake.ts';
import { HostAuth, type HostAuthAction } from '../../../device-protocol/auth/host-auth.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import {
  DeviceEndpoint,
  type DeviceEndpointAction,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import { HostEndpoint } from '../../../device-protocol/endpoint/host-endpoint.ts';
import type { EndpointAction } from '../../../device-protocol/endpoint/link-endpoint.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import type { HelloMessage, Message } from '../../../device-protocol/messages.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';

/** What one input made the endpoint do: lines written (without CR LF), messages delivered. */
export interface Output {
  readonly written: string[];
  readonly delivered: Message[];
}

export interface DeviceUnderTest {
  /** Its end of the line (re)opens: its HELLO, then what it keeps. */
  open(now: number): Output;
  /** Its program has an event for the host. */
  send(message: Message, now: number): Output;
  receive(line: string, now: number): Output;
  tick(now: number): Output;
}

export interface HostUnderTest {
  receive(line: string, now: number): Output;
  tick(now: number): Output;
  /** The host's end of the line (re)opens. */
  reopen(now: number): Output;
}

export interface DeviceSigner {
  readonly publicKey: DevicePublicKey;
  signNow(digest: Uint8Array): Uint8Array;
}

/** The endpoint's actions as the tables name them: lines written, messages delivered. */
function outputOf(actions: readonly EndpointAction<unknown>[]): Output {
  const written: string[] = [];
  const delivered: Message[] = [];
  for (const action of actions) {
    if (action.kind === 'write') written.push(action.line.trimEnd());
    else if (action.kind === 'deliver') delivered.push(action.message);
  }
  return { written, delivered };
}

export function deviceUnderTest(options: {
  readonly hello: HelloMessage;
  /** Events in flight at most (1.2 and later). */
  readonly window: number;
  readonly key?: DeviceSigner;
}): DeviceUnderTest {
  const endpoint = new DeviceEndpoint({
    talker: 'SH',
    hello: options.hello,
    link: { maxInFlight: options.window },
    ...(options.key === undefined ? {} : { publicKey: options.key.publicKey }),
    fresh: freshHandshakeSecrets,
  });
  // A key file signs at once; a secure element would answer later, through the same call.
  const signing = (actions: DeviceEndpointAction[], now: number): DeviceEndpointAction[] =>
    actions.flatMap((action) =>
      action.kind === 'auth' && action.report.kind === 'sign'
        ? signing(
            endpoint.signed(action.report.id, options.key!.signNow(action.report.digest), now),
            now,
          )
        : [action],
    );
  return {
    open: (now) => outputOf(endpoint.lineOpened(now)),
    send: (message, now) => outputOf(endpoint.send(message, now)),
    receive: (line, now) => outputOf(signing(endpoint.receive(`${line}\r\n`, now), now)),
    tick: (now) => outputOf(endpoint.tick(now)),
  };
}

export function hostUnderTest(options: {
  readonly talker: 'SH';
  readonly paired?: DevicePublicKey;
}): HostUnderTest {
  const endpoint = new HostEndpoint({
    peer: options.talker,
    fresh: freshHandshakeSecrets,
    hostKey: processHostKey(),
    ...(options.paired === undefined ? {} : { paired: options.paired }),
  });
  endpoint.lineOpened(0);
  return {
    receive: (line, now) => outputOf(endpoint.receive(`${line}\r\n`, now)),
    tick: (now) => outputOf(endpoint.tick(now)),
    reopen: (now) => outputOf(endpoint.lineOpened(now)),
  };
}

/** A new device key (Ed25519, in memory). */
export async function newDeviceKey(): Promise<DeviceSigner> {
  const signer = generatedSigner('ed25519');
  return { publicKey: await signer.publicKey(), signNow: (digest) => signer.signNow(digest) };
}

/** A host's CHALLENGE with a fresh nonce and X25519 key. */
export function challengeLine(): string {
  const secrets = freshHandshakeSecrets();
  return encodeFrame(
    challengeFrame({ nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey }),
  ).trimEnd();
}

/**
 * The device's part of a handshake alone, for driving a host: it answers the
 * CHALLENGE of the HELLO it was told of, once that HELLO was ACKed, and
 * seals lines with the session's key.
 */
export interface DeviceHandshake {
  helloSent(line: string): void;
  helloAcked(now: number): void;
  /** The PROOF for a CHALLENGE line, if it answers one now. */
  challenged(line: string): string | undefined;
  /** The host's CONFIRM: the session keys go into use. */
  confirmed(line: string): void;
  /** The line as the device writes it: with a MAC once it has session keys. */
  seal(line: string, type: string): string;
}

export function deviceHandshake(key: DeviceSigner | undefined): DeviceHandshake {
  const auth = new DeviceAuth({
    talker: 'SH',
    ...(key === undefined ? {} : { publicKey: key.publicKey }),
    fresh: freshHandshakeSecrets,
  });
  return {
    helloSent: (line) => {
      auth.outgoing(`${line}\r\n`, 'HELLO');
    },
    helloAcked: (now) => auth.helloAcked(now),
    challenged: (line) => {
      let proof: string | undefined;
      for (const action of auth.incoming(parseFrameLine(`${line}\r\n`))) {
        if (action.kind === 'write') proof = action.line.trimEnd();
        if (action.kind === 'sign') {
          for (const signed of auth.signed(action.id, key!.signNow(action.digest)))
            if (signed.kind === 'write') proof = signed.line.trimEnd();
        }
      }
      return proof;
    },
    confirmed: (line) => {
      auth.incoming(parseFrameLine(`${line}\r\n`));
    },
    seal: (line, type) => (auth.outgoing(`${line}\r\n`, type) ?? line).trimEnd(),
  };
}

/**
 * A real host's handshake (HostAuth) for a device's HELLO line, for driving a
 * device: its CHALLENGE, and its CONFIRM of the device's PROOF.
 */
export function hostAuthFor(helloLine: string): {
  readonly challenge: string;
  confirm(proof: string): string;
} {
  const host = new HostAuth({
    talker: 'SH',
    hostKey: processHostKey(),
    fresh: freshHandshakeSecrets,
  });
  const written = (actions: readonly HostAuthAction[]) =>
    actions.flatMap((action) => (action.kind === 'write' ? [action.line.trimEnd()] : []));
  const challenge = written(host.incoming(parseFrameLine(`${helloLine}\r\n`), 0))[0]!;
  return {
    challenge,
    confirm: (proof) =>
      written(host.incoming(parseFrameLine(`${proof}\r\n`), 1)).find((line) =>
        line.includes(',CONFIRM,'),
      )!,
  };
}
