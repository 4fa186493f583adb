/**
 * The host's handshake timer (PROTOCOL.md § 5.2): a paired device that sends
 * no PROOF after 8 CHALLENGEs fails (quarantine) but is still asked, slowly,
 * so a PROOF that arrives late heals it; an unpaired device that says 1.7
 * and never proves anything runs unauthenticated, as a bench device.
 */
import { describe, expect, it } from 'vitest';
import { DeviceAuth } from '../../../device-protocol/auth/device-side-auth.ts';
import { HostAuth, type HostAuthAction } from '../../../device-protocol/auth/host-auth.ts';
import { type FrameEvent, messageFrame, parseFrameLine } from '../../../device-protocol/index.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';

const HELLO = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
} as const;
const helloEvent: FrameEvent = { kind: 'frame', frame: messageFrame('SH', 0, HELLO) };

function runTimer(host: HostAuth, until: number): HostAuthAction[] {
  const actions: HostAuthAction[] = [];
  for (let now = 0; now <= until; now += 50) actions.push(...host.tick(now));
  return actions;
}

describe('the host handshake timer', () => {
  it('fails a silent paired device after 8 CHALLENGEs, keeps asking, and a late PROOF heals it', async () => {
    const signer = generatedSigner('ed25519');
    const publicKey = await signer.publicKey();
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
      paired: publicKey,
    });
    host.incoming(helloEvent, 0);
    const actions = runTimer(host, 4_000);
    expect(actions.filter((a) => a.kind === 'failed')).toEqual([
      { kind: 'failed', reason: 'no_proof', detail: 'no PROOF after 8 CHALLENGEs' },
    ]);
    expect(host.state).toBe('failed');
    const challenges = actions.filter((a) => a.kind === 'write');
    // 7 more every 500 ms, then one every 2 s.
    expect(challenges.length).toBeGreaterThanOrEqual(8);
    expect(host.nextDeadline()).toBeDefined();

    const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
    // The host holds the HELLO until a PROOF covers it: the device answers before any ACK.
    device.helloSent(HELLO);
    const last = challenges.at(-1)!;
    if (last.kind !== 'write') throw new Error('no CHALLENGE');
    const sign = device.incoming(parseFrameLine(last.line)).find((a) => a.kind === 'sign');
    if (sign?.kind !== 'sign') throw new Error('no sign');
    const proof = device
      .signed(sign.id, signer.signNow(sign.digest))
      .find((a) => a.kind === 'write');
    if (proof?.kind !== 'write') throw new Error('no PROOF');
    expect(host.incoming(parseFrameLine(proof.line), 4_100)).toMatchObject([
      { kind: 'write', line: expect.stringMatching(/^\$HO,0,CONFIRM,/) },
      { kind: 'pass', event: helloEvent },
      { kind: 'authenticated', paired: true },
    ]);
    expect(host.state).toBe('authenticated');
  });

  it('lets an unpaired device that never proves anything run unauthenticated', () => {
    const host = new HostAuth({
      talker: 'SH',
      hostKey: processHostKey(),
      fresh: freshHandshakeSecrets,
    });
    host.incoming(helloEvent, 0);
    const actions = runTimer(host, 6_000);
    expect(actions.filter((a) => a.kind !== 'write')).toEqual([
      { kind: 'pass', event: helloEvent, held: true },
      { kind: 'unauthenticated', detail: 'no PROOF after 8 CHALLENGEs' },
    ]);
    expect(host.state).toBe('plain');
    const card = messageFrame('SH', 1, { type: 'CARD', card: 'AS', back: 'red', face: 'down' });
    expect(host.incoming({ kind: 'frame', frame: card }, 6_100)[0]!.kind).toBe('pass');
  });
});
