/**
 * The device's outbox: every event it must not lose, kept in a small
 * append-only file, fsynced before the event can reach the wire, so that a
 * card survives the firmware's own restart or a power cut (PROTOCOL.md §
 * 8.2). One JSON record a line:
 *
 *   {"q":7,"m":{"type":"CARD",...}}   event 7 queued (not yet sent)
 *   {"s":412,"q":7}                    event 7 went out with seq 412
 *   {"s":413}                          a control frame (HELLO, PONG) took seq 413
 *   {"a":412}                          seq 412 was ACKed
 *
 * On start it reads the file back: the events not ACKed, with the seqs they
 * had, and the seq to count on from. A torn last line (power cut mid-write)
 * is ignored; it never reached the wire. When nothing is outstanding the
 * file is rewritten to one line holding the last seq, so it stays small.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { nextSeq, SEQ_MODULUS } from '../../device-protocol/frame.ts';
import type { Message } from '../../device-protocol/messages.ts';

interface Kept {
  readonly id: number;
  readonly message: Message;
  seq?: number;
}

export interface OutboxState {
  /** Events sent and not ACKed, oldest first, with their seqs. */
  readonly sent: readonly { readonly seq: number; readonly message: Message }[];
  /** Events queued and never sent: they take new seqs. */
  readonly unsent: readonly Message[];
  /** The seq after every seq used; undefined for a device that never sent anything. */
  readonly nextSeq: number | undefined;
}

/**
 * Where the shoe firmware keeps its outbox when no path is given: the state
 * folder systemd gives the service (`StateDirectory=`, in
 * `STATE_DIRECTORY`), else `.tableside/` beside the journal's default
 * folder; never the current folder itself (it was written into a checkout's
 * root).
 */
export function defaultOutboxPath(env: Readonly<Record<string, string | undefined>>): string {
  const state = env.STATE_DIRECTORY?.split(':')[0];
  return join(state || '.tableside', 'shoe-outbox.jsonl');
}

export class Outbox {
  private fd: number;
  private readonly kept = new Map<number, Kept>();
  private readonly bySeq = new Map<number, number>();
  /** Seqs of the events ACKed lately, oldest first: the link may send them again. */
  private readonly ackedSeqs = new Set<number>();
  /** Event ids queued, not yet sent, in order (the link sends events in queue order). */
  private readonly unsentIds: number[] = [];
  private nextId = 1;
  /** The latest seq used (a PING filling a hole, a HELLO replacing one, take older ones). */
  private lastSeq: number | undefined;
  private lines = 0;
  readonly restored: OutboxState;

  constructor(readonly path: string) {
    // A state folder not made yet (the first start): made, as the file is.
    mkdirSync(dirname(path), { recursive: true });
    this.restored = this.load();
    this.fd = openSync(path, 'a');
  }

  /** Records an event before it is handed to the link; returns once it is on disk. */
  queued(message: Message): void {
    const id = this.nextId++;
    this.kept.set(id, { id, message });
    this.unsentIds.push(id);
    this.append({ q: id, m: message }, true);
  }

  /** A frame's first transmission: an event takes its seq (durably, before it goes on the wire). */
  transmitted(seq: number, type: string): void {
    // The link reports a frame's first transmission after each of our HELLOs anew (an event
    // read back from this file, or one sent again after the host asked for our HELLO): an
    // event that had its seq is no unsent event, and its seq lies behind the ones counted since.
    if (this.bySeq.has(seq) || this.ackedSeqs.has(seq)) return;
    this.lastSeq = latest(this.lastSeq, seq);
    if (CONTROL.has(type)) {
      this.append({ s: seq }, false);
      return;
    }
    const id = this.unsentIds.shift();
    if (id === undefined) return;
    this.kept.get(id)!.seq = seq;
    this.bySeq.set(seq, id);
    this.append({ s: seq, q: id }, true);
  }

