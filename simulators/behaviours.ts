/**
 * Composable simulator behaviours. A simulator is a device core plus a list
 * of behaviours, each switchable on and off. Three kinds of hook:
 *
 * - `rewrite`: content, applied when the session is planned (a face-up card
 *   at position k, a foreign card, a jam...). Positions are 1-based: `5` is
 *   the fifth card the device deals in the session.
 * - `identity`: what HELLO says (a mismatched firmware hash).
 * - `outgoing` / `incoming`: the wire, applied to every frame as it is sent
 *   or received (drop or corrupt ACKs, corrupt bytes, duplicates, delays).
 *
 * Features are behaviours too (`legal-shoe`, `report-order`, `report-backs`, `two-colour`),
 * read by the planner and the device core by name.
 */
import { createHash } from 'node:crypto';
import type { BackColour, CardCode, PhysicalCard } from '../device-protocol/cards.ts';
import type { ShoeRecipe } from '../firmware-host/games/cards/simulated/legal-shoe.ts';
import { SimulatorError } from './errors.ts';
import type { Random } from './random.ts';
import type { DeviceIdentity, Step } from './steps.ts';

/** One frame on its way out: already encoded, CR LF included. */
export interface OutgoingFrame {
  type: string;
  bytes: Buffer;
}

/** What is actually written: zero or more chunks, each after an optional delay. */
export interface Write {
  bytes: Buffer;
  delayMs: number;
}

/** One valid frame received, before the link session sees it. */
export interface IncomingFrame {
  type: string;
  seq: number;
}

export interface PlanContext {
  recipe: ShoeRecipe;
  random: Random;
}

export interface Behaviour {
  readonly name: string;
  readonly arg: string | undefined;
  enabled: boolean;
  rewrite?(steps: Step[], context: PlanContext): Step[];
  identity?(identity: DeviceIdentity): DeviceIdentity;
  outgoing?(frame: OutgoingFrame, writes: Write[], random: Random): Write[];
  /** False: the frame is lost before the device reads it. */
  incoming?(frame: IncomingFrame, random: Random): boolean;
}

export interface BehaviourDefinition {
  readonly name: string;
  readonly kind: 'feature' | 'fault';
  readonly summary: string;
  /** How the argument reads, for help texts; absent when there is none. */
  readonly argument?: string;
  /** Features on by default; faults are always off until asked for. */
  readonly defaultOn: boolean;
  create(arg: string | undefined): Behaviour;
}

// ---------------------------------------------------------------- arguments

function fail(name: string, arg: string | undefined, expected: string): never {
  throw new SimulatorError(
    'bad_fault',
    `bad argument ${JSON.stringify(arg ?? '')} for ${name}: expected ${expected}`,
  );
}

function positiveInt(name: string, text: string | undefined, expected: string): number {
  if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1) fail(name, text, expected);
  return Number(text);
}

/** `K` or `K:MS`: a 1-based card position and an optional duration. */
function positionAndMs(
  name: string,
  arg: string | undefined,
  defaultMs: number,
): { position: number; ms: number } {
  const expected = 'K or K:MS (K the 1-based card position, MS milliseconds)';
  const [position, ms] = (arg ?? '').split(':');
  return {
    position: positiveInt(name, position, expected),
    ms: ms === undefined ? defaultMs : ms === '0' ? 0 : positiveInt(name, ms, expected),
  };
}

/**
 * Which frames a wire fault hits: a probability below 1 (`0.2`, seeded), or
 * every Nth frame (`3`).
 */
export type Rate = { every: number } | { probability: number };

export function parseRate(name: string, arg: string | undefined, fallback: Rate): Rate {
  if (arg === undefined || arg === '') return fallback;
  const expected = 'a probability 0..1 (e.g. 0.2) or N for every Nth frame (e.g. 3)';
  if (/^\d+$/.test(arg)) {
    const every = Number(arg);
    if (every < 1) fail(name, arg, expected);
    return { every };
  }
  if (/^(0?\.\d+|1(\.0*)?|0)$/.test(arg)) return { probability: Number(arg) };
  fail(name, arg, expected);
}

