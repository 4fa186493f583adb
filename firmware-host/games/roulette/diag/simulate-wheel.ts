/**
 * `tableside diag --simulate` at a roulette table: a scripted session of
 * games through the real daemon (wheel driver, roulette session, fsynced
 * journal, MQTT bridge) with the wheel simulator on an in-memory wire, an
 * embedded broker and a temporary journal. One fault per game, each checked
 * from what a consumer sees on MQTT:
 *
 *   same-direction  → alarm rotor_same_direction (003 § 11(4))
 *   ball-with-rotor → alarm ball_with_rotor (003 § 11(1))
 *   few-revolutions → alarm few_revolutions (practice)
 *   chip            → alarm no_spin, the game void (003 § 11(5))
 *   dropped-ball    → alarm result_without_spin, the game void
 *   misread         → alarm device_fault (RESULT,37 refused), the re-read result stands
 *   no-close        → alarm spin_without_close (003 § 11(2))
 *   noise           → nothing but line counters; the result arrives
 * and every result that counts is published once, in order.
 */
import { performance } from 'node:perf_hooks';
import type { WheelGame } from '../../../../simulators/wheel-plan.ts';
import type { TablesideConfig } from '../../../config/schema.ts';
import type { CheckOutcome } from '../../../diag/report.ts';
import { eventsOf, runScriptedSession, type SessionStage } from '../../../diag/scripted-session.ts';
import { sleep, until } from '../../../diag/wait.ts';

/** The fault of each game (1-based) and the alarm it must raise; games not listed are legal. */
export const WHEEL_SIMULATION_FAULTS: ReadonlyArray<{
  game: number;
  fault: string;
  alarm: string | undefined;
}> = [
  { game: 3, fault: 'same-direction', alarm: 'rotor_same_direction' },
  { game: 4, fault: 'ball-with-rotor', alarm: 'ball_with_rotor' },
  { game: 5, fault: 'few-revolutions', alarm: 'few_revolutions' },
  { game: 6, fault: 'chip', alarm: 'no_spin' },
  { game: 7, fault: 'dropped-ball', alarm: 'result_without_spin' },
  { game: 8, fault: 'misread', alarm: 'device_fault' },
  { game: 9, fault: 'no-close', alarm: 'spin_without_close' },
  { game: 10, fault: 'noise', alarm: undefined },
];
const GAMES = 12;

export interface WheelSimulationRun {
  ruleset: string;
  games: WheelGame[];
  spins: Array<{ seq: number; game: number; number: number }>;
  alarms: Array<{ seq: number; kind: string; game?: number; rule?: string; message: string }>;
  voided: number[];
  duplicatesDropped: number;
  journal: { ok: boolean; records: number; findings: number };
  durationMs: number;
  error?: string;
}

export async function runWheelSimulation(options: {
  config: TablesideConfig;
  seed?: number;
  timeoutMs?: number;
}): Promise<WheelSimulationRun> {
  const [{ getRouletteRuleset }, { SimulatedWheel, WHEEL_FIRMWARE_SHA256, WHEEL_MODEL }] =
    await Promise.all([import('../../rulesets.ts'), import('../../../../simulators/wheel.ts')]);
  const ruleset = options.config.ruleset;
  const run: WheelSimulationRun = {
    ruleset,
    games: [],
    spins: [],
    alarms: [],
    voided: [],
    duplicatesDropped: 0,
    journal: { ok: false, records: 0, findings: 0 },
    durationMs: 0,
  };
  const deadline = performance.now() + (options.timeoutMs ?? 40_000);
  const verdict = await runScriptedSession(options.config, {
    name: 'wheel',
    ruleset,
    device: (transport) => ({
      kind: 'wheel',
      transport,
      model: WHEEL_MODEL,
      firmware: [WHEEL_FIRMWARE_SHA256],
    }),
    play: async (stage) => {
      const wheel = new SimulatedWheel({
        transport: stage.wire.device,
        seed: options.seed ?? 2024,
        minRevolutions: getRouletteRuleset(ruleset).spin.minBallRevolutions.value,
        faults: WHEEL_SIMULATION_FAULTS.map(({ game, fault }) => `${fault}=${game}`),
        reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
      });
      try {
        await spinScript(stage, run, wheel, deadline);
      } finally {
        await wheel.stop();
      }
    },
  });
  return { ...run, ...verdict };
}

