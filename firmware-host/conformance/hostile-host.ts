/**
 * The hostile-host checks (PROTOCOL.md § 5.2, 1.7; SECURITY.md's attacker in
 * the middle, issue 33 N3): with the device paired with the table's host key
 * (`--host-key`), the genuine host withholds the ACKs of the device's latest
 * events and goes quiet, and strangers that do not hold that key take the
 * line: one runs its own CHALLENGE and replays a frame of the session that
 * CHALLENGE ended, then CONFIRMs with another host key, with the paired key's
 * name and a signature that does not verify, and with no CONFIRM at all;
 * the device must take none of those sessions, say HELLO again within its
 * 3 s (`host_lost`), refuse a replay of the genuine host's CHALLENGE and
 * CONFIRM, and send every unACKed event again, with its seq and in order,
 * when the genuine host comes back. A stranger knows the session keys its own
 * CHALLENGE gave, so a frame the device seals under them, or an answer to
 * its sealed PING, shows the device took that session.
 */
import { openFrame, sealLine } from '../../device-protocol/auth/frame-mac.ts';
import {
  type Challenge,
  challengeFrame,
  confirmDigest,
  confirmFrame,
  decodeProof,
  deriveSessionKeys,
  type SessionKeys,
  x25519Secret,
} from '../../device-protocol/auth/handshake.ts';
import type { HandshakeSecrets } from '../../device-protocol/auth/host-auth.ts';
import { toBase64Url } from '../../device-protocol/auth/keys.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../device-protocol/frame.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  hostSignerOf,
} from '../../hardware/keys/device-key.ts';
import { checkDefinition, HUMAN_STEP } from './checks.ts';
import {
  hellosBefore,
  hostLines,
  isSealed,
  type ProvenStatement,
  pairedHostMissing,
  provenStatement,
} from './mutual-auth.ts';
import { type ConformanceRun, describe, NotRun, type Outcome } from './run.ts';
import { isEventType } from './trace.ts';
import { type HostWire, type Received, WaitTimeout } from './wire.ts';

/** How long a stranger watches for what must NOT come (a sealed frame, an answer to its PING). */
const WATCH_MS = 400;
/** How long the quiet host lets a windowed device send more events it leaves unACKed. */
const KEEP_MORE_MS = 600;
/** § 5.2: a device says HELLO again when no CONFIRM came within 3 s of its PROOF. */
const CONFIRM_WAIT_MS = 3_000;
/** Allowance over those 3 s for a line and a device's timer. */
const HOST_LOST_MARGIN_MS = 2_000;

/** What a wait found, or undefined when it timed out (the check says so); a closed line still throws. */
function unlessTimedOut<T>(wait: Promise<T>): Promise<T | undefined> {
  return wait.catch((error: unknown) => {
    if (error instanceof WaitTimeout) return undefined;
    throw error;
  });
}

/** A stranger's CHALLENGE and the device's PROOF of it. */
interface StrangerSession {
  readonly proof: Received;
  /** What the PROOF signed, when it covers a HELLO the device sent. */
  readonly proven: ProvenStatement | undefined;
  /** The session keys the stranger's CHALLENGE gave (a replayed CHALLENGE gives the replayer none). */
  readonly keys: SessionKeys | undefined;
}

interface HostileState {
  /** The device's events unACKed when the genuine host went quiet, in the order they came. */
  readonly kept: readonly Received[];
  /** A PING sealed under the genuine session, never sent: replayed after a stranger's CHALLENGE. */
  readonly oldPing: { readonly line: string; readonly seq: number };
  /** The genuine host's CHALLENGE and CONFIRM lines of the session it left. */
  readonly genuineChallenge: string | undefined;
  readonly genuineConfirm: string | undefined;
  /** The stranger's session open now. */
  session: StrangerSession | undefined;
  /** The device's first PROOF since it last took a session: its CONFIRM wait runs from there. */
  unconfirmedSince: number | undefined;
  /** Its PROOF to the last stranger that sent no CONFIRM. */
  lastProofAt: number | undefined;
  /** Inbox index of the first HELLO after the strangers began, if one came. */
  helloAfter: Received | undefined;
  readonly from: number;
}

const states = new WeakMap<ConformanceRun, HostileState>();

/** The hostile phase's state; `{ skip }` when the device is not paired with a given host key. */
function stateOf(run: ConformanceRun): HostileState | { skip: string } {
  const missing = pairedHostMissing(run);
  if (missing !== undefined) return { skip: missing };
  const state = states.get(run);
  if (state === undefined) throw new NotRun('not run: the line was down when the host went quiet');
  return state;
}

/**
 * The genuine host withholds the ACKs of the device's next events, keeps a sealed PING for a
 * replay, and goes quiet: no ACK, no PONG, no authentication, whatever the device sends.
 */
