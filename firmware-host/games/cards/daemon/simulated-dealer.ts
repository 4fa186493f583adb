/**
 * The simulated dealer of a bench (`transport: simulate`): it plays the
 * devices' simulators at a dealer's pace and does what a dealer does between
 * cards: loads a new shoe when one ends, starts rounds, makes the decisions a
 * card cannot express (stand, check, no insurance). It asks the table what it
 * expects next (`daemon.expecting()`), so it has no game logic of its own,
 * and it feeds the table only through the same doors a real table uses: the
 * simulators' wires and `daemon.ingest()`.
 *
 * The simulators live as long as their plan lasts, so the decks they deal
 * stay in step with the table's: in a game that takes a fresh deck every
 * round (Triple Shot 000 § 7, the poker games) the next deck is the next one
 * the simulators planned, its colour the one the table brings in next
 * (000 § 2.c.2). Such a deck holds exactly the cards one planned legal round
 * takes, so the dealer seats that round's boxes and makes its decisions
 * (pressed, or taken as a card) in the same order; in the shoe games it
 * decides by its own preference.
 */

import type { DevicePublicKey } from '../../../../device-protocol/auth/keys.ts';
import type { BackColour, PhysicalCard } from '../../../../device-protocol/cards.ts';
import { PROTOCOL_VERSION } from '../../../../device-protocol/messages.ts';
import type { DeviceKey } from '../../../../hardware/keys/device-key.ts';
import type { Transport } from '../../../../hardware/transports/transport.ts';
import type { SimulatedDevice } from '../../../../simulators/device.ts';
import { createRandom, type Random } from '../../../../simulators/random.ts';
import type { TablesideConfig } from '../../../config/schema.ts';
import type { DaemonBus } from '../../../daemon/bus.ts';
import type { TableHost } from '../../../daemon/extensions/extension.ts';
import { profileFor } from '../../../drivers/profiles/registry.ts';
import type { JournalRecord } from '../../../journal/record.ts';
import type { Logger } from '../../../log.ts';
import { getRuleset } from '../../rulesets.ts';
import type { PlannedMove } from '../simulated/legal-round.ts';
import type { SimShoe } from '../simulated/legal-shoe.ts';
import type { Expectation } from '../table/index.ts';

/** What the dealer reads of the table and asks of it: never the daemon class. */
export type DealerTable = Pick<
  TableHost,
  'ruleset' | 'snapshot' | 'expecting' | 'journalFeed' | 'shoeStartSeq' | 'newShoe' | 'ingest'
>;

export interface SimulatedDealerOptions {
  daemon: DealerTable;
  /** Where the dealer waits for its cards to be journaled. */
  bus: Pick<DaemonBus, 'on' | 'off'>;
  devices: ReadonlyArray<{
    name: string;
    /** Its device kind: its profile says how the simulator plays it and what the dealer does with it. */
    kind: string;
    device: Transport;
    key?: DeviceKey;
    hostKey?: DevicePublicKey | undefined;
  }>;
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
  private readonly daemon: DealerTable;
  private readonly bus: Pick<DaemonBus, 'on' | 'off'>;
  private readonly log: Logger;
  private readonly simulation: TablesideConfig['simulation'];
  private readonly wires: SimulatedDealerOptions['devices'];
  private readonly random: Random;
  private readonly seed: number;
  /** Simulator sets created so far (each plays its own seeded plan). */
  private shoes = 0;
  /** Shuffles taken from the current simulators' plan: the planned round in play is the last. */
  private decks = 0;
  /** The planned decisions of the round in play still to make; undefined: decide freely. */
  private moves: PlannedMove[] | undefined;
  /** The ruleset the current simulators planned their session for. */
  private plannedFor: string | undefined;
  private shoe: { name: string; sim: SimulatedDevice } | undefined;
  private shuffler: { name: string; sim: SimulatedDevice } | undefined;
  private readonly others: SimulatedDevice[] = [];
  private running = false;
  private loop: Promise<void> | undefined;

