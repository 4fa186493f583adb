/**
 * A paired 1.4 shoe and its host as pure parts on a simulated line, composed
 * as the device core (hardware/device/device-core.ts) and the driver
 * (firmware-host/drivers/driver.ts) compose them: each side's link session
 * behind its authentication (the device's `DeviceAuth`, the driver's own
 * `DriverAuth`), a virtual clock, and a line the caller can corrupt, lose,
 * pull and plug again; either side can restart (the shoe keeps its outbox,
 * PROTOCOL.md § 3.9; the host its journal). The reproductions drive it step
 * by step, the drill at random.
 */
import { DeviceAuth } from '../../../device-protocol/auth/device-auth.ts';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { type LinkAction, type LinkOptions, LinkSession } from '../../../device-protocol/link.ts';
import {
  type CardMessage,
  decodeMessage,
  type HelloMessage,
} from '../../../device-protocol/messages.ts';
import { DriverAuth, type DriverAuthStatus } from '../../../firmware-host/drivers/device-auth.ts';
import {
  type FirmwareAllowList,
  firmwareVerdict,
  hostHello,
} from '../../../firmware-host/drivers/driver.ts';
import { DEVICE_SESSION_DEFAULTS } from '../../../hardware/device/device-core.ts';
import { freshHandshakeSecrets, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { card, cardKey } from './window-drill.ts';

export type Side = 'host' | 'shoe';

export const SHOE_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.4',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

/** One line on its way, due at `at` (virtual ms). */
export interface OnWire {
  readonly at: number;
  readonly to: Side;
  readonly type: string;
  readonly line: string;
}

/** What the line does to a frame: the line to deliver (changed or not), or undefined: lost. */
export type LineFault = (frame: { to: Side; type: string; line: string }) => string | undefined;

const JOURNAL_DELAY_MS = 3;
/** The driver's heartbeat (firmware-host/drivers/driver.ts `heartbeatMs`). */
const PING_EVERY_MS = 1_000;
const HOST_SESSION: LinkOptions = {
  localTalker: 'HO',
  peerTalker: 'SH',
  deferAck: ['CARD'],
  ackTimeoutMs: 400,
  maxAttempts: 6,
  maxInFlight: 1,
};

type Signer = ReturnType<typeof generatedSigner>;

export interface PairKey {
  readonly signer: Signer;
  readonly publicKey: Awaited<ReturnType<Signer['publicKey']>>;
}

export async function pairKey(): Promise<PairKey> {
  const signer = generatedSigner('ed25519');
  return { signer, publicKey: await signer.publicKey() };
}

export class AuthPair {
  now = 0;
  /** Lines on their way to each side, in arrival order. */
  readonly wire: Record<Side, OnWire[]> = { host: [], shoe: [] };
  lineUp = true;
  fault: LineFault = (frame) => frame.line;
  /** How long a line takes to arrive (ms, at least 1). */
  hop: (to: Side) => number = () => 1;
  /** How long the shoe's signer takes (ms). */
  signDelay: () => number = () => 0;

  /** Cards in the order the host's journal stored them. */
  readonly stored: string[] = [];
  /**
   * The driver's firmware allow-list (absent: any firmware): after a HELLO it
   * refuses, cards are ACKed and dropped (`refused`), as the driver's quarantine does.
   */
  allowedFirmware: FirmwareAllowList | undefined;
  readonly refused: string[] = [];
  #firmwareRefused: string | undefined;
  readonly alarms: string[] = [];
  /** Lines written by either side (after authentication), for the reproductions to read. */
  readonly written: Array<{ from: Side; at: number; type: string; line: string }> = [];

  readonly #signer: Signer;
  readonly #publicKey: Awaited<ReturnType<Signer['publicKey']>>;
  #shoe!: LinkSession;
  #shoeAuth!: DeviceAuth;
  #host!: LinkSession;
  #hostAuth!: DriverAuth;
  #signings: Array<{ at: number; auth: DeviceAuth; id: number; digest: Uint8Array }> = [];
  #journal: Array<{ seq: number; at: number }> = [];
  readonly #storedSeqs = new Set<number>();
  #nextPing = PING_EVERY_MS;
  /** The shoe's outbox: cards sent and not ACKed, by seq; and cards dealt but never sent. */
  readonly #outbox = new Map<number, CardMessage>();
  #unsent: CardMessage[] = [];
  /** Cards the host ACKed, by seq (the shoe keeps counting, so a seq is never used twice). */
  readonly #ackedSeqs = new Set<number>();
  #shoeNextSeq = 0;
  #dealt = 0;

  private constructor(signer: Signer, publicKey: AuthPair['publicKey']) {
    this.#signer = signer;
    this.#publicKey = publicKey;
    this.#newShoe();
    this.#newHost();
  }

  /** A pair with a new device key, or with `key` (many drill runs share one). */
  static async create(key?: PairKey): Promise<AuthPair> {
    const { signer, publicKey } = key ?? (await pairKey());
    return new AuthPair(signer, publicKey);
  }

  get publicKey() {
    return this.#publicKey;
  }

  get dealt(): number {
    return this.#dealt;
  }

  /** The cards dealt so far, as the journal should hold them. */
  get expected(): string[] {
    return Array.from({ length: this.#dealt }, (_, index) => cardKey(card(index)));
  }

  get shoeHelloAcknowledged(): boolean {
    return this.#shoe.helloAcknowledged;
  }

  get shoeSettled(): boolean {
    const pending = this.#shoe.pending;
    return pending.inFlight === 0 && pending.queued === 0 && this.#unsent.length === 0;
  }

  get shoeStats() {
    return this.#shoe.stats;
  }

  get hostAuth(): DriverAuthStatus {
    return this.#hostAuth.status();
  }

  // ------------------------------------------------------------ what happens to the pair

  /** Both ends open: the host's HELLO, the shoe's HELLO and what it kept. */
  open(): void {
    this.hostOpens();
    this.shoeOpens();
  }

  /** The host's end (re)opens, as the driver's `linkChanged`. */
  hostOpens(reopen = false): void {
    if (reopen) this.#host.lineReopened();
    this.#hostRun(this.#host.send(hostHello('table-1'), this.now));
    this.#hostRun(this.#host.tick(this.now));
  }

  /** The shoe's end (re)opens, as the device core's `linkChanged`: HELLO, then what it kept. */
  shoeOpens(): void {
    this.#shoeRun(this.#shoe.send(SHOE_HELLO, this.now));
    this.#shoeRun(this.#shoe.retransmitNow(this.now));
  }

  /** The cable is pulled: what is on the wire is lost, and nothing passes until `plug`. */
  pull(): void {
    this.lineUp = false;
    this.wire.host = [];
    this.wire.shoe = [];
  }

  plug(): void {
    this.lineUp = true;
  }

  deal(): void {
    const message = card(this.#dealt++);
    this.#unsent.push(message);
    this.#shoeRun(this.#shoe.send(message, this.now));
  }

  /**
   * Someone else on the line (a rogue on the shoe's tty, or noise) writes a
   * line to the host: through the line's faults, never recorded as the shoe's.
   */
  rogueWrites(line: string): void {
    if (!this.lineUp) return;
    const faulted = this.fault({ to: 'host', type: 'ROGUE', line });
    if (faulted === undefined) return;
    const queue = this.wire.host;
    const at = Math.max(queue.at(-1)?.at ?? 0, this.now + Math.max(1, this.hop('host')));
    queue.push({ at, to: 'host', type: 'ROGUE', line: faulted });
  }

  /** The daemon is killed and started again: a new driver; the journal keeps what it stored. */
  restartHost(): void {
    this.#newHost();
    this.#journal = [];
    this.wire.host = [];
  }

  /** The shoe restarts and reads its outbox back (PROTOCOL.md § 3.9). */
  restartShoe(): void {
    this.#newShoe();
    this.wire.shoe = [];
  }

  // ------------------------------------------------------------ time

  /** Delivers the next line due to `to` now, whatever its time (a reproduction's step). */
  deliver(to: Side): OnWire | undefined {
    const frame = this.wire[to].shift();
    if (frame === undefined) return undefined;
    this.now = Math.max(this.now, frame.at);
    this.#arrive(frame);
    return frame;
  }

  /** Called for every line either side writes, before the line takes it (the drill pulls on some). */
  onWrite: (line: { from: Side; type: string }) => void = () => undefined;

  /**
   * Runs every timer, line and journal write due up to `end`; a function is
   * asked again after each step (an `onWrite` may bring the end forward).
   */
  runUntil(end: number | (() => number)): void {
    const limit = typeof end === 'number' ? () => end : end;
    for (;;) {
      const next = this.#nextEvent();
      if (next === undefined || next > limit()) break;
      this.now = Math.max(this.now, next);
      this.#step();
    }
    this.now = Math.max(this.now, limit());
  }

  #nextEvent(): number | undefined {
    const due = [
      this.wire.host[0]?.at,
      this.wire.shoe[0]?.at,
      this.#signings[0]?.at,
      ...this.#journal.map((entry) => entry.at),
      this.#shoe.nextDeadline(),
      this.#shoeAuth.nextDeadline(),
      this.#host.nextDeadline(),
      this.#hostAuth.nextDeadline(),
      this.#nextPing,
    ].filter((at): at is number => at !== undefined);
    return due.length === 0 ? undefined : Math.min(...due);
  }

  #step(): void {
    const now = this.now;
    for (;;) {
      const host = this.wire.host[0];
      const shoe = this.wire.shoe[0];
      const first =
        host !== undefined && host.at <= now && (shoe === undefined || host.at <= shoe.at)
          ? this.wire.host.shift()
          : shoe !== undefined && shoe.at <= now
            ? this.wire.shoe.shift()
            : undefined;
      if (first === undefined) break;
      this.#arrive(first);
    }
    while (this.#signings[0] !== undefined && this.#signings[0].at <= now) {
      const signing = this.#signings.shift()!;
      if (signing.auth !== this.#shoeAuth) continue;
      const signature = this.#signer.signNow(signing.digest);
      for (const action of this.#shoeAuth.signed(signing.id, signature)) {
        if (action.kind === 'write') this.#put('host', 'PROOF', action.line);
        else if (action.kind === 'release') this.#shoeRun(this.#shoe.retransmitNow(now));
      }
    }
    const durable = this.#journal.filter((entry) => entry.at <= now);
    this.#journal = this.#journal.filter((entry) => entry.at > now);
    for (const entry of durable) this.#hostRun(this.#host.ack(entry.seq, 'SH'));
    if (this.#nextPing <= now) {
      this.#nextPing += PING_EVERY_MS;
      this.#hostRun(this.#host.send({ type: 'PING', token: `P${now}` }, now));
    }
    this.#shoeRun(this.#shoe.tick(now));
    for (const action of this.#shoeAuth.tick(now)) {
      if (action.kind === 'release') this.#shoeRun(this.#shoe.retransmitNow(now));
    }
    this.#hostAuth.tick(now);
    this.#hostRun(this.#host.tick(now));
  }

  #arrive(frame: OnWire): void {
    if (frame.to === 'host') this.#hostReads(frame.line);
    else this.#shoeReads(frame.line);
  }

  #put(to: Side, type: string, line: string): void {
    const from = to === 'host' ? 'shoe' : 'host';
    this.written.push({ from, at: this.now, type, line });
    this.onWrite({ from, type });
    if (!this.lineUp) return;
    const faulted = this.fault({ to, type, line });
    if (faulted === undefined) return;
    const queue = this.wire[to];
    const at = Math.max(queue.at(-1)?.at ?? 0, this.now + Math.max(1, this.hop(to)));
    queue.push({ at, to, type, line: faulted });
  }

  // ------------------------------------------------------------ the shoe (as the device core)

  #newShoe(): void {
    const restore = [...this.#outbox].sort(([a], [b]) => a - b);
    this.#shoe = new LinkSession({
      ...DEVICE_SESSION_DEFAULTS,
      localTalker: 'SH',
      peerTalker: 'HO',
      initialSeq: this.#shoeNextSeq,
    });
    this.#shoe.restore(restore.map(([seq, message]) => ({ seq, message })));
    this.#shoeAuth = new DeviceAuth({
      talker: 'SH',
      publicKey: this.#publicKey,
      fresh: freshHandshakeSecrets,
    });
    // The cards dealt but never sent queue again, behind the restored ones.
    const unsent = this.#unsent;
    this.#unsent = [];
    for (const message of unsent) {
      this.#unsent.push(message);
      this.#shoe.send(message, this.now);
    }
  }

  #shoeRun(actions: readonly LinkAction[]): void {
    for (const action of actions) {
      if (action.kind === 'send') {
        // The outbox: the seq each card took when first sent, and the seqs used so far.
        const used = action.type === 'ACK' || action.type === 'NAK' ? action.seq : action.seq + 1;
        this.#shoeNextSeq = Math.max(this.#shoeNextSeq, used);
        if (action.type === 'CARD') this.#recordSent(action.seq, action.line);
        const line = this.#shoeAuth.outgoing(action.line, action.type);
        if (line !== undefined) this.#put('host', action.type, line);
      } else if (action.kind === 'acked') {
        if (action.type === 'HELLO') this.#shoeAuth.helloAcked(this.now);
        if (action.type === 'CARD') {
          this.#outbox.delete(action.seq);
          this.#ackedSeqs.add(action.seq);
        }
      }
    }
  }

  /**
   * A card line the shoe sends: kept in the outbox with its seq until ACKed (a
   * frame sent again after a HELLO, ACKed or not, is no first transmission);
   * the first send of the oldest card never sent takes it off the unsent list.
   */
  #recordSent(seq: number, line: string): void {
    const event = parseFrameLine(line);
    if (event.kind !== 'frame') return;
    const decoded = decodeMessage(event.frame);
    if (decoded.kind !== 'message' || decoded.message.type !== 'CARD') return;
    const message = decoded.message;
    const unsent = this.#unsent[0];
    if (unsent !== undefined && cardKey(unsent) === cardKey(message) && !this.#outbox.has(seq)) {
      this.#unsent.shift();
    }
    if (!this.#ackedSeqs.has(seq)) this.#outbox.set(seq, message);
  }

  #shoeReads(line: string): void {
    for (const action of this.#shoeAuth.incoming(parseFrameLine(line))) {
      switch (action.kind) {
        case 'pass':
          this.#shoeRun(this.#shoe.receive(action.event, this.now));
          break;
        case 'write':
          this.#put('host', 'PROOF', action.line);
          break;
        case 'sign':
          this.#signings.push({
            at: this.now + this.signDelay(),
            auth: this.#shoeAuth,
            id: action.id,
            digest: action.digest,
          });
          this.#signings.sort((a, b) => a.at - b.at);
          break;
        case 'release':
          this.#shoeRun(this.#shoe.retransmitNow(this.now));
          break;
        case 'refused':
          break;
      }
    }
  }

  // ------------------------------------------------------------ the host (as the driver)

  #newHost(): void {
    this.#host = new LinkSession(HOST_SESSION);
    this.#hostAuth = new DriverAuth({
      name: 'shoe',
      talker: 'SH',
      paired: this.#publicKey,
      now: () => this.now,
      clock: () => this.now,
      write: (line) => this.#put('shoe', 'CHALLENGE', line),
      pass: (event) => this.#hostRun(this.#host.receive(event, this.now)),
      unread: (event) => this.#hostRun(this.#host.discardUnanswered(event)),
      alarm: (kind, message) => this.alarms.push(`${kind}: ${message}`),
      quarantine: () => undefined,
      authenticated: () => undefined,
      askAgain: (seqs) => {
        for (const seq of seqs) this.#hostRun(this.#host.askAgain(seq));
      },
      schedule: () => undefined,
    });
  }

  #hostRun(actions: readonly LinkAction[]): void {
    for (const action of actions) {
      if (action.kind === 'send') {
        this.#put('shoe', action.type, this.#hostAuth.outgoing(action.line, action.type));
      } else if (action.kind === 'deliver' && action.message.type === 'HELLO') {
        this.#firmwareRefused = firmwareVerdict(action.message, this.allowedFirmware);
      } else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        if (this.#firmwareRefused !== undefined) {
          this.refused.push(cardKey(action.message));
          this.#hostRun(this.#host.ack(action.seq, 'SH'));
          continue;
        }
        // A card the journal already holds (the shoe keeps counting) is ACKed again, not stored twice.
        if (this.#storedSeqs.has(action.seq)) {
          this.#journal.push({ seq: action.seq, at: this.now });
          continue;
        }
        this.#storedSeqs.add(action.seq);
        this.stored.push(cardKey(action.message));
        this.#journal.push({ seq: action.seq, at: this.now + JOURNAL_DELAY_MS });
      }
    }
  }

  #hostReads(line: string): void {
    this.#hostAuth.incoming(parseFrameLine(line), this.now);
  }
}
