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
});
