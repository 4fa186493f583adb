/**
 * The device side of protocol 1.4's authentication (PROTOCOL.md § 5) for a
 * device core: wraps the pure `DeviceAuth` with the device's signer (a key
 * file, or a secure element such as the ATECC608), fresh handshake secrets
 * and a timer. The device core calls it at four points: every framer event
 * before its link session (`incoming`), every line before the wire
 * (`outgoing`), its HELLO ACKed (`helloAcked`), and `stop`. When events may
 * flow (session keys, or an older host), `release` is called: the core
 * sends what it held back at once.
 */
import { DeviceAuth } from '../../device-protocol/auth/device-auth.ts';
import type { DevicePublicKey } from '../../device-protocol/auth/keys.ts';
import type { DeviceTalker, FrameEvent } from '../../device-protocol/frame.ts';
import { type DeviceSigner, freshHandshakeSecrets } from '../keys/device-key.ts';

/** A device's key: its signer and the public key it gave (read once, at start). */
export interface DeviceKey {
  readonly signer: DeviceSigner;
  readonly publicKey: DevicePublicKey;
}

export async function deviceKey(signer: DeviceSigner): Promise<DeviceKey> {
  return { signer, publicKey: await signer.publicKey() };
}

export interface DeviceAuthLinkOptions {
  readonly talker: DeviceTalker;
  /** Absent: a device without a key (it answers `PROOF,none`). */
  readonly key?: DeviceKey;
  /** Writes a handshake line (PROOF) to the wire, past the behaviours. */
  readonly write: (type: string, line: string) => void;
  /** Events may flow now: send what was held back. */
  readonly release: () => void;
  readonly now: () => number;
  /** A frame from the host refused (bad or missing MAC), or a signer failure. */
  readonly refused?: (detail: string) => void;
  readonly challengeWaitMs?: number;
}

export class DeviceAuthLink {
  private readonly auth: DeviceAuth;
  private readonly options: DeviceAuthLinkOptions;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(options: DeviceAuthLinkOptions) {
    this.options = options;
    this.auth = new DeviceAuth({
      talker: options.talker,
      fresh: freshHandshakeSecrets,
      ...(options.key === undefined ? {} : { publicKey: options.key.publicKey }),
      ...(options.challengeWaitMs === undefined
        ? {}
        : { challengeWaitMs: options.challengeWaitMs }),
    });
  }

  /** Whether this connection's frames carry MACs. */
  get authenticated(): boolean {
    return this.auth.authenticated;
  }

  /** The line to write, sealed once there are session keys; undefined: hold it back. */
  outgoing(line: string, type: string): string | undefined {
    return this.auth.outgoing(line, type);
  }

  helloAcked(): void {
    this.auth.helloAcked(this.options.now());
    this.schedule();
  }

  /** The events to hand to the link session. */
  incoming(event: FrameEvent): FrameEvent[] {
    const passed: FrameEvent[] = [];
    for (const action of this.auth.incoming(event)) {
      switch (action.kind) {
        case 'pass':
          passed.push(action.event);
          break;
        case 'write':
          this.options.write('PROOF', action.line);
          break;
        case 'refused':
          this.options.refused?.(action.detail);
          break;
        case 'release':
          this.options.release();
          break;
        case 'sign':
          this.sign(action.id, action.digest);
          break;
      }
    }
    this.schedule();
    return passed;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private sign(id: number, digest: Uint8Array): void {
    const signer = this.options.key?.signer;
    if (signer === undefined) return;
    signer.sign(digest).then(
      (signature) => {
        if (this.stopped) return;
        for (const action of this.auth.signed(id, signature)) {
          if (action.kind === 'write') this.options.write('PROOF', action.line);
          else if (action.kind === 'release') this.options.release();
        }
      },
      (error: unknown) => {
        this.auth.signFailed(id);
        this.options.refused?.(`signing failed: ${(error as Error).message}`);
      },
    );
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const deadline = this.auth.nextDeadline();
    if (deadline === undefined || this.stopped) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        for (const action of this.auth.tick(this.options.now())) {
          if (action.kind === 'release') this.options.release();
        }
      },
      Math.max(0, Math.ceil(deadline - this.options.now())),
    );
    this.timer.unref?.();
  }
}