export async function goQuiet(run: ConformanceRun): Promise<void> {
  const { wire } = run;
  if (run.lineDown !== undefined || !wire.isOpen || run.hello === undefined) return;
  if (pairedHostMissing(run) !== undefined) return;
  wire.ackEvents = false;
  const unacked = () => {
    const seen = new Set<number>();
    return wire.eventsSince(run.ackedFrom).filter((received) => {
      if (wire.acked.has(received.frame.seq) || seen.has(received.frame.seq)) return false;
      seen.add(received.frame.seq);
      return true;
    });
  };
  if (unacked().length === 0) {
    const timeoutMs = run.timeoutOf(checkDefinition('event'));
    run.instruct(`${HUMAN_STEP[run.talker!]} (waiting up to ${Math.round(timeoutMs / 1000)} s)`);
    await wire
      .waitFor(
        'an event whose ACK the host withholds',
        (frame) => isEventType(frame.type) && !wire.acked.has(frame.seq),
        timeoutMs,
      )
      .catch(() => undefined); // no event: the keeps-cards check says it was not run
  }
  // A device with a window (§ 3.8) may send more unACKed events meanwhile: they are kept too.
  await wire.pause(KEEP_MORE_MS);
  const seq = wire.takeSeq();
  const oldPing = {
    line: wire.sealedLine({ talker: 'HO', seq, type: 'PING', fields: ['old1'] }),
    seq,
  };
  const genuineChallenge = hostLines(wire.trace, 'CHALLENGE').at(-1);
  const genuineConfirm = hostLines(wire.trace, 'CONFIRM').at(-1);
  wire.autoAck = false;
  wire.detachAuth();
  states.set(run, {
    kept: unacked(),
    oldPing,
    genuineChallenge,
    genuineConfirm,
    session: undefined,
    unconfirmedSince: undefined,
    lastProofAt: undefined,
    helloAfter: undefined,
    from: wire.inbox.length,
  });
}

/** Writes a CHALLENGE (a stranger's own, or `replayed`) and waits for the device's PROOF of it. */
async function challenge(
  run: ConformanceRun,
  state: HostileState,
  timeoutMs: number,
  replayed?: string,
): Promise<StrangerSession> {
  const { wire } = run;
  const secrets = replayed === undefined ? freshHandshakeSecrets() : genuineSecrets(wire, replayed);
  const line =
    replayed ??
    encodeFrame(challengeFrame({ nonce: secrets!.nonce, ephemeral: secrets!.ephemeral.publicKey }));
  const sent = parseFrameLine(line);
  const from = wire.inbox.length;
  await wire.sendLine(line, sent.kind === 'frame' ? sent.frame : undefined);
  const proof = await wire.waitFor(
    replayed ? 'PROOF to the replayed CHALLENGE' : "PROOF to a stranger's CHALLENGE",
    (frame) => frame.type === 'PROOF',
    timeoutMs,
    from,
  );
  state.unconfirmedSince ??= proof.at;
  const decoded = decodeProof(proof.frame);
  let proven: ProvenStatement | undefined;
  let keys: SessionKeys | undefined;
  if (decoded.ok && secrets !== undefined) {
    const ours: Challenge = { nonce: secrets.nonce, ephemeral: secrets.ephemeral.publicKey };
    proven = provenStatement(proof.frame.talker, decoded.value, ours, hellosBefore(wire.trace));
    if (proven !== undefined) {
      try {
        keys = deriveSessionKeys(
          x25519Secret(secrets.ephemeral, decoded.value.ephemeral),
          proven.digest,
        );
      } catch {
        keys = undefined; // a low-order X25519 key: no session anyone can use
      }
    }
  }
  const session = { proof, proven, keys };
  state.session = session;
  return session;
}

/**
 * The genuine host's own secrets of a CHALLENGE it sent: a replayer does not have them, but
 * the suite does, so it can tell a device that took the replayed session by its keys.
 */
function genuineSecrets(wire: HostWire, line: string): HandshakeSecrets | undefined {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') return undefined;
  const nonce = event.frame.fields[0];
  return wire.handshakeSecrets.find((secrets) => toBase64Url(secrets.nonce) === nonce);
}

/** A PING sealed under the stranger's session (none: unsealed), sent to see whether the device takes it. */
async function strangerPing(run: ConformanceRun, session: StrangerSession, token: string) {
  const { keys } = session;
  return run.wire.sendFrame(
    { talker: 'HO', seq: 0, type: 'PING', fields: [token] },
    keys === undefined ? undefined : (line) => sealLine(line, keys.hostToDevice),
  );
}

/**
 * Watches `WATCH_MS` for a sign the device took a session no genuine CONFIRM opened: a frame
 * it sealed (after inbox index `from`), or an answer to PING `ping`. Undefined: none came.
 */
