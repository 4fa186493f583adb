/**
 * The drill of issue 24 item 6 at the level of the pure parts (auth-pair.ts):
 * a paired 1.4 shoe deals to its host over a line that, for a while, changes
 * a byte of some frames either way (HELLO, CHALLENGE, PROOF, ACK, cards),
 * garbles a few CHALLENGEs and PROOFs past their CRC, loses a few, delays
 * some, is pulled at random moments and right after handshake frames (the
 * shoe's end reopening into the dead line, the host's end noticing or not),
 * while either side restarts, and while a rogue writes bursts of CRC-valid
 * frames with a MAC of no session (each enough to quarantine the shoe for
 * refused frames), and writes HELLOs unlike the shoe's (announcing 1.2, a
 * firmware hash off the allow-list, the shoe's own garbled past its CRC).
 * Then the line turns clean, and the pair must
 * make progress again: every card dealt journaled once, in order, and
 * nothing left in the shoe, within `RECOVERY_BOUND_MS`. Virtual time, no
 * timers.
 */
import { sealLine } from '../../../device-protocol/auth/frame-mac.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { messageFrame } from '../../../device-protocol/messages.ts';
import { createRandom } from '../../../simulators/random.ts';
import { AuthPair, type PairKey, SHOE_HELLO } from './auth-pair.ts';
import { card, corrupt } from './window-drill.ts';

export interface AuthDrill {
  seed: number;
  cards: number;
  /** Share of frames, either way, that arrive with one byte changed. */
  corrupt: number;
  /** Share of frames lost, either way. */
  drop: number;
  /**
   * Share of CHALLENGE and PROOF frames garbled past their CRC (a field cut
   * short, the CRC right): several bytes changed, one line in 65,536.
   */
  garble: number;
  /** Pulls at random moments of the deal. */
  pulls: number;
  /** Chance that a handshake frame (HELLO, CHALLENGE, PROOF) is followed by a pull within 10 ms. */
  pullOnHandshake: number;
  hostRestarts: number;
  shoeRestarts: number;
  /**
   * Bursts of 16 to 31 rogue frames with bad MACs (16 refused in a row quarantine
   * the shoe), each at a random moment of the deal when the host has a session.
   */
  rogueBursts?: number;
  /** Rogue HELLOs (1.2, a hash off the allow-list, the shoe's garbled), each at a random moment of the deal. */
  rogueHellos?: number;
}

export interface AuthOutcome {
  stored: string[];
  expected: string[];
  /** Cards the host ACKed and dropped as refused by the firmware allow-list. */
  refused: string[];
  /** When the line turned clean (virtual ms). */
  cleanAt: number;
  /** How long after that every card was journaled and the shoe held nothing; undefined: never. */
  recoveredAfterMs: number | undefined;
  shoeHelloAcknowledged: boolean;
  hostAuth: string;
  /** The host's alarms, in order. */
  alarms: string[];
}

/**
 * How long a pair may take to make progress again once the line is clean.
 * The slowest of 10,000 seeded runs took 3.5 s (a host that quarantined the
 * shoe challenges it every 2 s; a shoe waits 3 s for a CHALLENGE).
 */
export const RECOVERY_BOUND_MS = 5_000;
/**
 * After a rogue's HELLO the host asks for a fresh one 2 s after the handshake
 * failed (4 s of CHALLENGEs), then 4, 8, 16 and every 30 s: asks lost to the
 * noise before the line turned clean push the next one up to 30 s away.
 */
export const ROGUE_HELLO_RECOVERY_BOUND_MS = 40_000;
const DEAL_EVERY_MS = 25;
const HANDSHAKE_TYPES = new Set(['HELLO', 'CHALLENGE', 'PROOF']);

/** The line with its last field cut short and its CRC made right again. */
function garble(line: string): string {
  const event = parseFrameLine(line);
  if (event.kind !== 'frame') return line;
  const fields = [...event.frame.fields];
  fields[fields.length - 1] = fields.at(-1)!.slice(0, 8);
  return encodeFrame({ ...event.frame, fields });
}

type Happening =
  | 'pull'
  | 'plug'
  | 'deadReopen'
  | 'restartHost'
  | 'restartShoe'
  | 'rogueBurst'
  | 'rogueHello';

/** HELLOs a rogue (or the noise) writes in place of the shoe's: each is refused or never proven. */
const ROGUE_HELLOS: readonly string[] = [
  encodeFrame(messageFrame('SH', 0, { ...SHOE_HELLO, protocol: '1.2' })),
  encodeFrame(messageFrame('SH', 0, { ...SHOE_HELLO, firmwareSha256: 'f'.repeat(64) })),
  encodeFrame(messageFrame('SH', 0, { ...SHOE_HELLO, firmware: '2.3.7' })),
];

/** Refused frames in a row that quarantine a paired device (host-auth.ts `maxRefusedInRow`). */
const ROGUE_BURST = 16;

