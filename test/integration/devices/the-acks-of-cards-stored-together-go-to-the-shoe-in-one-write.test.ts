import { describe, expect, it } from 'vitest';
import { benchPerTest, until } from './helpers.ts';

const script = {
  on: [],
  off: [],
  steps: [{ op: 'shuffle' as const }, { op: 'deal' as const, count: 6 }],
};

/** ACK frames in a chunk the shoe read, by the seq they acknowledge (PROTOCOL.md: `ACK,<seq>`). */
function ackedSeqs(chunk: Buffer): number[] {
  return [...chunk.toString('latin1').matchAll(/^\$[A-Z]+,\d+,ACK,(\d+)\*[0-9A-F]{4}\r\n/gm)].map(
    (match) => Number(match[1]),
  );
}

describe('the ACKs of cards stored together go to the shoe in one write', () => {
  const openBench = benchPerTest();

  it('acknowledging five cards in one turn sends their five ACKs in one chunk, in order', async () => {
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 4, scenario: script },
      {},
      false,
    );
    const { sim, observations, wire } = current;
    const chunks: Buffer[] = [];
    wire.device.on('data', (chunk: Buffer) => chunks.push(chunk));
    await sim.whenReady();
    // The first card alone (the shoe's slow start), then five together.
    await sim.step();
    await until(() => observations.length === 1, 5_000, 'the first card');
    observations[0]!.ack();
    await until(() => sim.pending.inFlight === 0, 5_000, 'the first ACK');
    await sim.stepMany(5);
    await until(() => observations.length === 6, 5_000, 'five more cards');
    chunks.length = 0;
    // As the daemon does once a group commit is durable: every ACK in one turn.
    for (const observation of observations.slice(1)) observation.ack();
    const seqs = observations.slice(1).map((observation) => observation.seq);
    await until(
      () => chunks.some((chunk) => ackedSeqs(chunk).length > 0),
      5_000,
      'the ACKs on the line',
    );
    const withAcks = chunks.filter((chunk) => ackedSeqs(chunk).length > 0);
    expect(withAcks).toHaveLength(1);
    expect(ackedSeqs(withAcks[0]!)).toEqual(seqs);
    await until(() => sim.pending.inFlight === 0 && sim.pending.queued === 0, 5_000, 'all ACKed');
  });
});