  acked(seq: number): void {
    const id = this.bySeq.get(seq);
    if (id === undefined) return;
    this.bySeq.delete(seq);
    this.kept.delete(id);
    this.ackedSeqs.add(seq);
    // The link sends again only what a window (32) holds, so a few hundred are plenty.
    if (this.ackedSeqs.size > ACKED_REMEMBERED) {
      this.ackedSeqs.delete(this.ackedSeqs.values().next().value!);
    }
    // Losing this line costs a retransmission the host recognises, not a card: no fsync.
    this.append({ a: seq }, false);
    if (this.kept.size === 0 && this.lines > 256) this.compact();
  }

  /** Events not yet ACKed. */
  get outstanding(): number {
    return this.kept.size;
  }

  close(): void {
    closeSync(this.fd);
  }

  private append(record: object, durable: boolean): void {
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    if (durable) fsyncSync(this.fd);
    this.lines++;
  }

  private compact(): void {
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w');
    if (this.lastSeq !== undefined) writeSync(fd, `${JSON.stringify({ s: this.lastSeq })}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, this.path);
    closeSync(this.fd);
    this.fd = openSync(this.path, 'a');
    this.lines = 1;
  }

  private load(): OutboxState {
    let text = '';
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const events = new Map<number, Kept>();
    const seqToId = new Map<number, number>();
    let lastSeq: number | undefined;
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      let record: { q?: number; m?: Message; s?: number; a?: number };
      try {
        record = JSON.parse(line);
      } catch {
        continue; // a torn last line: it never reached the wire
      }
      if (record.m !== undefined && record.q !== undefined) {
        events.set(record.q, { id: record.q, message: record.m });
      } else if (record.s !== undefined) {
        lastSeq = latest(lastSeq, record.s);
        if (record.q !== undefined) {
          const event = events.get(record.q);
          if (event) event.seq = record.s;
          seqToId.set(record.s, record.q);
        }
      } else if (record.a !== undefined) {
        const id = seqToId.get(record.a);
        if (id !== undefined) events.delete(id);
      }
      this.lines++;
    }
    const outstanding = [...events.values()].sort((a, b) => a.id - b.id);
    const sent = outstanding.filter((event) => event.seq !== undefined);
    const unsent = outstanding.filter((event) => event.seq === undefined);
    // Everything carried over is re-recorded under new ids in this file's continuation.
    this.lastSeq = lastSeq;
    for (const event of sent) {
      const id = this.nextId++;
      this.kept.set(id, { id, message: event.message, seq: event.seq! });
      this.bySeq.set(event.seq!, id);
    }
    const state: OutboxState = {
      sent: sent.map((event) => ({ seq: event.seq!, message: event.message })),
      unsent: unsent.map((event) => event.message),
      nextSeq: lastSeq === undefined ? undefined : nextSeq(lastSeq),
    };
    this.rewrite(sent);
    return state;
  }

  /** Starts the file afresh with what is still outstanding (the unsent are queued again by the caller). */
  private rewrite(sent: readonly Kept[]): void {
    const temporary = `${this.path}.tmp`;
    const fd = openSync(temporary, 'w');
    const lines: string[] = [];
    for (const [id, kept] of this.kept) {
      lines.push(
        JSON.stringify({ q: id, m: kept.message }),
        JSON.stringify({ s: kept.seq, q: id }),
      );
    }
    if (this.lastSeq !== undefined && sent.every((event) => event.seq !== this.lastSeq)) {
      lines.push(JSON.stringify({ s: this.lastSeq }));
    }
    if (lines.length > 0) writeSync(fd, `${lines.join('\n')}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, this.path);
    this.lines = lines.length;
  }
}

/**
 * Frames the link itself sends and that never need sending again after a restart. ACK and
 * NAK are sent once each (a 1.2 device's carry the next seq without taking it): taken for an
 * event's transmission, they gave that event a seq it never had.
 */
const CONTROL = new Set(['HELLO', 'PING', 'PONG', 'ACK', 'NAK']);
const ACKED_REMEMBERED = 1024;

/** The later of two seqs in the device's counting (modulo the wrap). */
function latest(seq: number | undefined, other: number): number {
  if (seq === undefined) return other;
  return (other - seq + SEQ_MODULUS) % SEQ_MODULUS < SEQ_MODULUS / 2 ? other : seq;
}