async function tookSession(
  run: ConformanceRun,
  session: StrangerSession | undefined,
  from: number,
  ping?: { seq: number; token: string },
): Promise<string | undefined> {
  const { wire } = run;
  await wire.pause(WATCH_MS);
  for (const received of wire.inbox.slice(from)) {
    const frame = received.frame;
    if (ping !== undefined) {
      if (frame.type === 'ACK' && frame.fields[0] === String(ping.seq)) {
        return `ACKed ${describe(frame)} our PING ${ping.seq}`;
      }
      if (frame.type === 'PONG' && frame.fields[0] === ping.token) {
        return `answered our PING ${ping.seq} with ${describe(frame)}`;
      }
    }
    if (isSealed(frame)) {
      const under =
        session?.keys !== undefined && openFrame(frame, session.keys.deviceToHost).ok
          ? "under the stranger's session keys"
          : 'with keys no host confirmed';
      return `sealed ${describe(frame)} ${under}`;
    }
  }
  return undefined;
}

/** The session a stranger's check found taken: the device's CONFIRM wait starts over at its next PROOF. */
function taken(state: HostileState, detail: string): Outcome {
  state.unconfirmedSince = undefined;
  return { fail: detail };
}

/** § 5.2: a new CHALLENGE ends the session in use; a frame sealed under it is taken no more. */
export async function oldSession(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  if ('skip' in state) return state;
  const { wire } = run;
  const session = await challenge(run, state, timeoutMs);
  const from = session.proof.index + 1;
  await wire.sendLine(state.oldPing.line);
  const took = await tookSession(run, undefined, from, { seq: state.oldPing.seq, token: 'old1' });
  if (took !== undefined) {
    return {
      fail: `after a stranger's CHALLENGE it still used the session that CHALLENGE ended: ${took}`,
    };
  }
  return `PROOF to a stranger's CHALLENGE; then took no PING sealed under the genuine session and sealed nothing`;
}

/** A CONFIRM for the open stranger session, and what the device did with it. */
async function confirmAs(
  run: ConformanceRun,
  state: HostileState,
  timeoutMs: number,
  sign: 'other-key' | 'bad-signature',
): Promise<Outcome> {
  const { wire } = run;
  const session =
    state.session !== undefined && sign === 'other-key'
      ? state.session
      : await challenge(run, state, timeoutMs);
  if (session.proven === undefined || session.keys === undefined) {
    throw new NotRun(
      "not run: the PROOF to a stranger's CHALLENGE covers none of the HELLOs the device sent, so no CONFIRM can be signed for it (see hello-proof)",
    );
  }
  const stranger = hostSignerOf(generatedSigner('ed25519'));
  const paired = run.options.hostKey!.publicKey;
  // Another host's key, its signature good; or the paired host's name, signed by a stranger.
  const named = sign === 'other-key' ? stranger.publicKey : paired;
  const signature = stranger.sign(confirmDigest(session.proven.digest, named));
  const confirm = confirmFrame({ hostKey: named, signature });
  const from = wire.inbox.length;
  await wire.sendLine(encodeFrame(confirm), confirm);
  const token = sign === 'other-key' ? 'mitm1' : 'mitm2';
  const seq = await strangerPing(run, session, token);
  state.session = undefined;
  const took = await tookSession(run, session, from, { seq, token });
  const what =
    sign === 'other-key'
      ? 'a CONFIRM signed by another host key'
      : 'a CONFIRM naming the paired host key with a signature that key did not make';
  if (took !== undefined) return taken(state, `took ${what}: ${took}`);
  return `refused ${what}: sealed nothing, took no PING of that session`;
}

export async function confirmOtherKey(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  return 'skip' in state ? state : confirmAs(run, state, timeoutMs, 'other-key');
}

export async function confirmBadSignature(
  run: ConformanceRun,
  timeoutMs: number,
): Promise<Outcome> {
  const state = stateOf(run);
  return 'skip' in state ? state : confirmAs(run, state, timeoutMs, 'bad-signature');
}

/** § 5.2: no CONFIRM, no session: the keys a PROOF derives wait for the host's CONFIRM. */
export async function confirmNone(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  if ('skip' in state) return state;
  const session = await challenge(run, state, timeoutMs);
  state.lastProofAt = session.proof.at;
  const seq = await strangerPing(run, session, 'mitm3');
  const took = await tookSession(run, session, session.proof.index + 1, { seq, token: 'mitm3' });
  if (took !== undefined) return taken(state, `took a session no CONFIRM opened: ${took}`);
  return 'sent no CONFIRM: it sealed nothing and took no PING of that session';
}

