/**
 * The 1.7 handshake as the conformance host reads it (PROTOCOL.md § 5.2):
 * which HELLO a device's PROOF covers, and the PROOF check of a device paired
 * with the table's host key (`--host-key`). The hostile-host checks
 * (hostile-host.ts) use the same reading to derive the session keys a
 * stranger's CHALLENGE gave it, so they can tell a device that took them.
 */
import {
  type Challenge,
  decodeChallenge,
  decodeProof,
  MUTUAL_AUTH_SINCE,
  type Proof,
  statementDigest,
} from '../../device-protocol/auth/handshake.ts';
import { verifyDigestSignature } from '../../device-protocol/auth/keys.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../device-protocol/frame.ts';
import { protocolAtLeast } from '../../device-protocol/messages.ts';
import { type ConformanceRun, describe, NotRun, type Outcome } from './run.ts';
import type { TraceEntry } from './trace.ts';

/** What a PROOF signed: the HELLO it covers, whether it said that HELLO was ACKed, and the digest. */
export interface ProvenStatement {
  readonly hello: Frame;
  readonly helloAcked: boolean;
  readonly digest: Uint8Array;
}

/** The device's HELLOs in the trace up to `before`, the latest first, each line once. */
export function hellosBefore(trace: readonly TraceEntry[], before = trace.length): Frame[] {
  const seen = new Set<string>();
  const hellos: Frame[] = [];
  for (const entry of trace.slice(0, before).reverse()) {
    if (entry.dir !== 'in' || entry.event.kind !== 'frame') continue;
    const frame = entry.event.frame;
    const line = encodeFrame(frame);
    if (frame.type !== 'HELLO' || seen.has(line)) continue;
    seen.add(line);
    hellos.push(frame);
  }
  return hellos;
}

/** The HELLO (and `hello_acked`) whose statement the PROOF's signature verifies, if any. */
export function provenStatement(
  talker: Frame['talker'],
  proof: Proof,
  challenge: Challenge,
  hellos: readonly Frame[],
): ProvenStatement | undefined {
  for (const hello of hellos) {
    for (const helloAcked of [false, true]) {
      const digest = statementDigest({
        talker: talker as Exclude<Frame['talker'], 'HO'>,
        hello,
        helloAcked,
        challenge,
        publicKey: proof.publicKey,
        deviceNonce: proof.nonce,
        deviceEphemeral: proof.ephemeral,
      });
      if (verifyDigestSignature(proof.publicKey, digest, proof.signature)) {
        return { hello, helloAcked, digest };
      }
    }
  }
  return undefined;
}

/** A frame with a MAC (§ 5.3): the device sealed it, so it held session keys then. */
export function isSealed(frame: Frame): boolean {
  return frame.fields.at(-1)?.startsWith('~') === true;
}

/**
 * Why the paired-host checks cannot run against this device, if they cannot: no
 * `--host-key`, a device before 1.7, or one that did not authenticate.
 */
export function pairedHostMissing(run: ConformanceRun): string | undefined {
  const { message } = run.needHello();
  if (run.options.hostKey === undefined) {
    return 'not run: no --host-key (the table host key the device was paired with) was given';
  }
  if (!protocolAtLeast(message.protocol, MUTUAL_AUTH_SINCE)) {
    return `not run: the device announced ${message.protocol}: the host's CONFIRM starts at ${MUTUAL_AUTH_SINCE}`;
  }
  if (!run.wire.authLog.some((action) => action.kind === 'authenticated')) {
    return 'not run: the device proved no key (see the auth check)';
  }
  return undefined;
}

/**
 * § 5.2 (1.7): the device's PROOF covers its HELLO as it went on the wire (seq and every
 * field) with `hello_acked=no`, the host's unsealed ACK before its CONFIRM not taken; and it
 * sealed nothing before the CONFIRM.
 */
export async function helloProof(run: ConformanceRun): Promise<Outcome> {
  const missing = pairedHostMissing(run);
  if (missing !== undefined) return { skip: missing };
  const trace = run.wire.trace;
  const proofAt = trace.findIndex(
    (entry) =>
      entry.dir === 'in' && entry.event.kind === 'frame' && entry.event.frame.type === 'PROOF',
  );
  if (proofAt < 0) throw new NotRun('not run: the device sent no PROOF');
  const proofEntry = trace[proofAt] as Extract<TraceEntry, { dir: 'in' }>;
  const proofFrame = (proofEntry.event as Extract<typeof proofEntry.event, { kind: 'frame' }>)
    .frame;
  const proof = decodeProof(proofFrame);
  if (!proof.ok) return { fail: `PROOF does not decode: ${proof.error}` };
  const challenges = hostFrames(trace.slice(0, proofAt), 'CHALLENGE').reverse();
  const hellos = hellosBefore(trace, proofAt);
  let proven: ProvenStatement | undefined;
  for (const challenge of challenges) {
    const decoded = decodeChallenge(challenge);
    if (!decoded.ok) continue;
    proven = provenStatement(proofFrame.talker, proof.value, decoded.value, hellos);
    if (proven !== undefined) break;
  }
  if (proven === undefined) {
    return {
      fail: `the PROOF's signature covers none of the ${hellos.length} HELLO lines it sent (seq and every field, hello_acked yes or no) under the host's CHALLENGE`,
    };
  }
  const latest = hellos[0]!;
  if (encodeFrame(proven.hello) !== encodeFrame(latest)) {
    return {
      fail: `the PROOF covers HELLO ${proven.hello.seq}, not its latest HELLO ${latest.seq} the host challenged`,
    };
  }
  if (proven.helloAcked) {
    return {
      fail: `the PROOF says hello_acked=yes: it took the host's unsealed ACK of HELLO ${latest.seq} before any CONFIRM (a device paired with a host takes none; is it paired with this --host-key?)`,
    };
  }
  const confirmAt = trace.findIndex(
    (entry, index) => index > proofAt && entry.dir === 'out' && lineType(entry.line) === 'CONFIRM',
  );
  const early = trace
    .slice(proofAt, confirmAt < 0 ? undefined : confirmAt)
    .find(
      (entry) => entry.dir === 'in' && entry.event.kind === 'frame' && isSealed(entry.event.frame),
    );
  if (early !== undefined && early.dir === 'in' && early.event.kind === 'frame') {
    return {
      fail: `sealed ${describe(early.event.frame)} after its PROOF, before the host's CONFIRM: it took session keys no host had confirmed`,
    };
  }
  return `PROOF covers HELLO ${latest.seq} as sent, hello_acked=no; sealed nothing before the host's CONFIRM`;
}

/** The type of a line the host wrote, if it reads as a frame. */
export function lineType(line: string): string | undefined {
  const event = parseFrameLine(line);
  return event.kind === 'frame' ? event.frame.type : undefined;
}

/** The frames of `type` the host wrote (CHALLENGE, CONFIRM), in order. */
export function hostFrames(trace: readonly TraceEntry[], type: string): Frame[] {
  const frames: Frame[] = [];
  for (const entry of trace) {
    if (entry.dir !== 'out') continue;
    const event = parseFrameLine(entry.line);
    if (event.kind === 'frame' && event.frame.type === type) frames.push(event.frame);
  }
  return frames;
}

/** The lines of `type` the host wrote, in order, as they went. */
export function hostLines(trace: readonly TraceEntry[], type: string): string[] {
  return trace
    .filter(
      (entry): entry is Extract<TraceEntry, { dir: 'out' }> =>
        entry.dir === 'out' && lineType(entry.line) === type,
    )
    .map((entry) => entry.line);
}
