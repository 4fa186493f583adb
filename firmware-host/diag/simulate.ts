/**
 * `tableside diag --simulate`: a scripted session end to end through the
 * real daemon (TableDaemon: drivers, table session, fsynced journal, MQTT
 * bridge), with simulators in place of the devices (over in-memory wires),
 * an embedded broker on a free port and a temporary journal, and injected
 * faults. Then it checks, from what a consumer sees on MQTT, that each
 * fault produced the right event and that no card was lost or doubled.
 *
 * The faults, at fixed card positions of one seeded shoe:
 *   face-up card      → alarm face_up_card
 *   wrong-colour card → alarm wrong_back_colour (a green back in a red shoe)
 *   foreign card      → alarm foreign_card, or, for a shoe that cannot read
 *                       chips, wrong_back_colour naming its foreign (grey) back
 *   corrupted frames  → the host NAKs them (CRC errors counted) and the shoe
 *                       retransmits: each card still published once
 *   unplugged line    → devices/<shoe>/availability goes offline then online,
 *                       the driver reconnects, the queued cards arrive
 */
import { performance } from 'node:perf_hooks';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { TablesideConfig } from '../config/schema.ts';
import type { CheckOutcome } from './report.ts';
import { eventsOf, runScriptedSession, type SessionStage } from './scripted-session.ts';
import { sleep, until } from './wait.ts';

export const SIMULATION_FAULTS = {
  faceUp: 12,
  wrongColour: 25,
  foreign: 40,
  /** Corrupt every 2nd event frame for this many cards from this position on. */
  corruptFrom: 50,
  corruptCards: 6,
  /** Pull the line before this card, for `unplugMs`, dealing `unplugCards` into the shoe's buffer meanwhile. */
  unplugAt: 65,
  unplugCards: 5,
  unplugMs: 400,
} as const;

export interface SimulationOptions {
  /** The loaded config: its table id, base topic and ruleset (if a shoe game) are used. */
  config: TablesideConfig;
  /** Cards dealt in the session. Default 90. */
  cards?: number;
  seed?: number;
  /** Whole-session timeout. Default 40 s. */
  timeoutMs?: number;
  onProgress?(done: number, total: number, phase: string): void;
}

export interface SimulationRun {
  ruleset: string;
  rulesetNote: string | undefined;
  dealt: { card: string; back: string; face: string }[];
  /** `card` is absent where the bridge withholds it (burn cards are never shown). */
  cardEvents: { seq: number; index?: number; card?: string }[];
  duplicatesDropped: number;
  alarms: { seq: number; kind: string; card?: string; back?: string; [key: string]: unknown }[];
  availability: string[];
  bridgeStates: string[];
  driver: import('../drivers/driver.ts').DriverStatus | undefined;
  simulator: { sent: number; retransmitted: number };
  journal: { ok: boolean; records: number; findings: number };
  durationMs: number;
  error?: string;
}

/** The ruleset the scripted session deals (a baccarat shoe). */
const SCRIPTED_RULESET = 'tdc-baccarat-no-commission';

