/**
 * A paired 1.7 shoe and its host as pure parts on a simulated line: the
 * device's and the host's link endpoints (device-protocol/endpoint/), which
 * the device core and the driver run, the driver's authentication status
 * (`AuthStatusTracker`), a virtual clock, and a line the caller can corrupt, lose,
 * pull and plug again; either side can restart (the shoe keeps its outbox,
 * PROTOCOL.md § 3.9; the host its journal). The reproductions drive it step
 * by step, the drill at random.
 */
import {
  DeviceEndpoint,
  type DeviceEndpointAction,
} from '../../../device-protocol/endpoint/device-endpoint.ts';
import {
  HostEndpoint,
  type HostEndpointAction,
} from '../../../device-protocol/endpoint/host-endpoint.ts';
import type { CardMessage, HelloMessage } from '../../../device-protocol/messages.ts';
import {
  AuthStatusTracker,
  type DriverAuthStatus,
} from '../../../firmware-host/drivers/auth-status.ts';
import {
  type FirmwareAllowList,
  firmwareVerdict,
  hostHello,
} from '../../../firmware-host/drivers/driver.ts';
import {
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../../hardware/keys/device-key.ts';
import { card, cardKey } from './window-drill.ts';

export type Side = 'host' | 'shoe';

export const SHOE_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
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
const HOST_SESSION = {
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
  /** The same alarms with their time (virtual ms) and details, for the ones that count them. */
  readonly raised: Array<{ at: number; kind: string; detail: Record<string, unknown> }> = [];
  /** Every CARD the host endpoint delivered, before the journal's dedupe (a card delivered twice shows here). */
  readonly delivered: string[] = [];
  /** What the shoe's authentication reported (`refused: ...`, `host_lost: ...`). */
  readonly shoeReports: string[] = [];
  /** Lines written by either side (after authentication), for the reproductions to read. */
  readonly written: Array<{ from: Side; at: number; type: string; line: string }> = [];

  readonly #signer: Signer;
  readonly #publicKey: Awaited<ReturnType<Signer['publicKey']>>;
  #shoe!: DeviceEndpoint;
  #host!: HostEndpoint;
  #hostAuth!: AuthStatusTracker;
  #signings: Array<{ at: number; shoe: DeviceEndpoint; id: number; digest: Uint8Array }> = [];
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

  /** The seq the shoe's next new frame takes (a rogue re-frames its HELLO with it, issue 33 N1). */
  get shoeNextSeq(): number {
    return this.#shoeNextSeq;
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
  hostOpens(_reopen = false): void {
    // The host endpoint counts its opens itself: a second one is a reopen.
    this.#hostRun(this.#host.lineOpened(this.now));
  }

  /** The shoe's end (re)opens, as the device core's `linkChanged`: HELLO, then what it kept. */
  shoeOpens(): void {
    this.#shoeRun(this.#shoe.lineOpened(this.now));
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

  /** Someone on the line writes a line to the shoe (a man in the middle, a replay). */
  rogueWritesToShoe(line: string): void {
    if (!this.lineUp) return;
    const queue = this.wire.shoe;
    const at = Math.max(queue.at(-1)?.at ?? 0, this.now + Math.max(1, this.hop('shoe')));
    queue.push({ at, to: 'shoe', type: 'ROGUE', line });
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
      this.#host.nextDeadline(),
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
      if (signing.shoe !== this.#shoe) continue;
      const signature = this.#signer.signNow(signing.digest);
      this.#shoeRun(this.#shoe.signed(signing.id, signature, now));
    }
    const durable = this.#journal.filter((entry) => entry.at <= now);
    this.#journal = this.#journal.filter((entry) => entry.at > now);
    for (const entry of durable) this.#hostRun(this.#host.ack(entry.seq, now));
    if (this.#nextPing <= now) {
      this.#nextPing += PING_EVERY_MS;
      // The driver's beat, which counts an attack on the line each minute and ends it.
      this.#hostAuth.tick();
      this.#hostRun(this.#host.send({ type: 'PING', token: `P${now}` }, now));
    }
    this.#shoeRun(this.#shoe.tick(now));
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
    this.#shoe = new DeviceEndpoint({
      talker: 'SH',
      hello: SHOE_HELLO,
      publicKey: this.#publicKey,
      // Paired with the table: it learned the host key, and only that host's CONFIRM opens a session.
      hostKey: processHostKey().publicKey,
      fresh: freshHandshakeSecrets,
      restore: {
        frames: restore.map(([seq, message]) => ({ seq, message })),
        nextSeq: this.#shoeNextSeq,
      },
    });
    // The cards dealt but never sent queue again, behind the restored ones.
    for (const message of this.#unsent) this.#shoe.send(message, this.now);
  }

  #shoeRun(actions: readonly DeviceEndpointAction[]): void {
    for (const action of actions) {
      switch (action.kind) {
        case 'write':
          if (action.seq !== undefined) this.#recordSent(action.seq, action.type);
          this.#put('host', action.type, action.line);
          break;
        case 'held':
          this.#recordSent(action.seq, action.type);
          break;
        case 'acked':
          if (action.type === 'CARD') {
            this.#outbox.delete(action.seq);
            this.#ackedSeqs.add(action.seq);
          }
          break;
        case 'auth':
          if (action.report.kind === 'sign') {
            this.#signings.push({
              at: this.now + this.signDelay(),
              shoe: this.#shoe,
              id: action.report.id,
              digest: action.report.digest,
            });
            this.#signings.sort((a, b) => a.at - b.at);
          } else {
            this.shoeReports.push(`${action.report.kind}: ${action.report.detail}`);
          }
          break;
        default:
          break;
      }
    }
  }

  /**
   * A frame the shoe sends (written, or held back until it has session keys):
   * the seqs used so far, and for a card the outbox: the first send of a seq
   * not yet kept is the oldest card never sent, kept with that seq until ACKed.
   */
  #recordSent(seq: number, type: string): void {
    const used = type === 'ACK' || type === 'NAK' ? seq : seq + 1;
    this.#shoeNextSeq = Math.max(this.#shoeNextSeq, used);
    if (type !== 'CARD' || this.#outbox.has(seq) || this.#ackedSeqs.has(seq)) return;
    const unsent = this.#unsent.shift();
    if (unsent !== undefined) this.#outbox.set(seq, unsent);
  }

  #shoeReads(line: string): void {
    this.#shoeRun(this.#shoe.receive(line, this.now));
  }

  // ------------------------------------------------------------ the host (as the driver)

  #newHost(): void {
    this.#host = new HostEndpoint({
      peer: 'SH',
      link: HOST_SESSION,
      hello: hostHello('table-1'),
      paired: this.#publicKey,
      fresh: freshHandshakeSecrets,
      hostKey: processHostKey(),
    });
    this.#hostAuth = new AuthStatusTracker({
      name: 'shoe',
      paired: this.#publicKey,
      clock: () => this.now,
      alarm: (kind, message, detail) => {
        this.alarms.push(`${kind}: ${message}`);
        this.raised.push({ at: this.now, kind, detail });
      },
      quarantine: () => undefined,
      authenticated: () => undefined,
    });
  }

  #hostRun(actions: readonly HostEndpointAction[]): void {
    for (const action of actions) {
      if (action.kind === 'write') {
        this.#put('shoe', action.type, action.line);
      } else if (action.kind === 'auth') {
        this.#hostAuth.report(action.report);
      } else if (action.kind === 'deliver' && action.message.type === 'HELLO') {
        this.#firmwareRefused = firmwareVerdict(action.message, this.allowedFirmware);
      } else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        this.delivered.push(cardKey(action.message));
        if (this.#firmwareRefused !== undefined) {
          this.refused.push(cardKey(action.message));
          this.#hostRun(this.#host.ack(action.seq, this.now));
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
    this.#hostRun(this.#host.receive(line, this.now));
  }
}