export async function runAuthDrill(drill: AuthDrill, key: PairKey): Promise<AuthOutcome> {
  const random = createRandom(drill.seed).float;
  const pick = (below: number) => Math.floor(random() * below);
  const pair = await AuthPair.create(key);
  pair.allowedFirmware = { [SHOE_HELLO.model]: [SHOE_HELLO.firmwareSha256] };
  const dealTime = drill.cards * DEAL_EVERY_MS;
  const cleanAt = dealTime + 50;
  let chaos = true;

  pair.fault = ({ type, line }) => {
    if (!chaos) return line;
    if (random() < drill.drop) return undefined;
    if (HANDSHAKE_TYPES.has(type) && type !== 'HELLO' && random() < drill.garble) {
      return garble(line);
    }
    return random() < drill.corrupt ? corrupt(line, random) : line;
  };
  // A few lines take long (a loaded host reads late): a HELLO and a CHALLENGE cross.
  pair.hop = () => (chaos && random() < 0.05 ? 20 + pick(200) : 1 + pick(3));
  pair.signDelay = () => pick(30);

  const schedule: Array<{ at: number; what: Happening }> = [];
  const at = (when: number, what: Happening) => {
    schedule.push({ at: when, what });
    schedule.sort((a, b) => a.at - b.at);
  };
  let pullsLeft = drill.pulls;
  const pullNow = (when: number) => {
    // A pull lasts 5-300 ms; the shoe's end reopens into the dead line up to twice.
    const length = 5 + pick(295);
    at(when, 'pull');
    for (let again = pick(3); again > 0; again--) at(when + 1 + pick(length - 1), 'deadReopen');
    at(when + length, 'plug');
  };
  for (; pullsLeft > 0; pullsLeft--) pullNow(1 + pick(dealTime));
  let handshakePulls = 3;
  pair.onWrite = ({ type }) => {
    if (!chaos || !HANDSHAKE_TYPES.has(type) || handshakePulls === 0) return;
    if (random() >= drill.pullOnHandshake) return;
    handshakePulls--;
    pullNow(pair.now + pick(10));
  };
  for (let restart = 0; restart < drill.hostRestarts; restart++) {
    at(1 + pick(dealTime), 'restartHost');
  }
  for (let restart = 0; restart < drill.shoeRestarts; restart++) {
    at(1 + pick(dealTime), 'restartShoe');
  }
  for (let burst = 0; burst < (drill.rogueBursts ?? 0); burst++) {
    at(1 + pick(dealTime), 'rogueBurst');
  }
  for (let hello = 0; hello < (drill.rogueHellos ?? 0); hello++) {
    at(1 + pick(dealTime), 'rogueHello');
  }
  // A key of no session: the rogue's cards (ones the shoe deals too) fail their MAC.
  const rogueKey = Uint8Array.from({ length: 32 }, () => pick(256));
  let hostNoticed = false;
  const happen = (what: Happening) => {
    switch (what) {
      case 'pull':
        if (!pair.lineUp) return;
        pair.pull();
        hostNoticed = random() < 0.5;
        return;
      case 'deadReopen':
        if (!pair.lineUp) pair.shoeOpens();
        return;
      case 'plug':
        if (pair.lineUp) return;
        pair.plug();
        pair.shoeOpens();
        if (hostNoticed) pair.hostOpens(true);
        return;
      case 'restartHost':
        pair.restartHost();
        if (pair.lineUp) pair.hostOpens();
        return;
      case 'restartShoe':
        pair.restartShoe();
        pair.shoeOpens();
        return;
      case 'rogueBurst':
        // The rogue waits for a session to break into (some of its frames the noise eats).
        if (pair.hostAuth.state !== 'authenticated') {
          at(pair.now + 50, 'rogueBurst');
          return;
        }
        for (let index = ROGUE_BURST + pick(ROGUE_BURST); index > 0; index--) {
          const frame = messageFrame('SH', 1 + pick(200), card(pick(52)));
          pair.rogueWrites(sealLine(encodeFrame(frame), rogueKey));
        }
        return;
      case 'rogueHello':
        pair.rogueWrites(ROGUE_HELLOS[pick(ROGUE_HELLOS.length)]!);
        // Its cards, with no MAC: blue backs, none of which the shoe deals in a drill.
        pair.rogueWrites(encodeFrame(messageFrame('SH', 1, card(52 + pick(52)))));
        return;
    }
  };

  pair.open();
  let nextDeal = DEAL_EVERY_MS;
  while (pair.now < cleanAt) {
    const next = () => Math.min(schedule[0]?.at ?? cleanAt, nextDeal, cleanAt);
    pair.runUntil(next);
    const now = pair.now;
    while (schedule[0] !== undefined && schedule[0].at <= now) happen(schedule.shift()!.what);
    if (nextDeal <= now) {
      if (pair.dealt < drill.cards) pair.deal();
      nextDeal += DEAL_EVERY_MS;
    }
  }
  // The line turns clean: plugged if it was out, and nothing more happens to it.
  chaos = false;
  schedule.length = 0;
  if (!pair.lineUp) happen('plug');

  let recoveredAfterMs: number | undefined;
  const bound = (drill.rogueHellos ?? 0) > 0 ? ROGUE_HELLO_RECOVERY_BOUND_MS : RECOVERY_BOUND_MS;
  for (let after = 0; after <= bound; after += 50) {
    pair.runUntil(cleanAt + after);
    const done = pair.stored.length === pair.expected.length && pair.shoeSettled;
    if (done) {
      recoveredAfterMs = after;
      break;
    }
  }
  return {
    stored: pair.stored,
    expected: pair.expected,
    refused: pair.refused,
    cleanAt,
    recoveredAfterMs,
    shoeHelloAcknowledged: pair.shoeHelloAcknowledged,
    hostAuth: pair.hostAuth.state,
    alarms: pair.alarms,
  };
}
