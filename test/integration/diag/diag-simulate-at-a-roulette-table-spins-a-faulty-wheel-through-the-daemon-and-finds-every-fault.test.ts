import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import {
  runWheelSimulation,
  WHEEL_SIMULATION_FAULTS,
  wheelSimulationOutcomes,
} from '../../../firmware-host/games/roulette/diag/simulate-wheel.ts';

describe('diag --simulate at a roulette table', () => {
  it('spins a faulty wheel through the real daemon and passes a row per fault', async () => {
    const { config } = resolveConfig({ ruleset: 'tdc-roulette' }, { env: {} });
    const run = await runWheelSimulation({ config, seed: 77 });
    expect(run.error).toBeUndefined();
    const rows = wheelSimulationOutcomes(run);
    expect(rows.map((row) => [row.name, row.status])).toEqual([
      ['simulate: session', 'pass'],
      ...WHEEL_SIMULATION_FAULTS.map(({ fault }) => [`simulate: ${fault}`, 'pass']),
      ['simulate: nothing lost', 'pass'],
      ['simulate: journal', 'pass'],
    ]);
    expect(run.voided).toEqual([6, 7]);
  }, 60_000);

  it('fails the row of a fault whose alarm did not come, and a lost result', () => {
    const rows = wheelSimulationOutcomes({
      ruleset: 'tdc-roulette',
      games: [
        { game: 1, steps: [], number: 5, rotor: 'cw', faults: [] },
        { game: 2, steps: [], number: 9, rotor: 'ccw', faults: [] },
      ],
      spins: [{ seq: 4, game: 1, number: 5 }],
      alarms: [],
      voided: [],
      duplicatesDropped: 0,
      journal: { ok: true, records: 10, findings: 0 },
      durationMs: 10,
    });
    expect(rows.find((row) => row.name === 'simulate: same-direction')).toMatchObject({
      status: 'fail',
      detail: 'game 3: expected rotor_same_direction, got none',
    });
    expect(rows.find((row) => row.name === 'simulate: noise')?.status).toBe('pass');
    expect(rows.find((row) => row.name === 'simulate: nothing lost')).toMatchObject({
      status: 'fail',
      detail: 'published 5, expected 5 9',
    });
  });
});
