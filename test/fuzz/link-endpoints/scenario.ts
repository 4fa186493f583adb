/**
 * What a seed of the endpoint fuzz stands for (its scenario), and the
 * bounds a run is held to: how soon the pair settles once the line is
 * clean, and how often one event may be sent again.
 */
import { DEVICE_SESSION_DEFAULTS } from '../../../hardware/device/device-core.ts';
import { createRandom } from '../../../simulators/random.ts';
import { ATTACK_MOVES, type AttackMove } from './attacker.ts';
import type { LineFaults } from './line.ts';

export type Mode = 'paired' | 'plain' | 'stop-and-wait';

export interface Scenario {
  readonly seed: number;
  /** `paired`: a 1.4 shoe with a key its host holds; `plain`: 1.2, no key; `stop-and-wait`: 1.1. */
  readonly mode: Mode;
  /** Events the shoe accepts (each in its outbox before it may reach the wire). */
  readonly events: number;
  /** Events come in a burst, more than a window holds, rather than at a dealer's pace. */
  readonly burst: boolean;
  readonly faults: LineFaults;
  readonly pulls: number;
  readonly shoeRestarts: number;
  readonly hostRestarts: number;
  /** Bursts of forged frames written to the host (a paired line only). */
  readonly forgeries: number;
  /** An attacker's moves on the paired line, armed at seeded times while the shoe deals. */
  readonly attacks?: readonly AttackMove[];
}

/** The scenario a seed stands for (its own stream, so the faults' draws never shift it). */
export function scenarioOf(seed: number): Scenario {
  const random = createRandom(seed).fork('scenario');
  const rate = (most: number) => (random.chance(0.2) ? 0 : random.float() * most);
  const mode = (['paired', 'paired', 'plain', 'stop-and-wait'] as const)[random.int(4)]!;
  const burst = mode !== 'stop-and-wait' && random.chance(0.15);
  return {
    seed,
    mode,
    events: burst ? 33 + random.int(12) : 3 + random.int(mode === 'stop-and-wait' ? 8 : 22),
    burst,
    faults: {
      drop: rate(0.08),
      corrupt: rate(0.15),
      cut: rate(0.05),
      duplicate: rate(0.05),
      delay: rate(0.05),
      split: rate(0.3),
    },
    pulls: random.int(4),
    shoeRestarts: random.int(3),
    hostRestarts: random.int(3),
    forgeries: mode === 'paired' ? random.int(4) : 0,
  };
}

/**
 * A seed of the attacker's fuzz: a paired shoe dealing at a dealer's pace on
 * a line that only the attacker harms, with one to three of its moves (its
 * own stream: the plain fuzz's seeds are not shifted).
 */
export function attackScenarioOf(seed: number): Scenario {
  const random = createRandom(seed).fork('attack');
  const moves = 1 + random.int(3);
  return {
    seed,
    mode: 'paired',
    events: 8 + random.int(20),
    burst: false,
    faults: { drop: 0, corrupt: 0, cut: 0, duplicate: 0, delay: 0, split: 0 },
    pulls: 0,
    shoeRestarts: 0,
    hostRestarts: 0,
    forgeries: 0,
    attacks: Array.from({ length: moves }, () => ATTACK_MOVES[random.int(ATTACK_MOVES.length)]!),
  };
}

/** The device's ACK timeout. */
export const DEVICE_ACK_TIMEOUT_MS = DEVICE_SESSION_DEFAULTS.ackTimeoutMs;
/**
 * How long a pair may take to settle once the line is clean. A shoe waits
 * 3 s for a CHALLENGE, a host that quarantined it challenges it again after
 * 2 s; the slowest of the suite's 2,000 seeds takes 3.5 s.
 */
export const SETTLE_BOUND_MS = 10_000;

/**
 * How often one event may be sent again before its ACK, with why. The shoe
 * sends an event again only when
 * - its ACK timer runs out: once per DEVICE_ACK_TIMEOUT_MS it waits;
 * - the host NAKs it (a copy it could not read, the gap before a copy it
 *   holds, a copy it dropped while it awaited a PROOF, and a damaged ACK of
 *   the shoe's, which names the seq the shoe's next event takes): at most
 *   twice for each line the line harmed since one ACK timeout before the
 *   shoe accepted it;
 * - its connection starts over (a pull, a plug, a reopen into the dead line,
 *   either side's restart, each HELLO either side writes and each PROOF the
 *   shoe writes): after each, the shoe sends again what it keeps, and a NAK
 *   may ask once more: twice per start since it was accepted;
 * plus its first send once its HELLO was ACKed. A storm (resends feeding on
 * NAKs of resends, as issue 27's NAK storm while the host awaited a PROOF)
 * outgrows this at once: it needs neither time nor harm nor a new connection.
 */
export function resendBound(life: { waitedMs: number; harmed: number; starts: number }): number {
  return 1 + Math.floor(life.waitedMs / DEVICE_ACK_TIMEOUT_MS) + 2 * life.harmed + 2 * life.starts;
}