/** Plays the scripted session and gathers what happened. Never throws: a failure is `error`. */
export async function runSimulation(options: SimulationOptions): Promise<SimulationRun> {
  const [{ rulesetIdentity }, { SimulatedDevice, simulatorFirmwareSha256, simulatorModel }] =
    await Promise.all([import('../games/registry.ts'), import('../../simulators/device.ts')]);
  let ruleset = options.config.ruleset;
  let rulesetNote: string | undefined;
  // The script deals baccarat: another game's ruleset (roulette's included) is played as its ruleset.
  if (rulesetIdentity(ruleset).game !== rulesetIdentity(SCRIPTED_RULESET).game) {
    rulesetNote = `the scripted session deals a baccarat shoe; ${ruleset} is not a shoe game, so ${SCRIPTED_RULESET} is used`;
    ruleset = SCRIPTED_RULESET;
  }
  const run: SimulationRun = {
    ruleset,
    rulesetNote,
    dealt: [],
    cardEvents: [],
    duplicatesDropped: 0,
    alarms: [],
    availability: [],
    bridgeStates: [],
    driver: undefined,
    simulator: { sent: 0, retransmitted: 0 },
    journal: { ok: false, records: 0, findings: 0 },
    durationMs: 0,
  };
  const total = options.cards ?? 90;
  const progress = options.onProgress ?? (() => undefined);
  progress(0, total, 'starting broker and daemon');
  const verdict = await runScriptedSession(options.config, {
    name: 'shoe',
    ruleset,
    device: (transport) => ({
      kind: 'shoe',
      transport,
      model: simulatorModel('shoe'),
      firmware: [simulatorFirmwareSha256('shoe')],
    }),
    session: { autoRound: true },
    play: (stage) =>
      dealScript(stage, run, {
        total,
        progress,
        timeoutMs: options.timeoutMs ?? 40_000,
        newSimulator: (transport) =>
          new SimulatedDevice({
            kind: 'shoe',
            ruleset,
            seed: options.seed ?? 2024,
            transport,
            scenario: { on: [], off: [], steps: script(total) },
            faults: [
              `face-up=${SIMULATION_FAULTS.faceUp}`,
              `wrong-colour=${SIMULATION_FAULTS.wrongColour}`,
              `foreign=${SIMULATION_FAULTS.foreign}`,
            ],
            reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
          }),
      }),
  });
  return { ...run, ...verdict };
}

/** The shoe's script: the frames corrupted from `corruptFrom` for `corruptCards` cards. */
function script(total: number) {
  const faults = SIMULATION_FAULTS;
  return [
    { op: 'shuffle' as const },
    { op: 'deal' as const, count: faults.corruptFrom - 1 },
    { op: 'behaviour' as const, name: 'corrupt-bytes', on: true, arg: '2' },
    { op: 'deal' as const, count: faults.corruptCards },
    { op: 'behaviour' as const, name: 'corrupt-bytes', on: false },
    { op: 'deal' as const, count: total - faults.corruptFrom + 1 - faults.corruptCards },
  ];
}

type Shoe = import('../../simulators/device.ts').SimulatedDevice;

/** Deals the shoe card by card at the table's pace, pulls its line once, then reads what was published. */
async function dealScript(
  stage: SessionStage,
  run: SimulationRun,
  how: {
    total: number;
    progress: (done: number, total: number, phase: string) => void;
    timeoutMs: number;
    newSimulator: (transport: Transport) => Shoe;
  },
): Promise<void> {
  const { daemon, topics, published, wire } = stage;
  const { total, progress } = how;
  const faults = SIMULATION_FAULTS;
  const sim = how.newSimulator(wire.device);
  try {
    sim.on('played', (step) => {
      if (step.kind === 'card')
        run.dealt.push({ card: step.card, back: step.back, face: step.face });
    });
    await daemon.newShoe('diag --simulate');
    sim.start();
    await sim.whenReady();
    const deadline = performance.now() + how.timeoutMs;
    const idle = () => sim.pending.inFlight === 0 && sim.pending.queued === 0;
    for (let card = 1; ; card++) {
      if (card === faults.unplugAt) {
        progress(card - 1, total, 'unplugging the shoe');
        wire.sever('diag: line unplugged');
        for (let queued = 0; queued < faults.unplugCards; queued++, card++) {
          if (!(await sim.step())) break;
        }
        await sleep(faults.unplugMs);
        wire.restore();
      }
      if (!(await sim.step())) break;
      progress(Math.min(card, total), total, 'dealing');
      // A dealer's pace, as fast as the table takes cards: the next card once this one is ACKed.
      if (!(await until(idle, Math.max(0, deadline - performance.now()), 1))) {
        throw new Error(`the shoe's card ${card} was not ACKed before the session timed out`);
      }
    }
    await Promise.race([sim.whenDone(), sleep(Math.max(0, deadline - performance.now()))]);
    progress(total, total, 'waiting for the broker');
    const cardTopic = topics.events('card');
    await until(
      () =>
        new Set(published.filter((m) => m.topic === cardTopic).map((m) => m.payload)).size >=
        run.dealt.length,
      Math.max(1000, deadline - performance.now()),
    );
    await sleep(200);
    readPublished(stage, run);
    run.driver = daemon.driver('shoe')?.status();
    run.simulator = { sent: sim.stats.sent, retransmitted: sim.stats.retransmitted };
  } finally {
    await sim.stop();
  }
}