  constructor(options: SimulatedDealerOptions) {
    this.daemon = options.daemon;
    this.bus = options.bus;
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

  /**
   * A new shoe (or deck): the simulators' next planned one when they have one
   * ready in the colour the table brings in next, else new simulators (new
   * seed) starting with that colour. The shuffler reports it; without one
   * the dealer tells the table, as a dealer loading a shoe does.
   */
  private async loadShoe(): Promise<void> {
    const colour = this.nextColour();
    if (!this.nextDeckReady(colour)) await this.createSimulators(colour);
    this.decks++;
    this.moves = undefined;
    if (this.shuffler) {
      // The shuffler reports the shoe (with its order, if it reads cards).
      await this.playAndWait(this.shuffler);
    } else {
      await this.daemon.newShoe('simulated dealer loaded a new shoe', 'simulator');
    }
  }

  /** The colour of the deck the table brings in next, in the alternating games (000 § 2.c.2). */
  private nextColour(): BackColour | undefined {
    const backs = getRuleset(this.daemon.ruleset).backs;
    if (backs.kind !== 'alternating') return undefined;
    const shoe = this.daemon.snapshot().shoe as { backs?: readonly string[] } | null;
    const last = shoe?.backs?.[0];
    return backs.colours.find((colour) => colour !== last) ?? backs.colours[0];
  }

  /**
   * Whether the shoe simulator's next step is a new deck (of `colour`) after
   * the ones the table took: the deck in play is dealt out.
   */
  private nextDeckReady(colour: BackColour | undefined): boolean {
    // A ruleset changed between shoes (set_ruleset) needs simulators planned for it.
    if (this.plannedFor !== this.daemon.ruleset || !this.deckDealtOut()) return false;
    const upcoming = this.shoe?.sim.upcoming();
    return colour === undefined || (upcoming?.kind === 'shuffle' && upcoming.backs[0] === colour);
  }

  /**
   * The shoe simulator has dealt every card its plan gave the deck in play:
   * its next step is the shuffle of a deck the table has not taken. (Without
   * a shuffler the shoe passes the deck's own shuffle step only with its
   * first card, after the table was told of the deck.)
   */
  private deckDealtOut(): boolean {
    const sim = this.shoe?.sim;
    if (sim?.upcoming()?.kind !== 'shuffle') return false;
    const passed = sim.steps
      .slice(0, sim.nextStepIndex)
      .filter((step) => step.kind === 'shuffle').length;
    return passed >= this.decks;
  }

  /**
   * After a restart the table may hold a shoe in play, mid-hand or between
   * hands: the dealer carries on dealing that shoe, as a dealer back from a
   * break does, instead of loading a new one (which would void the hand).
   * The shoe is put back together from the journal: the cards dealt since
   * its shuffle, then the rest of its set in the order the shuffler reported
   * (a card-reading shuffler), else in a seeded order (the cards left in a
   * shoe are unseen: any order of them is the shoe a dealer holds). The cut
   * card stays where the ruleset puts it, unless it is already out.
   */
  private async resumeShoe(): Promise<boolean> {
    const shoe = this.daemon.snapshot().shoe as {
      dealt: number;
      backs: BackColour[];
      decks: number;
      ended: string | null;
      cutOut: boolean;
    } | null;
    const journal = this.daemon.journalFeed;
    if (!shoe || shoe.ended !== null || !journal) return false;
    const { dealt, order } = await this.shoeSoFar(journal);
    if (dealt.length !== shoe.dealt) {
      this.log.warn(
        { journaled: dealt.length, dealt: shoe.dealt },
        'the journal does not give the cards the shoe in play dealt: loading a new shoe',
      );
      return false;
    }
    const { ShoeDealer, recipeFor } = await import('../simulated/legal-shoe.ts');
    const recipe = { ...recipeFor(this.daemon.ruleset), decks: shoe.decks };
    // The whole set, fairly shuffled: the cards not yet dealt keep this order, the cut card its place.
    const full = new ShoeDealer(recipe, this.random.fork(`resume/${shoe.dealt}`)).next(
      'fair',
      shoe.backs,
    );
    const left = [...full.cards];
    const take = (card: string, back?: string): PhysicalCard | undefined => {
      const at = left.findIndex((c) => c.card === card && (back === undefined || c.back === back));
      return at < 0 ? undefined : left.splice(at, 1)[0];
    };
    const dealtCards = dealt.map(
      ({ card, back }) => take(card, back) ?? ({ card, back, face: 'down' } as PhysicalCard),
    );
    const rest: PhysicalCard[] = [];
    for (const card of order?.slice(dealt.length) ?? []) {
      const physical = take(card);
      if (physical) rest.push(physical);
    }
    const resumed: SimShoe = {
      decks: shoe.decks,
      backs: shoe.backs,
      cards: [...dealtCards, ...rest, ...left],
      ...(full.cutAfter === undefined || shoe.cutOut
        ? {}
        : { cutAfter: Math.max(full.cutAfter, dealt.length) }),
    };
    // The shuffle step and the cards dealt are the table's already: skipped, never sent.
    await this.createSimulators(undefined, { shoe: resumed, at: 1 + dealt.length });
    this.decks = 1;
    this.log.info({ dealt: dealt.length }, 'simulated dealer resumed the shoe in play');
    return true;
  }

  /** The cards the shoe in play dealt (journal inputs since its shuffle) and the shuffler's order, if reported. */
  private async shoeSoFar(
    journal: NonNullable<DealerTable['journalFeed']>,
  ): Promise<{ dealt: { card: string; back: string }[]; order: string[] | undefined }> {
    const dealt: { card: string; back: string }[] = [];
    let order: string[] | undefined;
    // The shuffle input comes just before its `shoe_start` event (other events of it may lie between).
    let seq = Math.max(1, this.daemon.shoeStartSeq() - 16);
    while (seq <= journal.lastSeq) {
      const page = await journal.readRange(seq, 512);
      if (page.length === 0) break;
      for (const record of page) {
        if (record.kind !== 'input') continue;
        const data = record.data as { t?: string; card?: string; back?: string; order?: string[] };
        if (data.t === 'shuffle' && record.seq < this.daemon.shoeStartSeq()) order = data.order;
        if (data.t === 'card' && record.seq > this.daemon.shoeStartSeq()) {
          dealt.push({ card: data.card ?? '', back: data.back ?? '' });
        }
      }
      seq = page.at(-1)!.seq + 1;
    }
    return { dealt, order };
  }

  /** New simulators: the shoe and the shuffler share the seed, so they agree on the order. */
  private async createSimulators(
    firstBack: BackColour | undefined,
    resume?: { shoe: SimShoe; at: number },
  ): Promise<void> {
    await this.stopSimulators();
    this.shoes++;
    this.decks = 0;
    const { SimulatedDevice } = await import('../../../../simulators/device.ts');
    // Each set of simulators gets a seed of its own from the journal's position, which goes on
    // growing across restarts (a count kept here started again at 0, and a seeded bench dealt its
    // first decks again after a restart: shuffle_suspect).
    const position = this.daemon.journalFeed?.lastSeq ?? 0;
    const seed = (this.seed + (position + 1) * 7919) >>> 0;
    const ruleset = this.daemon.ruleset;
    this.plannedFor = ruleset;
    // The simulators plan their rounds (cards per round) with the boxes this dealer seats.
    const boxes = this.boxes();
    for (const wire of this.wires) {
      const sim = new SimulatedDevice({
        kind: wire.kind,
        transport: wire.device,
        ...(wire.key === undefined ? {} : { key: wire.key }),
        ...(wire.hostKey === undefined ? {} : { hostKey: wire.hostKey }),
        ruleset,
        seed,
        // The table's drivers announced this on the wire before these simulators took it over.
        hostProtocol: PROTOCOL_VERSION,
        ...(boxes.length > 0 ? { boxes } : {}),
        ...(firstBack === undefined ? {} : { firstBack }),
        ...(resume
          ? {
              shoe: resume.shoe,
              resumeAt: resume.at,
              scenario: {
                on: [],
                off: [],
                steps: [{ op: 'shuffle' }, { op: 'deal', count: 'rest' }],
              },
            }
          : {}),
      });
      sim.start();
      // The dealer draws from the device whose gate holds its cards (a shoe); one that
      // reports shuffles is its shuffler; the others (a reader) play along.
      const profile = profileFor(wire.kind);
      if (profile.simulation?.heldByGate) this.shoe = { name: wire.name, sim };
      else if (profile.reportsShuffles) this.shuffler = { name: wire.name, sim };
      else this.others.push(sim);
    }
    await Promise.all(
      [this.shoe?.sim, this.shuffler?.sim].map((sim) => sim?.whenReady() ?? Promise.resolve()),
    );
  }

  /** The legal round the shoe simulator planned for the deck in play (deck-per-round games). */
  private plannedRound() {
    if (this.decks === 0) return undefined;
    return this.shoe?.sim.legalRounds[this.decks - 1];
  }

  private async run(): Promise<void> {
    await this.resumeShoe().catch((error: unknown) =>
      this.log.warn({ err: error }, 'the shoe in play could not be resumed: loading a new shoe'),
    );
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
        case 'decision': {
          await sleep(this.simulation.cardIntervalMs);
          if (!this.running) return;
          // Asked again after the pause: a void on request may have closed the round meanwhile.
          const now = this.daemon.expecting();
          if (now.kind === 'decision') await this.decide(now);
          break;
        }
      }
    }
  }

  /** A decision: the planned round's next one, else by preference (a hit now and then). */
  private async decide(expecting: Extract<Expectation, { kind: 'decision' }>): Promise<void> {
    const box = expecting.seat.startsWith('box:') ? Number(expecting.seat.slice(4)) : undefined;
    const planned = this.moves?.shift();
    if (planned && !this.fits(planned, expecting, box)) {
      this.log.warn(
        { planned, expecting: expecting.text },
        'the round left the simulators’ plan: deciding freely',
      );
      this.moves = undefined;
    } else if (planned?.kind === 'card') {
      await this.dealCard(false);
      return;
    } else if (planned?.kind === 'action') {
      await this.press(planned.action, box, planned.cards);
      return;
    }
    if (expecting.onCard && this.random.chance(DRAW_PROBABILITY)) {
      await this.dealCard(false);
      return;
    }
    const quiet = QUIET_ACTIONS.find((action) => expecting.options.includes(action));
    await this.press(quiet ?? expecting.options[0] ?? 'next', box);
  }

  /** Whether a planned move is one the table can take now. */
  private fits(
    move: PlannedMove,
    expecting: Extract<Expectation, { kind: 'decision' }>,
    box: number | undefined,
  ): boolean {
    if (move.kind === 'card') return expecting.onCard !== undefined;
    return move.box === box && expecting.options.includes(move.action);
  }

  private async press(action: string, box: number | undefined, cards?: number[]): Promise<void> {
    await this.daemon
      .ingest({
        t: 'action',
        src: 'simulator',
        action,
        ...(box === undefined ? {} : { box }),
        ...(cards ? { cards } : {}),
      })
      .catch((error) => this.log.warn({ err: error }, 'simulated decision refused'));
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
    const planned = this.plannedRound();
    this.moves = planned ? [...planned.moves] : undefined;
    const boxes = planned ? (planned.boxes ?? []) : this.boxes();
    await this.daemon.ingest({
      t: 'round',
      src: 'simulator',
      ...(boxes.length > 0 ? { boxes } : {}),
    });
  }

  private async dealCard(pace = true): Promise<void> {
    if (pace) {
      await sleep(this.simulation.cardIntervalMs);
      // A void on request during the pause closed the round (its cards go to the
      // discard): the next card is the next round's, once the table expects it.
      const now = this.daemon.expecting().kind;
      if (now !== 'card' && now !== 'burn') return;
    }
    if (!this.running) return;
    if (!this.shoe) {
      await this.loadShoe();
      return;
    }
    // A new deck next in the plan: the one in play is dealt out (a deck-per-round game).
    const dealt = !this.deckDealtOut() && (await this.playAndWait(this.shoe));
    if (!dealt && this.running) {
      // The simulated shoe ran out before the table ended it: a dealer would void and reload.
      this.log.warn('simulated shoe exhausted before the shoe ended: voiding and reloading');
      if (this.daemon.snapshot().round) {
        await this.daemon.ingest({
          t: 'void',
          src: 'simulator',
          reason: 'simulated shoe exhausted',
        });
      }
      await this.createSimulators(this.nextColour());
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
    this.bus.on('journaled', listener);
    try {
      const played = await device.sim.step();
      if (!played) return false;
      await Promise.race([journaled, sleep(CARD_TIMEOUT_MS)]);
      return true;
    } finally {
      this.bus.off('journaled', listener);
    }
  }
}