function rateHit(rate: Rate, counter: { n: number }, random: Random): boolean {
  counter.n++;
  if ('every' in rate) return counter.n % rate.every === 0;
  return random.chance(rate.probability);
}

// ---------------------------------------------------------------- content helpers

/** Index into `steps` of the kth (1-based) card step, or -1. */
export function cardStepIndex(steps: readonly Step[], position: number): number {
  let seen = 0;
  for (let i = 0; i < steps.length; i++) {
    if (steps[i]!.kind === 'card' && ++seen === position) return i;
  }
  return -1;
}

function insertBeforeCard(steps: Step[], position: number, inserted: Step[]): Step[] {
  const at = cardStepIndex(steps, position);
  const out = steps.slice();
  if (at < 0) out.push(...inserted);
  else out.splice(at, 0, ...inserted);
  return out;
}

function updateCard(
  steps: Step[],
  position: number,
  update: (card: Extract<Step, { kind: 'card' }>) => Step,
): Step[] {
  const at = cardStepIndex(steps, position);
  if (at < 0) return steps;
  const out = steps.slice();
  out[at] = update(out[at] as Extract<Step, { kind: 'card' }>);
  return out;
}

/** A back colour that does not belong to the recipe's shoe. */
export const FOREIGN_BACK: BackColour = 'grey';

function otherBack(recipe: ShoeRecipe, back: BackColour): BackColour {
  return recipe.backs.find((candidate) => candidate !== back) ?? 'green';
}

/** A copy of a card whose every copy has already been dealt, if there is one, so the extra is countable. */
function exhaustedCard(steps: readonly Step[], before: number): PhysicalCard | undefined {
  const seen = new Map<string, { card: PhysicalCard; count: number }>();
  let last: PhysicalCard | undefined;
  let decksSeen = 1;
  for (let i = 0; i < before; i++) {
    const step = steps[i]!;
    if (step.kind === 'shuffle') decksSeen = step.decks;
    if (step.kind !== 'card') continue;
    last = { card: step.card, back: step.back, face: 'down' };
    const key = `${step.card}/${step.back}`;
    const entry = seen.get(key) ?? { card: last, count: 0 };
    entry.count++;
    seen.set(key, entry);
  }
  for (const entry of seen.values()) if (entry.count >= decksSeen) return entry.card;
  return last;
}

// ---------------------------------------------------------------- wire helpers

