/**
 * The simulated shoe, paired with a table's host key, with one deliberate
 * mistake a firmware author could make in protocol 1.7 (or none), for the
 * hostile-host checks of `tableside conformance --host-key` to name. The
 * shoe runs as it is; the mistake is played by a relay between it and the
 * conformance host, on in-memory lines, as a device that made it would look
 * from the host's end:
 *
 * - `takes-any-confirm`: every CONFIRM reaches the shoe signed by the table's
 *   host key over its PROOF, whoever sent it and whatever it said (a device
 *   that never checks the CONFIRM's key or signature);
 * - `forgets-cards-on-host-loss`: once the shoe lost its host, the events it
 *   had not had ACKed never reach the host again (a device that empties its
 *   outbox when no host confirms);
 * - `never-reports-host-loss`: the shoe's HELLO after losing its host never
 *   reaches the host, until the host asks for one (`NAK,<seq>,hello`).
 */
import {
  confirmDigest,
  confirmFrame,
  decodeChallenge,
  decodeProof,
} from '../../../device-protocol/auth/handshake.ts';
import type { HostSigner } from '../../../device-protocol/auth/host-auth.ts';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { provenStatement } from '../../../firmware-host/conformance/mutual-auth.ts';
import { isEventType } from '../../../firmware-host/conformance/trace.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import type { Transport } from '../../../hardware/transports/transport.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';

export type PairedShoeMistake =
  | 'none'
  | 'takes-any-confirm'
  | 'forgets-cards-on-host-loss'
  | 'never-reports-host-loss';

export interface BrokenPairedShoe {
  /** The host's end of the line, for the conformance run. */
  readonly transport: Transport;
  readonly key: DeviceKey;
  stop(): Promise<void>;
}

/** Splits what a transport reads into lines, each with its CR LF. */
function lines(transport: Transport, each: (line: string) => void): void {
  let pending = '';
  transport.on('data', (chunk: Buffer) => {
    pending += chunk.toString('latin1');
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      each(pending.slice(0, end + 1));
      pending = pending.slice(end + 1);
    }
  });
}

function frameOf(line: string): Frame | undefined {
  const event = parseFrameLine(line);
  return event.kind === 'frame' ? event.frame : undefined;
}

/** `recorded`: the shoe was paired with `tableKey`; false: it recorded no host key (a bench). */
export async function brokenPairedShoe(
  mistake: PairedShoeMistake,
  tableKey: HostSigner,
  recorded = true,
): Promise<BrokenPairedShoe> {
  const hostSide = createMemoryPair('conformance-host');
  const deviceSide = createMemoryPair('paired-shoe');
  const key = await deviceKey(generatedSigner('ed25519'));
  const sim = new SimulatedDevice({
    kind: 'shoe',
    transport: deviceSide.device,
    ruleset: 'tdc-baccarat-no-commission',
    seed: 5,
    rate: 4,
    key,
    ...(recorded ? { hostKey: tableKey.publicKey } : {}),
  });
  const toHost = hostSide.device;
  const toDevice = deviceSide.host;
  await toHost.open();
  await toDevice.open();

  const hellos: Frame[] = [];
  let challenge: Frame | undefined;
  let proof: Frame | undefined;
  let lost = false;
  const forgotten = new Set<number>();
  const sentEvents = new Set<number>();
  sim.on('hostLost', () => {
    lost = true;
    if (mistake === 'forgets-cards-on-host-loss') {
      for (const seq of sentEvents) forgotten.add(seq);
    }
  });

  lines(toDevice, (line) => {
    const frame = frameOf(line);
    if (frame?.type === 'HELLO') hellos.unshift(frame);
    if (frame?.type === 'PROOF') proof = frame;
    if (frame !== undefined && isEventType(frame.type)) {
      if (forgotten.has(frame.seq)) return;
      sentEvents.add(frame.seq);
    }
    if (mistake === 'never-reports-host-loss' && lost && frame?.type === 'HELLO') return;
    void toHost.write(Buffer.from(line, 'latin1'));
  });
  lines(toHost, (line) => {
    const frame = frameOf(line);
    if (frame?.type === 'CHALLENGE') challenge = frame;
    if (frame?.type === 'NAK' && frame.fields[1] === 'hello') lost = false;
    if (mistake === 'takes-any-confirm' && frame?.type === 'CONFIRM') {
      line = resigned(line);
    }
    void toDevice.write(Buffer.from(line, 'latin1'));
  });

  /** The CONFIRM the table's host key would have sent for the shoe's latest PROOF. */
  function resigned(line: string): string {
    const decodedProof = proof && decodeProof(proof);
    const decodedChallenge = challenge && decodeChallenge(challenge);
    if (!decodedProof?.ok || !decodedChallenge?.ok) return line;
    const proven = provenStatement('SH', decodedProof.value, decodedChallenge.value, hellos);
    if (proven === undefined) return line;
    const signature = tableKey.sign(confirmDigest(proven.digest, tableKey.publicKey));
    return encodeFrame(confirmFrame({ hostKey: tableKey.publicKey, signature }));
  }

  sim.start();
  return {
    transport: hostSide.host,
    key,
    stop: async () => {
      await sim.stop();
      await toHost.close();
      await toDevice.close();
    },
  };
}
