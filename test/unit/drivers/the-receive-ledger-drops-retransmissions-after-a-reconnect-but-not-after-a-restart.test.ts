import { describe, expect, it } from 'vitest';
import { ReceiveLedger } from '../../../firmware-host/drivers/ledger.ts';

describe('the receive ledger drops retransmissions after a reconnect but not after a restart', () => {
  it('a reconnecting device retransmits seqs before its new HELLO: duplicates', () => {
    const ledger = new ReceiveLedger();
    ledger.hello(0);
    expect(ledger.classify(1, 'AS')).toBe('new');
    expect(ledger.classify(2, 'KH')).toBe('new');
    ledger.markDurable(1);
    ledger.hello(9); // reconnected: HELLO at its next seq
    expect(ledger.classify(1, 'AS')).toBe('duplicate_durable');
    expect(ledger.classify(2, 'KH')).toBe('duplicate_pending');
    expect(ledger.classify(3, '7C')).toBe('new'); // queued while unplugged, never seen
    expect(ledger.duplicates).toBe(2);
  });

  it('a restarted device starts again at seq 0: its frames are new even where seqs repeat', () => {
    const ledger = new ReceiveLedger();
    ledger.hello(0);
    ledger.classify(1, 'AS');
    ledger.markDurable(1);
    ledger.hello(0);
    expect(ledger.classify(1, 'AS')).toBe('new');
  });

  it('works across the 65535 wrap', () => {
    const ledger = new ReceiveLedger();
    ledger.hello(65_530);
    ledger.classify(65_535, 'AS');
    ledger.markDurable(65_535);
    ledger.hello(2);
    expect(ledger.classify(65_535, 'AS')).toBe('duplicate_durable');
  });

  it('the same seq with other content is a new frame', () => {
    const ledger = new ReceiveLedger();
    ledger.hello(0);
    ledger.classify(1, 'AS');
    ledger.hello(5);
    expect(ledger.classify(1, 'QD')).toBe('new');
  });

  it('stays bounded', () => {
    const ledger = new ReceiveLedger({ capacity: 100 });
    for (let seq = 0; seq < 1_000; seq++) {
      ledger.classify(seq, String(seq));
      if (seq % 2 === 0) ledger.markDurable(seq);
    }
    expect(ledger.size).toBeLessThanOrEqual(100);
  });
});
