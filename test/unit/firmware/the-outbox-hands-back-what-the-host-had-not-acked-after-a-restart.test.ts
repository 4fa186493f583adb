import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Outbox } from '../../../hardware/firmware/outbox.ts';

describe('the outbox hands back what the host had not ACKed after a restart', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  const path = () => {
    const dir = mkdtempSync(join(tmpdir(), 'tableside-outbox-'));
    dirs.push(dir);
    return join(dir, 'outbox.jsonl');
  };

  it('keeps sent events with their seqs, unsent ones without, and counts on after the last seq', () => {
    const file = path();
    const outbox = new Outbox(file);
    expect(outbox.restored).toEqual({ sent: [], unsent: [], nextSeq: undefined });
    outbox.transmitted(0, 'HELLO');
    outbox.queued({ type: 'CARD', card: 'AS', back: 'red', face: 'down' });
    outbox.transmitted(1, 'CARD');
    outbox.queued({ type: 'CARD', card: 'KH', back: 'red', face: 'up' });
    outbox.transmitted(2, 'CARD');
    outbox.transmitted(3, 'PONG');
    outbox.queued({ type: 'CUT' });
    outbox.acked(1);
    outbox.close();
    // A power cut mid-write leaves a torn line: it never reached the wire.
    appendFileSync(file, '{"q":9,"m":{"type":"CA');

    const again = new Outbox(file);
    expect(again.restored).toEqual({
      sent: [{ seq: 2, message: { type: 'CARD', card: 'KH', back: 'red', face: 'up' } }],
      unsent: [{ type: 'CUT' }],
      nextSeq: 4,
    });
    expect(again.outstanding).toBe(1);
    again.acked(2);
    expect(again.outstanding).toBe(0);
    again.close();
    const third = new Outbox(file);
    expect(third.restored).toEqual({ sent: [], unsent: [], nextSeq: 4 });
    third.close();
  });

  // The link reports a frame's first transmission anew after each HELLO (attempt 1), and
  // reports its ACKs and NAKs too: none of these is the first send of the oldest unsent event.
  const card = (code: 'AS' | 'KH' | 'QD' | '2C') =>
    ({ type: 'CARD', card: code, back: 'red', face: 'down' }) as const;

  it('does not give an unsent event the seq of an event read back and sent again (fuzz seed 4)', () => {
    const file = path();
    const before = new Outbox(file);
    before.queued(card('AS'));
    before.transmitted(1, 'CARD');
    before.close();
    const outbox = new Outbox(file);
    expect(outbox.restored.sent).toEqual([{ seq: 1, message: card('AS') }]);
    // A card dealt after the restart waits behind the HELLO; then the kept one goes first.
    outbox.transmitted(2, 'HELLO');
    outbox.queued(card('KH'));
    outbox.transmitted(1, 'CARD');
    outbox.transmitted(3, 'CARD');
    outbox.acked(1);
    outbox.close();
    // KH was never ACKed: it is kept with its own seq, and AS is gone.
    expect(new Outbox(file).restored).toEqual({
      sent: [{ seq: 3, message: card('KH') }],
      unsent: [],
      nextSeq: 4,
    });
  });

  it("does not give an unsent event the seq of the device's ACK or NAK", () => {
    const file = path();
    const outbox = new Outbox(file);
    outbox.transmitted(0, 'HELLO');
    outbox.queued(card('AS'));
    // A 1.2 device's ACK carries the next seq without taking it.
    outbox.transmitted(2, 'ACK');
    outbox.transmitted(2, 'NAK');
    outbox.transmitted(1, 'CARD');
    outbox.close();
    expect(new Outbox(file).restored.sent).toEqual([{ seq: 1, message: card('AS') }]);
  });

  it('does not give an unsent event the seq of an ACKed event sent again after a NAK hello (fuzz seed 61)', () => {
    const file = path();
    const outbox = new Outbox(file);
    outbox.queued(card('AS'));
    outbox.transmitted(1, 'CARD');
    outbox.queued(card('KH'));
    outbox.transmitted(2, 'CARD');
    // 2 is ACKed but kept by the link behind 1; the host restarts and NAKs `hello`.
    outbox.acked(2);
    outbox.transmitted(3, 'HELLO');
    outbox.queued(card('QD'));
    outbox.transmitted(1, 'CARD');
    outbox.transmitted(2, 'CARD');
    outbox.transmitted(4, 'CARD');
    outbox.acked(1);
    outbox.close();
    expect(new Outbox(file).restored).toEqual({
      sent: [{ seq: 4, message: card('QD') }],
      unsent: [],
      nextSeq: 5,
    });
  });

  it('counts on after the latest seq used, not the last one written (fuzz seed 651)', () => {
    const file = path();
    const outbox = new Outbox(file);
    outbox.queued(card('AS'));
    outbox.transmitted(8, 'CARD');
    // A PING filling the hole the host NAKed `missing` takes that hole's older seq.
    outbox.transmitted(5, 'PING');
    outbox.close();
    // Counting on from 6 would reuse 8, and a HELLO before it would make 8 a new card to the host.
    expect(new Outbox(file).restored.nextSeq).toBe(9);
  });
});