/** Spins the games one by one, each once the last is ACKed, then reads what was published. */
async function spinScript(
  { topics, published }: SessionStage,
  run: WheelSimulationRun,
  wheel: import('../../../../simulators/wheel.ts').SimulatedWheel,
  deadline: number,
): Promise<void> {
  wheel.start();
  for (let game = 1; game <= GAMES; game++) {
    run.games.push(await wheel.playGame());
    const settled = await until(
      () => wheel.pending.inFlight === 0 && wheel.pending.queued === 0,
      Math.max(0, deadline - performance.now()),
    );
    if (!settled) throw new Error(`game ${game} was not ACKed before the session timed out`);
  }
  const starts = () =>
    eventsOf(published, topics).events.filter((event) => event.type === 'game_start').length;
  if (!(await until(() => starts() >= GAMES, Math.max(1000, deadline - performance.now())))) {
    throw new Error(`only ${starts()} of ${GAMES} games reached the broker in time`);
  }
  await sleep(100);
  const { events, duplicatesDropped } = eventsOf(published, topics);
  run.duplicatesDropped = duplicatesDropped;
  for (const event of events) {
    if (event.type === 'spin') {
      run.spins.push({ seq: event.seq, game: Number(event.game), number: Number(event.number) });
    } else if (event.type === 'game_voided') {
      run.voided.push(Number(event.game));
    } else if (event.type === 'alarm') {
      run.alarms.push(event as unknown as WheelSimulationRun['alarms'][number]);
    }
  }
}

/** The rows of the pass/fail table for one simulated wheel session. */
export function wheelSimulationOutcomes(run: WheelSimulationRun): CheckOutcome[] {
  if (run.error) {
    return [
      {
        name: 'simulate: session',
        status: 'fail',
        detail: `the wheel session did not complete: ${run.error}`,
        advice:
          'run again with TABLESIDE_LOG_LEVEL=debug to see the daemon log; report it if it repeats',
      },
    ];
  }
  const rows: CheckOutcome[] = [
    {
      name: 'simulate: session',
      status: 'pass',
      detail: `${run.games.length} games spun through the daemon (${run.ruleset}) in ${(run.durationMs / 1000).toFixed(1)} s`,
      data: { ruleset: run.ruleset, games: run.games.length, durationMs: run.durationMs },
    },
  ];
  for (const { game, fault, alarm } of WHEEL_SIMULATION_FAULTS) {
    const raised = run.alarms.filter((found) =>
      found.kind === 'device_fault' ? alarm === 'device_fault' : found.game === game,
    );
    const kinds = raised.map((found) => found.kind);
    const ok = alarm === undefined ? kinds.length === 0 : kinds.length === 1 && kinds[0] === alarm;
    rows.push({
      name: `simulate: ${fault}`,
      status: ok ? 'pass' : 'fail',
      detail: ok
        ? alarm === undefined
          ? `game ${game}: no alarm, the result arrived`
          : `game ${game}: alarm ${alarm} (seq ${raised[0]!.seq})${raised[0]!.rule ? ` [${raised[0]!.rule}]` : ''}`
        : `game ${game}: expected ${alarm ?? 'no alarm'}, got ${kinds.join(', ') || 'none'}`,
      ...(ok ? {} : { advice: 'the table session missed a wheel fault: report it' }),
    });
  }
  const counted = run.games.filter(
    (game) => !game.faults.some((f) => f === 'chip' || f === 'dropped-ball'),
  );
  const published = run.spins.map((spin) => spin.number);
  const expected = counted.map((game) => game.number);
  const same = published.length === expected.length && published.every((n, i) => n === expected[i]);
  rows.push({
    name: 'simulate: nothing lost',
    status: same ? 'pass' : 'fail',
    detail: same
      ? `all ${expected.length} results published exactly once, in order; games ${run.voided.join(' and ')} voided and replaced (${run.duplicatesDropped} redelivered event(s) dropped by seq)`
      : `published ${published.join(' ')}, expected ${expected.join(' ')}`,
    ...(same ? {} : { advice: 'a result was lost or doubled: report it with the journal' }),
  });
  rows.push({
    name: 'simulate: journal',
    status: run.journal.ok ? 'pass' : 'fail',
    detail: `${run.journal.records} records, ${run.journal.findings} verify finding(s)`,
  });
  return rows;
}
