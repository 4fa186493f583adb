/**
 * The simulated dealer of a bench (`transport: simulate`): it plays the
 * devices' simulators at a dealer's pace and does what a dealer does between
 * cards: loads a new shoe when one ends, starts rounds, makes the decisions a
 * card cannot express (stand, check, no insurance). It asks the table what it
 * expects next (`daemon.expecting()`), so it has no game logic of its own,
 * and it feeds the table only through the same doors a real table uses: the
 * simulators' wires and `daemon.ingest()`.
 */
import type { Transport } from '../../hardware/transports/transport.ts';
import type { SimulatedDevice } from '../../simulators/device.ts';
import { createRandom, type Random } from '../../simulators/random.ts';
import type { TablesideConfig } from '../config/schema.ts';
import { getRuleset } from '../engine/rulesets/index.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { Logger } from '../log.ts';
import type { TableDaemon } from './table-daemon.ts';

type Kind = 'shoe' | 'shuffler' | 'reader';

export interface SimulatedDealerOptions {
  daemon: TableDaemon;
  devices: ReadonlyArray<{ name: string; kind: Kind; device: Transport }>;
  simulation: TablesideConfig['simulation'];
  ruleset: string;
  log: Logger;
}

/** Decisions a simulated dealer makes when a card cannot stand for one, in order of preference. */
const QUIET_ACTIONS = ['stand', 'no_insurance', 'check', 'next', 'bet', 'fold'] as const;
/** How often a decision a card can express is taken as that card (a hit). */
const DRAW_PROBABILITY = 0.35;
/** Boxes seated in every simulated round (1..3). */
const SEATED_BOXES = 3;
/** How long to wait for a dealt card to be journaled before looking again. */
const CARD_TIMEOUT_MS = 5_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SimulatedDealer {
  private readonly daemon: TableDaemon;
  private readonly log: Logger;
  private readonly simulation: TablesideConfig['simulation'];
  private readonly wires: SimulatedDealerOptions['devices'];
  private readonly random: Random;
  private readonly seed: number;
  private shoes = 0;
  private shoe: { name: string; sim: SimulatedDevice } | undefined;
  private shuffler: { name: string; sim: SimulatedDevice } | undefined;
  private readonly others: SimulatedDevice[] = [];
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(options: SimulatedDealerOptions) {
    this.daemon = options.daemon;
    this.log = options.log;
    this.simulation = options.simulation;
    this.wires = options.devices;
    this.seed = options.simulation.seed ?? Math.floor(Math.random() * 2 ** 31);
    this.random = createRandom(this.seed).fork('dealer');
    this.log.info({ seed: this.seed }, 'simulated dealer seed (set simulation.seed to repeat it)');
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().catch((error) => {
      this.log.error({ err: error }, 'simulated dealer stopped');
    });
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.stopSimulators();
  }

  private async stopSimulators(): Promise<void> {
    const sims = [this.shoe?.sim, this.shuffler?.sim, ...this.others.splice(0)].filter(
      (sim): sim is SimulatedDevice => sim !== undefined,
    );
    this.shoe = undefined;
    this.shuffler = undefined;
    await Promise.all(sims.map((sim) => sim.stop()));
  }

  /** New simulators for a new shoe: the shoe and the shuffler share the seed, so they agree on the order. */
  private async loadShoe(): Promise<void> {
    await this.stopSimulators();
    this.shoes++;
    const { SimulatedDevice } = await import('../../simulators/device.ts');
    const seed = (this.seed + this.shoes * 7919) >>> 0;
    const ruleset = this.daemon.ruleset;
    // The simulators plan their rounds (cards per round) with the boxes this dealer seats.
    const boxes = this.boxes();
    for (const wire of this.wires) {
      const sim = new SimulatedDevice({
        kind: wire.kind,
        transport: wire.device,
        ruleset,
        seed,
        ...(boxes.length > 0 ? { boxes } : {}),
      });
      sim.start();
      if (wire.kind === 'shoe') this.shoe = { name: wire.name, sim };
      else if (wire.kind === 'shuffler') this.shuffler = { name: wire.name, sim };
      else this.others.push(sim);
    }
    await Promise.all(
      [this.shoe?.sim, this.shuffler?.sim].map((sim) => sim?.whenReady() ?? Promise.resolve()),
    );
    if (this.shuffler) {
      // The shuffler reports the shoe (with its order, if it reads cards).
      await this.playAndWait(this.shuffler);
    } else {
      await this.daemon.newShoe('simulated dealer loaded a new shoe', 'simulator');
    }
  }

  private async run(): Promise<void> {
    while (this.running) {
      const expecting = this.daemon.expecting();
      switch (expecting.kind) {
        case 'shuffle':
          if (this.shoes > 0) await sleep(this.simulation.roundIntervalMs);
          if (!this.running) return;
          await this.loadShoe();
          break;
        case 'round':
          await sleep(this.simulation.roundIntervalMs);
          if (!this.running) return;
          await this.startRound();
          break;
        case 'card':
        case 'burn':
          await this.dealCard();
          break;
        case 'decision':
          await sleep(this.simulation.cardIntervalMs);
          if (!this.running) return;
          if (expecting.onCard && this.random.chance(DRAW_PROBABILITY)) {
            await this.dealCard(false);
          } else {
            const action = QUIET_ACTIONS.find((quiet) => expecting.options.includes(quiet));
            const chosen = action ?? expecting.options[0] ?? 'next';
            const box = expecting.seat.startsWith('box:')
              ? Number(expecting.seat.slice(4))
              : undefined;
            await this.daemon
              .ingest({
                t: 'action',
                src: 'simulator',
                action: chosen,
                ...(box === undefined ? {} : { box }),
              })
              .catch((error) => this.log.warn({ err: error }, 'simulated decision refused'));
          }
          break;
      }
    }
  }

  /** The boxes this dealer seats every round: 1-3 (fewer where the table has fewer); none in baccarat. */
  boxes(): number[] {
    const ruleset = getRuleset(this.daemon.ruleset);
    const maxBoxes =
      'maxBoxes' in ruleset && typeof ruleset.maxBoxes === 'number'
        ? ruleset.maxBoxes
        : 'maxPositions' in ruleset && typeof ruleset.maxPositions === 'number'
          ? ruleset.maxPositions
          : 0;
    return Array.from({ length: Math.min(SEATED_BOXES, maxBoxes) }, (_, i) => i + 1);
  }

  private async startRound(): Promise<void> {
    const boxes = this.boxes();
    await this.daemon.ingest({
      t: 'round',
      src: 'simulator',
      ...(boxes.length > 0 ? { boxes } : {}),
    });
  }

  private async dealCard(pace = true): Promise<void> {
    if (pace) await sleep(this.simulation.cardIntervalMs);
    if (!this.running) return;
    if (!this.shoe) {
      await this.loadShoe();
      return;
    }
    const dealt = await this.playAndWait(this.shoe);
    if (!dealt && this.running) {
      // The simulated shoe ran out before the table ended it: a dealer would void and reload.
      this.log.warn('simulated shoe exhausted before the shoe ended: voiding and reloading');
      await this.daemon.ingest({ t: 'void', src: 'simulator', reason: 'simulated shoe exhausted' });
      await this.daemon.newShoe('simulated shoe exhausted', 'simulator');
      await this.loadShoe();
    }
  }

  /** Plays the simulator's next paced step and waits until its record is journaled. */
  private async playAndWait(device: { name: string; sim: SimulatedDevice }): Promise<boolean> {
    let resolveJournaled: () => void = () => undefined;
    const journaled = new Promise<void>((resolve) => {
      resolveJournaled = resolve;
    });
    const listener = (records: readonly JournalRecord[]) => {
      if (records.some((record) => record.kind === 'input' && record.data.src === device.name)) {
        resolveJournaled();
      }
    };
    this.daemon.on('journaled', listener);
    try {
      const played = await device.sim.step();
      if (!played) return false;
      await Promise.race([journaled, sleep(CARD_TIMEOUT_MS)]);
      return true;
    } finally {
      this.daemon.off('journaled', listener);
    }
  }
}
