/**
 * A shoe written from PROTOCOL.md alone, the way a firmware author outside
 * the project would (protocol 1.0: stop and wait, every frame takes a seq),
 * serving one TCP connection at a time, with one deliberate mistake at a time
 * (or none). The conformance suite must pass it without a mistake and name
 * each mistake. It shares nothing with LinkSession or the simulators: only
 * the frame grammar and the CRC.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { crc16Hex } from '../../../device-protocol/crc.ts';
import { FrameDecoder } from '../../../device-protocol/frame-decoder.ts';

export type Mistake =
  | 'none'
  /** CARD frames go out with a wrong CRC. */
  | 'bad-crc'
  /** Never sends a frame again: no retransmission on a timeout, a NAK or a reconnect. */
  | 'no-retransmit'
  /** The card after an ACKed card takes the ACKed card's seq again. */
  | 'reused-seq'
  /** Sends its first card right after its HELLO, without waiting for the HELLO's ACK. */
  | 'early-events'
  /** Sends nothing at all. */
  | 'silent'
  /** Sends lines of noise, never a frame. */
  | 'garbage'
  /** Hangs up and stops listening when the host first PINGs it. */
  | 'disconnect'
  /** Sends each card 30 times in a burst. */
  | 'flood'
  /**
   * Restarts whenever its line opens again (a board that resets when its USB port
   * opens): counts from 0 and forgets the card it had in flight (§ 3.7), where a
   * device that kept running must keep counting and send that card again.
   */
  | 'restarts-on-reopen';

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const RETRY_MS = 300;
const CARDS = ['AS', 'KH', '7D', '2C', '9S', 'TD'];

function frame(seq: number, type: string, fields: readonly string[] = []): string {
  const body = ['SH', seq, type, ...fields].join(',');
  return `$${body}*${crc16Hex(body)}\r\n`;
}

export class HandWrittenDevice {
  readonly #server: Server;
  readonly #mistake: Mistake;
  #socket: Socket | undefined;
  #seq = 0;
  #helloSeq = -1;
  #helloAcked = false;
  /** Reliable frames not yet ACKed: seq to line. */
  readonly #unacked = new Map<number, string>();
  #card = 0;
  #lastCardSeq = -1;
  readonly #seenFromHost = new Set<number>();
  #timer: NodeJS.Timeout | undefined;
  #noise: NodeJS.Timeout | undefined;

  constructor(mistake: Mistake) {
    this.#mistake = mistake;
    this.#server = createServer((socket) => this.#attach(socket));
  }

  /** Listens on a free port of 127.0.0.1; resolves with the URL the suite opens. */
  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const address = this.#server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP port');
    return `tcp://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    clearInterval(this.#noise);
    this.#socket?.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #attach(socket: Socket): void {
    if (this.#socket !== undefined && this.#mistake === 'restarts-on-reopen') this.#restart();
    this.#socket?.destroy();
    this.#socket = socket;
    const decoder = new FrameDecoder();
    socket.on('data', (chunk) => {
      for (const event of decoder.push(chunk)) {
        if (event.kind === 'discard') {
          if (event.reason !== 'no_start') {
            this.#send('NAK', [event.seq === undefined ? '' : String(event.seq), event.reason]);
          }
        } else this.#receive(event.frame.seq, event.frame.type, event.frame.fields);
      }
    });
    socket.on('error', () => undefined);
    if (this.#mistake === 'silent') return;
    if (this.#mistake === 'garbage') {
      this.#noise = setInterval(() => socket.write('#@!noise*ZZ\r\n$$$,,*\r\n'), 50);
      return;
    }
    // § 4: HELLO first on every connection, then (§ 3.4) what is still unACKed.
    this.#hello();
    if (this.#mistake !== 'no-retransmit') {
      for (const [seq, line] of this.#unacked) if (seq !== this.#helloSeq) socket.write(line);
    }
    clearInterval(this.#timer);
    this.#timer = setInterval(() => this.#retry(), RETRY_MS);
    if (this.#mistake === 'early-events') this.#nextCard();
  }

  /** What a power cycle loses: the seq counter, the frames in flight, the host's seqs. */
  #restart(): void {
    this.#seq = 0;
    this.#helloSeq = -1;
    this.#unacked.clear();
    this.#lastCardSeq = -1;
    this.#seenFromHost.clear();
  }

  #hello(): void {
    if (this.#helloSeq >= 0) this.#unacked.delete(this.#helloSeq);
    this.#helloAcked = false;
    this.#helloSeq = this.#reliable('HELLO', ['TS-HAND-1', 'HAND0001', '1.0', '1.0.0', SHA]);
  }

  #retry(): void {
    if (this.#mistake === 'no-retransmit') return;
    for (const line of this.#unacked.values()) this.#socket?.write(line);
  }

  /** Takes the next seq (protocol 1.0: every frame does) and keeps the line until ACKed. */
  #reliable(type: string, fields: readonly string[], seq = this.#seq++): number {
    let line = frame(seq, type, fields);
    if (this.#mistake === 'bad-crc' && type === 'CARD') line = line.replace(/\*(....)/, '*0000');
    this.#unacked.set(seq, line);
    const copies = this.#mistake === 'flood' && type === 'CARD' ? 30 : 1;
    for (let copy = 0; copy < copies; copy++) this.#socket?.write(line);
    return seq;
  }

  #send(type: string, fields: readonly string[]): void {
    this.#socket?.write(frame(this.#seq++, type, fields));
  }

  #nextCard(): void {
    if (this.#card >= CARDS.length) return;
    if ([...this.#unacked.keys()].some((seq) => seq !== this.#helloSeq)) return;
    const card = CARDS[this.#card++]!;
    const seq =
      this.#mistake === 'reused-seq' && this.#lastCardSeq >= 0 ? this.#lastCardSeq : this.#seq++;
    this.#lastCardSeq = seq;
    this.#reliable('CARD', [card, 'red', 'down'], seq);
  }

  #receive(seq: number, type: string, fields: readonly string[]): void {
    if (type === 'ACK') {
      const acked = Number(fields[0]);
      if (!this.#unacked.delete(acked)) return;
      if (acked === this.#helloSeq) this.#helloAcked = true;
      if (this.#helloAcked) setTimeout(() => this.#nextCard(), 50);
      return;
    }
    if (type === 'NAK') {
      if (fields[1] === 'hello') {
        this.#hello();
        return;
      }
      const line = this.#unacked.get(Number(fields[0]));
      if (line !== undefined && this.#mistake !== 'no-retransmit') this.#socket?.write(line);
      return;
    }
    // § 3.1: every valid frame is ACKed; § 3.6: a repeat is not acted on twice.
    this.#send('ACK', [String(seq)]);
    if (type === 'HELLO') {
      this.#seenFromHost.clear();
      this.#seenFromHost.add(seq);
      this.#retry();
      return;
    }
    if (this.#seenFromHost.has(seq)) return;
    this.#seenFromHost.add(seq);
    if (type === 'PING') {
      if (this.#mistake === 'disconnect') {
        this.#socket?.destroy();
        this.#server.close();
        return;
      }
      this.#reliable('PONG', fields.slice(0, 1));
    }
  }
}