/** The card events and alarms (deduped by seq, as a consumer does), availability and bridge states. */
function readPublished({ topics, published }: SessionStage, run: SimulationRun): void {
  const { events, duplicatesDropped } = eventsOf(published, topics);
  run.duplicatesDropped = duplicatesDropped;
  for (const event of events) {
    if (event.type === 'card') {
      run.cardEvents.push({
        seq: event.seq,
        ...(typeof event.card === 'string' ? { card: event.card } : {}),
        ...(typeof event.index === 'number' ? { index: event.index } : {}),
      });
    } else if (event.type === 'alarm') {
      run.alarms.push(event as unknown as SimulationRun['alarms'][number]);
    }
  }
  const availabilityTopic = topics.deviceAvailability('shoe');
  run.availability = published.filter((m) => m.topic === availabilityTopic).map((m) => m.payload);
  run.bridgeStates = published.filter((m) => m.topic === topics.bridgeState).map((m) => m.payload);
}

/** The rows of the pass/fail table for one simulated session. */
export function simulationOutcomes(run: SimulationRun): CheckOutcome[] {
  const rows: CheckOutcome[] = [];
  if (run.error) {
    rows.push({
      name: 'simulate: session',
      status: 'fail',
      detail: `the session did not complete: ${run.error}`,
      advice:
        'run again with TABLESIDE_LOG_LEVEL=debug to see the daemon log; report it if it repeats',
    });
  } else {
    rows.push({
      name: 'simulate: session',
      status: 'pass',
      detail: `${run.dealt.length} cards dealt through the daemon (${run.ruleset}) in ${(run.durationMs / 1000).toFixed(1)} s${run.rulesetNote ? `; ${run.rulesetNote}` : ''}`,
      data: { ruleset: run.ruleset, cards: run.dealt.length, durationMs: run.durationMs },
    });
  }
  return [...rows, ...faultRows(run), ...linkRows(run), losslessRow(run), journalRow(run)];
}

/** A row per injected card fault: the alarm it must raise. */
function faultRows(run: SimulationRun): CheckOutcome[] {
  const rows: CheckOutcome[] = [];
  const faults = SIMULATION_FAULTS;
  const alarmAt = (position: number, match: (alarm: SimulationRun['alarms'][number]) => boolean) =>
    run.alarms.find((alarm) => alarm.index === position - 1 && match(alarm)) ??
    run.alarms.find(match);
  const faultRow = (
    name: string,
    found: SimulationRun['alarms'][number] | undefined,
    expected: string,
    advice: string,
  ): CheckOutcome =>
    found
      ? {
          name,
          status: 'pass',
          detail: `alarm ${found.kind} (seq ${found.seq}): ${String(found.message ?? '')}`,
        }
      : { name, status: 'fail', detail: `no ${expected} alarm was published`, advice };

  // Positions shift by one after the foreign card, which the plan inserts before card K.
  rows.push(
    faultRow(
      'simulate: face-up card',
      alarmAt(faults.faceUp, (alarm) => alarm.kind === 'face_up_card'),
      'face_up_card',
      'the table session did not flag a face-up card: a validator regression; do not run this build on a table',
    ),
  );
  rows.push(
    faultRow(
      'simulate: wrong-colour card',
      alarmAt(
        faults.wrongColour,
        (alarm) => alarm.kind === 'wrong_back_colour' && alarm.back !== 'grey',
      ),
      'wrong_back_colour',
      'the table session did not flag a wrong back colour: a validator regression; do not run this build on a table',
    ),
  );
  rows.push(
    faultRow(
      'simulate: foreign card',
      alarmAt(
        faults.foreign,
        (alarm) =>
          alarm.kind === 'foreign_card' ||
          (alarm.kind === 'wrong_back_colour' && alarm.back === 'grey'),
      ),
      'foreign_card (or wrong_back_colour for its grey back)',
      'the table session did not flag a foreign card: a validator regression; do not run this build on a table',
    ),
  );

  return rows;
}