/** § 5.2: without a CONFIRM within 3 s of its PROOF the device has lost its host: HELLO again. */
export async function hostLost(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  if ('skip' in state) return state;
  const { wire } = run;
  const since = state.unconfirmedSince ?? state.lastProofAt;
  if (since === undefined) throw new NotRun('not run: the device sent no PROOF to a stranger');
  const deadline = since + CONFIRM_WAIT_MS + HOST_LOST_MARGIN_MS;
  const wait = Math.max(0, Math.min(timeoutMs, deadline - run.clock.now()));
  const hello = await unlessTimedOut(
    wire.waitFor('HELLO', (frame) => frame.type === 'HELLO', wait, state.from),
  );
  if (hello === undefined) {
    return {
      fail: `no HELLO within ${CONFIRM_WAIT_MS + HOST_LOST_MARGIN_MS} ms of its first PROOF no host confirmed: it did not report host_lost and ask again`,
    };
  }
  state.helloAfter = hello;
  return `HELLO ${hello.frame.seq} again ${Math.round(hello.at - since)} ms after its first PROOF no host confirmed`;
}

/** § 5.2: the genuine host's CHALLENGE and CONFIRM of an earlier session, replayed, open nothing. */
export async function replayedHandshake(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  if ('skip' in state) return state;
  const { wire } = run;
  if (state.genuineChallenge === undefined || state.genuineConfirm === undefined) {
    throw new NotRun('not run: the genuine host sent no CHALLENGE and CONFIRM to replay');
  }
  const session = await challenge(run, state, timeoutMs, state.genuineChallenge);
  const from = wire.inbox.length;
  await wire.sendLine(state.genuineConfirm);
  // Sealed under the keys the replayed CHALLENGE gives that PROOF: a device that took the
  // replayed CONFIRM answers it.
  const seq = await strangerPing(run, session, 'replay1');
  const took = await tookSession(run, session, from, { seq, token: 'replay1' });
  if (took !== undefined) {
    return { fail: `took the replayed CHALLENGE and CONFIRM of an earlier session: ${took}` };
  }
  return 'answered the replayed CHALLENGE with a fresh PROOF, refused the replayed CONFIRM: sealed nothing';
}

/**
 * § 5.2: a device that lost its host keeps every unACKed event; once the genuine host
 * confirms again, it sends them again, each with its seq, in order, none dealt anew.
 */
export async function keepsCards(run: ConformanceRun, timeoutMs: number): Promise<Outcome> {
  const state = stateOf(run);
  if ('skip' in state) return state;
  const { wire } = run;
  if (state.kept.length === 0) {
    return { skip: 'not run: no event came while the host withheld its ACKs' };
  }
  let hello = [...wire.inbox.slice(state.from)].reverse().find((r) => r.frame.type === 'HELLO');
  if (hello === undefined) {
    // No host_lost HELLO: ask for one as a host that restarted does (§ 4.2).
    const from = wire.inbox.length;
    const seq = run.hello!.received.frame.seq;
    await wire.sendLine(
      encodeFrame({ talker: 'HO', seq: 0, type: 'NAK', fields: [String(seq), 'hello'] }),
    );
    hello = await wire.waitFor(
      'HELLO after NAK hello',
      (frame) => frame.type === 'HELLO',
      timeoutMs,
      from,
    );
  }
  const from = wire.inbox.length;
  wire.autoAck = true;
  wire.ackEvents = true;
  wire.engageAuth(hello.frame, run.talker!, run.options.key, run.options.hostKey);
  const wanted = state.kept.map((received) => received.frame.seq);
  const firstSeen = (): Frame[] => {
    const seen = new Set<number>();
    const frames: Frame[] = [];
    for (const received of wire.eventsSince(from)) {
      if (seen.has(received.frame.seq)) continue;
      seen.add(received.frame.seq);
      frames.push(received.frame);
    }
    return frames;
  };
  await unlessTimedOut(
    wire.waitFor(
      `the ${wanted.length} unACKed events (${wanted.join(', ')}) again`,
      () => wanted.every((seq) => firstSeen().some((frame) => frame.seq === seq)),
      timeoutMs,
      from,
    ),
  );
  const after = firstSeen();
  const missing = state.kept.filter((k) => !after.some((frame) => frame.seq === k.frame.seq));
  if (missing.length > 0) {
    const lost = missing[0]!.frame;
    return {
      fail: `never sent ${describe(lost)} (${encodeFrame(lost).trimEnd()}) again after losing its host: ${missing.length} of ${wanted.length} unACKed events dropped${after.length > 0 ? `; it went on with ${describe(after[0]!)}` : ''}`,
    };
  }
  const order = after.slice(0, wanted.length).map((frame) => frame.seq);
  if (order.join() !== wanted.join()) {
    return {
      fail: `sent its unACKed events again as ${order.join(', ')}, not in order ${wanted.join(', ')}`,
    };
  }
  return `sent its ${wanted.length} unACKed events (${wanted.join(', ')}) again once the genuine host confirmed, in order`;
}
