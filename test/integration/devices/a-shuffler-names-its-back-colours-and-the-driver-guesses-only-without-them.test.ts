/**
 * A shuffler of protocol 1.1 names the back colours of each shuffle
 * (SHUFFLED2) to a host whose HELLO says 1.1; the driver takes them as they
 * are and takes the colours the table expects next (`expectedBacks`), else
 * its fixed `backs`, only when the shuffler sends the 1.0 SHUFFLED.
 */
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../device-protocol/messages.ts';
import { benchPerTest, otherColourThanLast, until } from './helpers.ts';

describe('a shuffler names its back colours, and the driver guesses only without them', () => {
  const openBench = benchPerTest();

  const frames = (lines: string[], type: string) =>
    lines.filter((line) => line.split(',')[2]?.split('*')[0] === type);

  it('reports each deck’s colour in SHUFFLED2, and the records carry it with no backs configured', async () => {
    const current = openBench({
      kind: 'shuffler',
      ruleset: 'peru-triple-shot',
      seed: 51,
      rounds: 4,
    });
    const { sim, observations } = current;
    const wrote: string[] = [];
    sim.on('wrote', (line) => wrote.push(line));
    await sim.whenReady();
    await until(() => sim.hostProtocol !== undefined, 5_000, "the host's HELLO");
    expect(sim.hostProtocol).toBe(PROTOCOL_VERSION);
    while (await sim.step());
    await sim.whenDone();
    await until(() => observations.length === 4, 5_000, 'four shuffle records');
    // Triple Shot alternates a red and a blue deck (000 § 2.c); the driver was told neither.
    expect(observations.map((o) => o.record)).toMatchObject([
      { t: 'shuffle', decks: 1, backs: ['red'] },
      { t: 'shuffle', decks: 1, backs: ['blue'] },
      { t: 'shuffle', decks: 1, backs: ['red'] },
      { t: 'shuffle', decks: 1, backs: ['blue'] },
    ]);
    expect(frames(wrote, 'SHUFFLED2')).toHaveLength(4);
    expect(frames(wrote, 'SHUFFLED')).toHaveLength(0);
  });

  it('takes the reported colours over the configured guess when they disagree', async () => {
    const current = openBench(
      { kind: 'shuffler', ruleset: 'peru-triple-shot', seed: 52, rounds: 2 },
      { backs: ['green'] },
    );
    const { sim, observations } = current;
    await sim.whenReady();
    await until(() => sim.hostProtocol !== undefined, 5_000, "the host's HELLO");
    while (await sim.step());
    await until(() => observations.length === 2, 5_000, 'two shuffle records');
    expect(observations.map((o) => o.record.t === 'shuffle' && o.record.backs)).toEqual([
      ['red'],
      ['blue'],
    ]);
  });

  it('records the colours the table expects next when the shuffler cannot read backs', async () => {
    const current = openBench(
      {
        kind: 'shuffler',
        ruleset: 'peru-triple-shot',
        seed: 53,
        rounds: 3,
        off: ['report-backs'],
      },
      // The table's journal would say blue comes first here (the last deck was red).
      { expectedBacks: () => otherColourThanLast(current.observations, ['blue', 'red']) },
    );
    const { sim, observations } = current;
    const wrote: string[] = [];
    sim.on('wrote', (line) => wrote.push(line));
    await sim.whenReady();
    while (await sim.step());
    await until(() => observations.length === 3, 5_000, 'three shuffle records');
    expect(frames(wrote, 'SHUFFLED2')).toHaveLength(0);
    expect(observations.map((o) => o.record.t === 'shuffle' && o.record.backs)).toEqual([
      ['blue'],
      ['red'],
      ['blue'],
    ]);
  });

  it('names its colours on a wire whose host announced its version before the simulator took it over', async () => {
    // The daemon's bench: the host's HELLO went out once, when the wire opened (PROTOCOL.md § 4.3).
    const current = openBench(
      {
        kind: 'shuffler',
        ruleset: 'peru-triple-shot',
        seed: 55,
        rounds: 1,
        hostProtocol: PROTOCOL_VERSION,
        firstBack: 'blue',
      },
      { sendHello: false, backs: ['violet'] },
    );
    const { sim, observations } = current;
    const wrote: string[] = [];
    sim.on('wrote', (line) => wrote.push(line));
    await sim.whenReady();
    await sim.step();
    await until(() => observations.length === 1, 5_000, 'the shuffle record');
    expect(frames(wrote, 'SHUFFLED2')).toHaveLength(1);
    expect(observations[0]!.record).toMatchObject({ t: 'shuffle', decks: 1, backs: ['blue'] });
  });

  it('sends the 1.0 SHUFFLED to a host that never said which version it speaks', async () => {
    const current = openBench(
      { kind: 'shuffler', ruleset: 'peru-triple-shot', seed: 54, rounds: 1 },
      { sendHello: false, backs: ['violet'] },
    );
    const { sim, observations } = current;
    const wrote: string[] = [];
    sim.on('wrote', (line) => wrote.push(line));
    await sim.whenReady();
    await sim.step();
    await until(() => observations.length === 1, 5_000, 'the shuffle record');
    expect(sim.hostProtocol).toBeUndefined();
    expect(frames(wrote, 'SHUFFLED')).toHaveLength(1);
    expect(frames(wrote, 'SHUFFLED2')).toHaveLength(0);
    expect(observations[0]!.record).toMatchObject({ t: 'shuffle', decks: 1, backs: ['violet'] });
  });
});