/** The corrupted frames NAKed and retransmitted; the unplugged line reported and reconnected. */
function linkRows(run: SimulationRun): CheckOutcome[] {
  const rows: CheckOutcome[] = [];
  const counters = run.driver?.counters;
  const corrupted = (counters?.crcErrors ?? 0) > 0 && (counters?.naksSent ?? 0) > 0;
  rows.push({
    name: 'simulate: corrupted frames',
    status: corrupted && run.simulator.retransmitted > 0 ? 'pass' : 'fail',
    detail: counters
      ? `${counters.crcErrors} CRC errors, ${counters.naksSent} NAKs sent, ${run.simulator.retransmitted} frames retransmitted by the shoe`
      : 'no driver status (the session did not run)',
    ...(corrupted
      ? {}
      : {
          advice:
            'corrupted frames were not NAKed and retransmitted: a protocol-layer regression; do not run this build on a table',
        }),
    ...(counters ? { data: { counters } } : {}),
  });

  const wentOffline = run.availability.indexOf('offline');
  const backOnline =
    wentOffline >= 0 && run.availability.indexOf('online', wentOffline) > wentOffline;
  const reconnects = counters?.reconnects ?? 0;
  rows.push({
    name: 'simulate: unplugged line',
    status: backOnline && reconnects > 0 ? 'pass' : 'fail',
    detail: `availability ${run.availability.join(' → ') || '(none published)'}; ${reconnects} reconnect(s)`,
    ...(backOnline && reconnects > 0
      ? {}
      : {
          advice:
            'the driver did not report the pulled line or did not reconnect: a transport-layer regression',
        }),
  });

  return rows;
}

/** Nothing lost: every dealt card published exactly once (after dedupe by seq), in shoe order. */
function losslessRow(run: SimulationRun): CheckOutcome {
  const byIndex = new Map<number, number>();
  for (const event of run.cardEvents) {
    if (event.index !== undefined) byIndex.set(event.index, (byIndex.get(event.index) ?? 0) + 1);
  }
  const missing: number[] = [];
  const doubled: number[] = [];
  const wrong: number[] = [];
  const ordered = [...run.cardEvents].sort((a, b) => (a.index ?? a.seq) - (b.index ?? b.seq));
  for (let index = 0; index < run.dealt.length; index++) {
    const count = byIndex.get(index) ?? 0;
    if (count === 0) missing.push(index + 1);
    if (count > 1) doubled.push(index + 1);
    const shown = ordered[index]?.card;
    if (count === 1 && shown !== undefined && shown !== run.dealt[index]!.card)
      wrong.push(index + 1);
  }
  const extra = run.cardEvents.length - run.dealt.length;
  const lossless =
    !run.error && missing.length === 0 && doubled.length === 0 && wrong.length === 0 && extra === 0;
  return {
    name: 'simulate: nothing lost',
    status: lossless ? 'pass' : 'fail',
    detail: lossless
      ? `all ${run.dealt.length} dealt cards published exactly once, in shoe order (${run.duplicatesDropped} redelivered event(s) dropped by seq; burn cards are published without their face)`
      : [
          `${run.cardEvents.length} card events for ${run.dealt.length} dealt cards`,
          missing.length ? `missing positions ${missing.slice(0, 10).join(', ')}` : '',
          doubled.length ? `doubled positions ${doubled.slice(0, 10).join(', ')}` : '',
          wrong.length ? `wrong card at positions ${wrong.slice(0, 10).join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; '),
    ...(lossless
      ? {}
      : {
          advice:
            'cards were lost or doubled between the shoe and MQTT: do not run this build on a table; report it with this output',
        }),
    data: {
      dealt: run.dealt.length,
      published: run.cardEvents.length,
      duplicatesDropped: run.duplicatesDropped,
    },
  };
}

/** The journal written during the session verifies. */
function journalRow(run: SimulationRun): CheckOutcome {
  return {
    name: 'simulate: journal',
    status: run.journal.ok && run.journal.records > 0 ? 'pass' : 'fail',
    detail: `${run.journal.records} records, ${run.journal.findings} verify finding(s)`,
    ...(run.journal.ok
      ? {}
      : { advice: 'the journal written during the session does not verify: a journal regression' }),
  };
}