/** Flips one printable byte between `$` and `*` to another: the CRC no longer matches. */
export function corruptFrame(bytes: Buffer, random: Random): Buffer {
  const star = bytes.lastIndexOf(0x2a);
  const copy = Buffer.from(bytes);
  if (star <= 1) {
    copy[0] = 0x21;
    return copy;
  }
  const at = 1 + random.int(star - 1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let replacement = alphabet.charCodeAt(random.int(alphabet.length));
  if (replacement === copy[at]) replacement = replacement === 0x41 ? 0x42 : 0x41;
  copy[at] = replacement;
  return copy;
}

function isAck(frame: OutgoingFrame | IncomingFrame): boolean {
  return frame.type === 'ACK';
}

// ---------------------------------------------------------------- definitions

function base(name: string, arg: string | undefined, enabled = true) {
  return { name, arg, enabled };
}

function wireFault(
  name: string,
  summary: string,
  appliesTo: (frame: OutgoingFrame) => boolean,
  apply: (frame: OutgoingFrame, writes: Write[], random: Random) => Write[],
): BehaviourDefinition {
  return {
    name,
    kind: 'fault',
    summary,
    argument: 'RATE (0.2 = one frame in five at random; 3 = every third frame; default 0.1)',
    defaultOn: false,
    create(arg) {
      const rate = parseRate(name, arg, { probability: 0.1 });
      const counter = { n: 0 };
      return {
        ...base(name, arg),
        outgoing(frame, writes, random) {
          if (!appliesTo(frame) || !rateHit(rate, counter, random)) return writes;
          return apply(frame, writes, random);
        },
      };
    },
  };
}

function positionFault(
  name: string,
  summary: string,
  rewrite: (steps: Step[], position: number, context: PlanContext) => Step[],
): BehaviourDefinition {
  return {
    name,
    kind: 'fault',
    summary,
    argument: 'K (the 1-based card position)',
    defaultOn: false,
    create(arg) {
      const position = positiveInt(name, arg, 'K, the 1-based card position (e.g. 5)');
      return { ...base(name, arg), rewrite: (steps, context) => rewrite(steps, position, context) };
    },
  };
}

function eventFault(
  name: string,
  summary: string,
  defaultMs: number,
  steps: (ms: number) => Step[],
): BehaviourDefinition {
  return {
    name,
    kind: 'fault',
    summary,
    argument: `K[:MS] (before the Kth card, for MS milliseconds; default ${defaultMs})`,
    defaultOn: false,
    create(arg) {
      const { position, ms } = positionAndMs(name, arg, defaultMs);
      return {
        ...base(name, arg),
        rewrite: (current) => insertBeforeCard(current, position, steps(ms)),
      };
    },
  };
}

function feature(name: string, summary: string, defaultOn: boolean): BehaviourDefinition {
  return { name, kind: 'feature', summary, defaultOn, create: (arg) => base(name, arg) };
}

/** A firmware hash no allow-list holds. */
export const MISMATCHED_FIRMWARE_SHA256 = createHash('sha256')
  .update('tableside simulator: tampered firmware')
  .digest('hex');

export const BEHAVIOURS: readonly BehaviourDefinition[] = [
  feature('legal-shoe', 'deal a seeded legal shoe for the ruleset', true),
  feature('report-order', 'the shuffler reads cards and reports the order it shuffled', true),
  feature(
    'report-backs',
    'the shuffler names the back colours it shuffled (SHUFFLED2, to a host of protocol 1.1 or later)',
    true,
  ),
  feature('two-colour', 'two back colours, one deck per round, alternating', false),
  wireFault(
    'drop-acks',
    'ACKs the device owes the host are never sent (the host retransmits)',
    isAck,
    () => [],
  ),
  wireFault(
    'corrupt-acks',
    'ACKs the device sends arrive with a bad CRC',
    isAck,
    (_frame, writes, random) =>
      writes.map((write) => ({ ...write, bytes: corruptFrame(write.bytes, random) })),
  ),
  {
    name: 'lose-acks',
    kind: 'fault',
    summary: 'ACKs from the host are lost before the device reads them (the device retransmits)',
    argument: 'RATE (as drop-acks)',
    defaultOn: false,
    create(arg) {
      const rate = parseRate('lose-acks', arg, { probability: 0.1 });
      const counter = { n: 0 };
      return {
        ...base('lose-acks', arg),
        incoming: (frame, random) => !(isAck(frame) && rateHit(rate, counter, random)),
      };
    },
  },
  wireFault(
    'corrupt-bytes',
    'event frames arrive with a flipped byte (the host NAKs, the device retransmits)',
    (frame) => !isAck(frame),
    (_frame, writes, random) =>
      writes.map((write) => ({ ...write, bytes: corruptFrame(write.bytes, random) })),
  ),
  wireFault(
    'duplicate',
    'event frames are sent twice (the host drops the copy)',
    (frame) => !isAck(frame),
    (_frame, writes) => [...writes, ...writes.map((write) => ({ ...write }))],
  ),
  {
    name: 'delay',
    kind: 'fault',
    summary: 'every frame is held back before it is sent',
    argument: 'MS (default 200)',
    defaultOn: false,
    create(arg) {
      const ms = arg === undefined ? 200 : positiveInt('delay', arg, 'MS, a delay in milliseconds');
      return {
        ...base('delay', arg),
        outgoing: (_frame, writes) =>
          writes.map((write) => ({ ...write, delayMs: write.delayMs + ms })),
      };
    },
  },
  eventFault(
    'silence',
    'the device goes silent (no bytes, no PONG) before the Kth card',
    10_000,
    (ms) => [{ kind: 'silence', ms }],
  ),
  eventFault('jam', 'the card path jams before the Kth card', 2_000, (ms) => [
    { kind: 'jam', clearAfterMs: ms },
  ]),
  eventFault('lid', 'the shoe lid opens before the Kth card', 2_000, (ms) => [
    { kind: 'lid', open: true },
    { kind: 'pause', ms },
    { kind: 'lid', open: false },
  ]),
  eventFault('door', 'the shuffler door opens before the Kth card', 2_000, (ms) => [
    { kind: 'door', open: true },
    { kind: 'pause', ms },
    { kind: 'door', open: false },
  ]),
  positionFault('face-up', 'the Kth card is found face up in the deck', (steps, k) =>
    updateCard(steps, k, (card) => ({ ...card, face: 'up' })),
  ),
  positionFault(
    'wrong-colour',
    "the Kth card has another back colour (the ruleset's other colour, else green)",
    (steps, k, { recipe }) =>
      updateCard(steps, k, (card) => ({ ...card, back: otherBack(recipe, card.back) })),
  ),
  positionFault(
    'foreign',
    `a foreign card (back ${FOREIGN_BACK}; for the reader, an unknown tag) comes before the Kth card`,
    (steps, k, { random }) => {
      const code = `${'A23456789TJQK'[random.int(13)]}${'SHDC'[random.int(4)]}` as CardCode;
      const uid = `FF${random.nextUint32().toString(16).toUpperCase().padStart(8, '0')}`;
      return insertBeforeCard(steps, k, [
        { kind: 'card', card: code, back: FOREIGN_BACK, face: 'down', uid },
      ]);
    },
  ),
  positionFault(
    'extra',
    'an extra copy of a card already dealt (all its copies, where possible) comes before the Kth card',
    (steps, k) => {
      const at = cardStepIndex(steps, k);
      const copy = exhaustedCard(steps, at < 0 ? steps.length : at);
      if (!copy) return steps;
      return insertBeforeCard(steps, k, [{ kind: 'card', ...copy }]);
    },
  ),
  {
    name: 'stacked',
    kind: 'fault',
    summary: 'the shuffle is stacked: the Nth shoe (every shoe without N) is in new-deck order',
    argument: 'N (optional, the 1-based shoe)',
    defaultOn: false,
    create: (arg) => {
      if (arg !== undefined) positiveInt('stacked', arg, 'N, the 1-based shoe number');
      return base('stacked', arg);
    },
  },
  {
    name: 'firmware-mismatch',
    kind: 'fault',
    summary: 'HELLO reports a firmware SHA-256 no allow-list holds',
    argument: 'SHA256 (optional, 64 hex digits)',
    defaultOn: false,
    create(arg) {
      if (arg !== undefined && !/^[0-9a-fA-F]{64}$/.test(arg)) {
        fail('firmware-mismatch', arg, '64 hex digits');
      }
      const sha = (arg ?? MISMATCHED_FIRMWARE_SHA256).toLowerCase();
      return {
        ...base('firmware-mismatch', arg),
        identity: (identity) => ({ ...identity, firmwareSha256: sha }),
      };
    },
  },
];

const BY_NAME = new Map(BEHAVIOURS.map((definition) => [definition.name, definition]));

export function behaviourDefinition(name: string): BehaviourDefinition {
  const definition = BY_NAME.get(name);
  if (!definition) {
    throw new SimulatorError(
      'bad_fault',
      `unknown behaviour ${JSON.stringify(name)}: expected one of ${[...BY_NAME.keys()].join(', ')}`,
    );
  }
  return definition;
}

/** Parses `NAME` or `NAME=ARG` (the CLI's --fault and a scenario's `fault:` step). */
export function parseBehaviourSpec(spec: string): { name: string; arg: string | undefined } {
  const at = spec.indexOf('=');
  const name = (at < 0 ? spec : spec.slice(0, at)).trim();
  const arg = at < 0 ? undefined : spec.slice(at + 1).trim();
  behaviourDefinition(name);
  return { name, arg: arg === '' ? undefined : arg };
}

/** Parses and checks `NAME=ARG` fully (the argument too), without switching anything on. */
export function checkBehaviourSpec(spec: string): { name: string; arg: string | undefined } {
  const parsed = parseBehaviourSpec(spec);
  behaviourDefinition(parsed.name).create(parsed.arg);
  return parsed;
}

/**
 * The behaviours of one simulator, in order. Features start at their
 * default; `set` switches one on (with its argument) or off at any time.
 * Several instances of a position fault may be on at once (`face-up=3` and
 * `face-up=9`), so a behaviour is keyed by its name and argument.
 */
export class BehaviourSet {
  private readonly list: Behaviour[] = [];

  constructor(specs: readonly string[] = []) {
    for (const definition of BEHAVIOURS) {
      if (definition.defaultOn) this.list.push(definition.create(undefined));
    }
    for (const spec of specs) {
      const { name, arg } = parseBehaviourSpec(spec);
      this.set(name, true, arg);
    }
  }

  /** Switch `name` on (adding it with `arg`) or off (every instance of it). */
  set(name: string, on: boolean, arg?: string): void {
    const definition = behaviourDefinition(name);
    const existing = this.list.filter((behaviour) => behaviour.name === name);
    if (!on) {
      for (const behaviour of existing) behaviour.enabled = false;
      // Remember the explicit "off", so a ruleset default does not switch it back on.
      if (existing.length === 0) this.list.push({ name, arg: undefined, enabled: false });
      return;
    }
    const same = existing.find((behaviour) => behaviour.arg === arg);
    if (same) {
      same.enabled = true;
      return;
    }
    // A wire fault or a feature has one setting at a time; position faults stack.
    if (definition.kind === 'feature' || !definition.argument?.startsWith('K')) {
      for (const behaviour of existing) behaviour.enabled = false;
    }
    this.list.push(definition.create(arg));
  }

  isOn(name: string): boolean {
    return this.list.some((behaviour) => behaviour.name === name && behaviour.enabled);
  }

  /** True when `name` was switched off explicitly (and is not on). */
  isSwitchedOff(name: string): boolean {
    const mentioned = this.list.filter((behaviour) => behaviour.name === name);
    return mentioned.length > 0 && mentioned.every((behaviour) => !behaviour.enabled);
  }

  /** The argument of the enabled behaviour `name`, if any. */
  argOf(name: string): string | undefined {
    return this.list.find((behaviour) => behaviour.name === name && behaviour.enabled)?.arg;
  }

  enabled(): Behaviour[] {
    return this.list.filter((behaviour) => behaviour.enabled);
  }

  /** `NAME` or `NAME=ARG` for every enabled behaviour, for logs and tests. */
  describe(): string[] {
    return this.enabled().map((behaviour) =>
      behaviour.arg === undefined ? behaviour.name : `${behaviour.name}=${behaviour.arg}`,
    );
  }

  rewrite(steps: Step[], context: PlanContext): Step[] {
    let current = steps;
    for (const behaviour of this.enabled()) {
      if (behaviour.rewrite) current = behaviour.rewrite(current, context);
    }
    return current;
  }

  identity(identity: DeviceIdentity): DeviceIdentity {
    let current = identity;
    for (const behaviour of this.enabled()) {
      if (behaviour.identity) current = behaviour.identity(current);
    }
    return current;
  }

  outgoing(frame: OutgoingFrame, random: Random): Write[] {
    let writes: Write[] = [{ bytes: frame.bytes, delayMs: 0 }];
    for (const behaviour of this.enabled()) {
      if (behaviour.outgoing) writes = behaviour.outgoing(frame, writes, random);
    }
    return writes;
  }

  incoming(frame: IncomingFrame, random: Random): boolean {
    for (const behaviour of this.enabled()) {
      if (behaviour.incoming && !behaviour.incoming(frame, random)) return false;
    }
    return true;
  }
}
