/**
 * The one place the state-table test (PROTOCOL.md § 6) meets the link code:
 * a device endpoint and a host endpoint, each taking lines and time and
 * answering with the lines it writes and the messages it hands its program.
 * Today each is composed as the device core and the driver compose them (a
 * `LinkSession` behind the device's `DeviceAuth`, or behind the driver's
 * `DriverAuth`); re-point these two functions at the link endpoint and the
 * tables are checked against it unchanged.
 */

import { DeviceAuth } from '../../../device-protocol/auth/device-auth.ts';
import { challengeFrame } from '../../../device-protocol/auth/handshake.ts';
import type { DevicePublicKey } from '../../../device-protocol/auth/keys.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import type { HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { DriverAuth } from '../../../firmware-host/drivers/device-auth.ts';
import { DEVICE_SESSION_DEFAULTS } from '../../../hardware/device/device-core.ts';
import { freshHandshakeSecrets, generatedSigner } from '../../../hardware/keys/device-key.ts';

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

function collector() {
  const output = { written: [] as string[], delivered: [] as Message[] };
  const take = () => {
    const taken = { written: [...output.written], delivered: [...output.delivered] };
    output.written.length = 0;
    output.delivered.length = 0;
    return taken;
  };
  return { output, take };
}

export function deviceUnderTest(options: {
  readonly hello: HelloMessage;
  /** Events in flight at most (1.2 and later). */
  readonly window: number;
  readonly key?: DeviceSigner;
}): DeviceUnderTest {
  const talker = 'SH';
  const session = new LinkSession({
    ...DEVICE_SESSION_DEFAULTS,
    maxInFlight: options.window,
    localTalker: talker,
    peerTalker: 'HO',
  });
  const auth = new DeviceAuth({
    talker,
    ...(options.key === undefined ? {} : { publicKey: options.key.publicKey }),
    fresh: freshHandshakeSecrets,
  });
  const { output, take } = collector();
  let now = 0;
  const run = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        const line = auth.outgoing(action.line, action.type);
        if (line !== undefined) output.written.push(line.trimEnd());
      } else if (action.kind === 'deliver') {
        output.delivered.push(action.message);
      } else if (action.kind === 'acked' && action.type === 'HELLO') {
        auth.helloAcked(now);
      }
    }
  };
  const authRun = (actions: ReturnType<DeviceAuth['incoming']>) => {
    for (const action of actions) {
      if (action.kind === 'pass') run(session.receive(action.event, now));
      else if (action.kind === 'write') output.written.push(action.line.trimEnd());
      else if (action.kind === 'release') run(session.retransmitNow(now));
      else if (action.kind === 'sign') {
        // A key file signs at once; a secure element would answer later, through the same call.
        authRun(auth.signed(action.id, options.key!.signNow(action.digest)));
      }
    }
  };
  return {
    open(at) {
      now = at;
      run(session.send(options.hello, now));
      run(session.retransmitNow(now));
      return take();
    },
    send(message, at) {
      now = at;
      run(session.send(message, now));
      return take();
    },
    receive(line, at) {
      now = at;
      authRun(auth.incoming(parseFrameLine(`${line}\r\n`)));
      return take();
    },
    tick(at) {
      now = at;
      // The release first: a link timer due at the same moment would otherwise send the held
      // events into the hold once more, and the release would find them just sent.
      authRun(auth.tick(now));
      run(session.tick(now));
      return take();
    },
  };
}

export function hostUnderTest(options: {
  readonly talker: 'SH';
  readonly paired?: DevicePublicKey;
}): HostUnderTest {
  const session = new LinkSession({ localTalker: 'HO', peerTalker: options.talker });
  const { output, take } = collector();
  let now = 0;
  const run = (actions: readonly LinkAction[]) => {
    for (const action of actions) {
      if (action.kind === 'send') {
        output.written.push(auth.outgoing(action.line, action.type).trimEnd());
      } else if (action.kind === 'deliver') {
        output.delivered.push(action.message);
      }
    }
  };
  const auth: DriverAuth = new DriverAuth({
    name: 'device',
    talker: options.talker,
    ...(options.paired === undefined ? {} : { paired: options.paired }),
    now: () => now,
    clock: () => now,
    write: (line) => output.written.push(line.trimEnd()),
    pass: (event) => run(session.receive(event, now)),
    unread: (event) => run(session.discardUnanswered(event)),
    // The driver's alarms, quarantine and pairing are its own business, not the link's.
    alarm: () => undefined,
    quarantine: () => undefined,
    authenticated: () => undefined,
    askAgain: (seqs) => {
      for (const seq of seqs) run(session.askAgain(seq));
    },
    schedule: () => undefined,
  });
  return {
    receive(line, at) {
      now = at;
      auth.incoming(parseFrameLine(`${line}\r\n`), now);
      return take();
    },
    tick(at) {
      now = at;
      auth.tick(now);
      run(session.tick(now));
      return take();
    },
    reopen(at) {
      now = at;
      session.lineReopened();
      return take();
    },
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
    seal: (line, type) => (auth.outgoing(`${line}\r\n`, type) ?? line).trimEnd(),
  };
}
