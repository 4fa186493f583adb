/**
 * Issue 34, item 4: a shuffler that reports a plain SHUFFLED (no colours) at
 * a table whose two decks alternate (Triple Shot, 000 § 2.c.2) had its deck
 * recorded in a colour the driver counted since its process started, so the
 * deck after a restart came out red after a red one. The expected colour now
 * comes from the table's session, which a restart rebuilds from the journal
 * (its records, or its checkpoint), and a new driver asks for it.
 */
import { describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { cardGames } from '../../../firmware-host/games/cards/plugin.ts';
import type { GameSession } from '../../../firmware-host/games/game.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { until } from '../../helpers/until.ts';

const RULESET = 'peru-triple-shot';
const options = { autoRound: false };

/** A Triple Shot table's journal so far: one red deck brought in. */
const journal: TableLogRecord[] = [
  { t: 'shuffle', src: 'shuffler', ts: 1, decks: 1, backs: ['red'] },
];

function replayed(records: readonly TableLogRecord[]): GameSession {
  const session = cardGames.openSession(RULESET, options);
  for (const record of records) session.apply(record);
  return session;
}

describe('a shuffle whose colours the shuffler does not name gets the colour the table’s journal expects', () => {
  it('is the first colour at a new table, and the other one than the last deck journaled', () => {
    expect(cardGames.shufflerBacks(replayed([]))).toEqual(['red']);
    expect(cardGames.shufflerBacks(replayed(journal))).toEqual(['blue']);
    const blueToo: TableLogRecord = {
      t: 'shuffle',
      src: 'shuffler',
      ts: 2,
      decks: 1,
      backs: ['blue'],
    };
    expect(cardGames.shufflerBacks(replayed([...journal, blueToo]))).toEqual(['red']);
  });

  it('survives a restart from the checkpoint as from the records', () => {
    const before = replayed(journal);
    // As the journal holds it: written as JSON, read back.
    const written = JSON.parse(JSON.stringify(before.checkpoint())) as unknown;
    const restored = cardGames.restoreSession(RULESET, written, options);
    expect(cardGames.shufflerBacks(restored)).toEqual(['blue']);
  });

  it('is the single colour of a game with one', () => {
    expect(
      cardGames.shufflerBacks(cardGames.openSession('tdc-baccarat-no-commission', options)),
    ).toEqual(['red']);
  });

  it('is what a new driver records for a plain SHUFFLED, whatever it counted before', async () => {
    // A driver just started (a restart): it has seen no shuffle; the table's journal has a red deck.
    const session = replayed(journal);
    const wire = createMemoryPair('expected-backs');
    const driver = new DeviceDriver({
      name: 'shuffler',
      kind: 'shuffler',
      transport: wire.host,
      // No host HELLO: the shuffler sends protocol 1.0's SHUFFLED, without colours.
      sendHello: false,
      backs: ['red', 'blue'],
      expectedBacks: () => cardGames.shufflerBacks(session),
    });
    const sim = new SimulatedDevice({
      kind: 'shuffler',
      transport: wire.device,
      ruleset: RULESET,
      seed: 3,
      rounds: 2,
    });
    const records: Observation['record'][] = [];
    driver.on('record', (observation) => {
      records.push(observation.record);
      session.apply(observation.record as TableLogRecord);
      observation.ack();
    });
    driver.start();
    sim.start();
    try {
      await sim.whenReady();
      await sim.step();
      await until(() => records.length === 1, 'the first shuffle record');
      await sim.step();
      await until(() => records.length === 2, 'the second shuffle record');
      expect(records.map((record) => record.t === 'shuffle' && record.backs)).toEqual([
        ['blue'],
        ['red'],
      ]);
    } finally {
      await sim.stop();
      await driver.stop();
    }
  });
});
