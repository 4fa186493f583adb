/**
 * One seeded run of the endpoint fuzz: a shoe (a device endpoint behind the
 * firmware's real outbox file) deals to a host (a host endpoint in front of
 * the driver's receive ledger and a journal with the daemon's restart
 * dedupe) over a simulated line (line.ts) on virtual time. Everything a run
 * does follows from its seed: the scenario (authentication on or off, how
 * noisy the line is, how often the cable is pulled and either side restarts,
 * forged frames on a paired line) and every fault.
 *
 * Chaos lasts while the shoe deals; then the line turns clean (plugged, both
 * ends open) and the pair must settle: every event the shoe accepted
 * journaled, the shoe holding nothing.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { CardMessage, HelloMessage, Message } from '../../../device-protocol/messages.ts';
import { RestartDedupe } from '../../../firmware-host/daemon/restart-dedupe.ts';
import { ReceiveLedger } from '../../../firmware-host/drivers/ledger.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { Outbox } from '../../../hardware/firmware/outbox.ts';
import { generatedSigner, processHostKey } from '../../../hardware/keys/device-key.ts';
import { createRandom } from '../../../simulators/random.ts';
import { card } from '../../property/protocol/window-drill.ts';
import { Attacker, type AttackMove } from './attacker.ts';
import {
  type DeviceEndpoint,
  deviceEndpoint,
  type HostEndpoint,
  hostEndpoint,
} from './endpoints.ts';
import { forgeries } from './forger.ts';
import { CLEAN, SimulatedLine, show } from './line.ts';
import {
  DEVICE_ACK_TIMEOUT_MS,
  type Mode,
  resendBound,
  type Scenario,
  SETTLE_BOUND_MS,
} from './scenario.ts';

export interface Outcome {
  readonly scenario: Scenario;
  /** The events the shoe accepted, in its order, and what the journal holds, in its order. */
  readonly accepted: readonly string[];
  readonly journaled: readonly string[];
  /** Virtual ms from the line turning clean to the pair settling; undefined: never. */
  readonly settledAfterMs: number | undefined;
  /** Deliveries (seq and line) on a paired line of a forged frame or one without a MAC. */
  readonly unauthenticated: readonly string[];
  /** The link delivered a seq twice between two HELLOs of the shoe. */
  readonly redelivered: readonly string[];
  /** Per event: transmissions beyond the first, and what the bound allows it. */
  readonly resends: readonly { event: string; resends: number; allowed: number }[];
  /** The host's NAKs of line errors, and the lines the line harmed. */
  readonly hostNaks: number;
  readonly harmed: number;
  /** The alarms the host's authentication status raised (each names the shoe's line). */
  readonly alarms: readonly string[];
  /** The attacker's moves, as armed (none without an attacker). */
  readonly attackerMoves: readonly string[];
  readonly trace: readonly string[] | undefined;
}

const SHOE_HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};
const HELLO_OF: Record<Mode, HelloMessage> = {
  paired: SHOE_HELLO,
  plain: { ...SHOE_HELLO, protocol: '1.2' },
  'stop-and-wait': { ...SHOE_HELLO, protocol: '1.1' },
};

/** A dealer's pace, and a burst (a shuffler reporting an order): past a 1.2 window of 32. */
const DEAL_EVERY_MS = 25;
const BURST_EVERY_MS = 2;
/** The journal's group commit makes a record durable this long after it arrives. */
const JOURNAL_DELAY_MS = 3;
/** How long the shoe's signer takes (a secure element on I2C). */
const SIGN_MS = 15;
/** The driver's heartbeat. */
const PING_EVERY_MS = 1_000;
type Signer = ReturnType<typeof generatedSigner>;
export interface ShoeKey {
  readonly signer: Signer;
  readonly publicKey: Awaited<ReturnType<Signer['publicKey']>>;
}

export async function shoeKey(): Promise<ShoeKey> {
  const signer = generatedSigner('ed25519');
  return { signer, publicKey: await signer.publicKey() };
}

/** A frame's MAC (PROTOCOL.md § 5.3): its last field. */
const MAC_FIELD = /,~[A-Za-z0-9_-]{22}\*[0-9A-F]{4}\r\n$/;
/** A shoe's CARD line: its seq, card and back. */
const CARD_LINE = /^\$SH,(\d+),CARD,([^,]+),([^,]+),/;

const keyOf = (message: Message) => {
  const { card: code, back } = message as CardMessage;
  return `${code}/${back}`;
};

/** Runs `scenario`; `folder` holds the shoe's outbox file for the run (removed after). */
export function runScenario(
  scenario: Scenario,
  key: ShoeKey,
  folder: string,
  traced = false,
  overtake = false,
): Outcome {
  const trace: string[] | undefined = traced ? [] : undefined;
  const log = trace === undefined ? undefined : (text: string) => trace.push(text);
  const root = createRandom(scenario.seed);
  const random = root.fork('run');
  const line = new SimulatedLine(root.fork('line'), log);
  line.faults = scenario.faults;
  line.overtake = overtake;
  const attacker =
    scenario.attacks === undefined
      ? undefined
      : new Attacker(
          root.fork('attacker'),
          (to, text, at) => line.write(to, text, at),
          HELLO_OF[scenario.mode],
          log,
        );
  /** A line either end writes: through the attacker when there is one, then the line. */
  const toLine = (to: 'host' | 'device', text: string) => {
    if (attacker === undefined) line.write(to, text, now);
    else attacker.passing(to, text, now);
  };
  const alarms: string[] = [];
  const paired = scenario.mode === 'paired';
  const outboxPath = join(folder, `outbox-${scenario.seed}.jsonl`);
  rmSync(outboxPath, { force: true });
  let now = 0;

  // ---------------------------------------------------------------- what is measured
  const accepted: string[] = [];
  const journaled: string[] = [];
  const journalRecords: TableLogRecord[] = [];
  const forgedLines = new Set<string>();
  const unauthenticated: string[] = [];
  const redelivered: string[] = [];
  /** Per seq of an event: transmissions, and the harm and connection starts when it was accepted. */
  const sends = new Map<
    number,
    { event: string; count: number; firstAt: number; harm: number; starts: number }
  >();
  const resends: Array<{ event: string; resends: number; allowed: number }> = [];
  /** Outages, and HELLOs and PROOFs written either way: each starts the connection over. */
  let starts = 0;
  /** The harm done and the starts so far when the shoe accepted each event. */
  const acceptedAt = new Map<string, { harm: number; starts: number }>();
  /** Genuine sealed lines the shoe wrote, for a forger to replay or tamper with. */
  const genuineCards: string[] = [];

  // ---------------------------------------------------------------- the shoe
  let outbox!: Outbox;
  let shoe!: DeviceEndpoint;
  let shoeOpen = false;
  const signings: Array<{ at: number; done: () => void }> = [];
  const newShoe = () => {
    outbox = new Outbox(outboxPath);
    const restored = outbox.restored;
    log?.(`${now} outbox read back: ${JSON.stringify(restored)}`);
    let current: DeviceEndpoint | undefined;
    shoe = deviceEndpoint({
      talker: 'SH',
      hello: HELLO_OF[scenario.mode],
      // A paired shoe knows its table: it takes sessions only from the host key it was given at pairing.
      ...(paired ? { publicKey: key.publicKey, hostKey: processHostKey().publicKey } : {}),
      ...(scenario.mode === 'stop-and-wait' ? { maxInFlight: 1 } : {}),
      ...(restored.nextSeq === undefined
        ? {}
        : { restore: { frames: restored.sent, nextSeq: restored.nextSeq } }),
      hooks: {
        write: (text, type) => {
          if (shoe !== current) return;
          const card = type === 'CARD' ? CARD_LINE.exec(text) : null;
          if (card !== null) {
            const seq = Number(card[1]);
            const entry = sends.get(seq);
            if (entry === undefined) {
              const event = `${card[2]}/${card[3]}`;
              const since = acceptedAt.get(event) ?? { harm: line.harmed, starts };
              sends.set(seq, { event: `${event} (seq ${seq})`, count: 1, firstAt: now, ...since });
            } else entry.count++;
            if (paired) genuineCards.push(text);
          }
          if (type === 'HELLO' || type === 'PROOF') starts++;
          toLine('host', text);
        },
        transmitted: (seq, type) => {
          if (shoe === current) outbox.transmitted(seq, type);
        },
        acked: (seq, type) => {
          if (shoe !== current) return;
          outbox.acked(seq);
          const entry = sends.get(seq);
          if (type !== 'CARD' || entry === undefined || entry.count < 0) return;
          const allowed = resendBound({
            waitedMs: now - entry.firstAt,
            harmed: line.harmed - entry.harm,
            starts: starts - entry.starts,
          });
          resends.push({ event: entry.event, resends: entry.count - 1, allowed });
          entry.count = -1;
        },
        sign: (digest, done) => {
          const owner = shoe;
          signings.push({
            at: now + SIGN_MS,
            done: () => {
              if (shoe === owner) done(key.signer.signNow(digest));
            },
          });
        },
      },
    });
    current = shoe;
    // As the firmware (firmware/shoe.ts): events read back that were never sent queue again
    // behind the restored ones, before the HELLO its line's opening sends.
    for (const message of restored.unsent) {
      outbox.queued(message);
      shoe.send(message, now);
    }
  };
  const shoeOpens = () => {
    shoeOpen = true;
    shoe.opened(now);
  };
  const shoeCloses = () => {
    shoeOpen = false;
    shoe.closed();
  };

  // ---------------------------------------------------------------- the host
  let host!: HostEndpoint;
  let hostOpen = false;
  let ledger!: ReceiveLedger;
  let dedupe!: RestartDedupe;
  let writes: Array<{ at: number; seq: number; record: TableLogRecord; key: string }> = [];
  /** Seqs the current host endpoint delivered since the shoe's last HELLO. */
  let sinceHello = new Set<number>();
  let hostNaks = 0;
  const newHost = () => {
    // `host` is unset before the first one.
    hostNaks += (host as HostEndpoint | undefined)?.naksSent ?? 0;
    ledger = new ReceiveLedger();
    dedupe = new RestartDedupe();
    for (const record of journalRecords) dedupe.remember(record);
    writes = [];
    sinceHello = new Set();
    let current: HostEndpoint | undefined;
    host = hostEndpoint({
      talker: 'SH',
      ...(paired ? { paired: key.publicKey } : {}),
      hooks: {
        write: (text, type) => {
          if (host !== current) return;
          if (type === 'HELLO') starts++;
          toLine('device', text);
        },
        alarm: (kind, message) => {
          if (host !== current) return;
          log?.(`${now} alarm ${kind}: ${message}`);
          alarms.push(`${kind}: ${message}`);
        },
        deliver: (seq, message, raw) => {
          if (host !== current) return;
          log?.(`${now} host delivers ${message.type} ${seq}`);
          if (message.type === 'HELLO') {
            ledger.hello(seq);
            sinceHello = new Set();
            return;
          }
          if (message.type !== 'CARD') return;
          // On a paired line only a frame with the session's MAC may pass: a forged one
          // (no MAC, a rogue's, a genuine one tampered with) never.
          if (forgedLines.has(raw) || (paired && !MAC_FIELD.test(raw))) {
            unauthenticated.push(`${seq} ${show(raw)}`);
          }
          if (sinceHello.has(seq)) redelivered.push(`${seq} at ${now}`);
          sinceHello.add(seq);
          // As the driver: the ledger first, then the daemon's restart dedupe, then the journal.
          const verdict = ledger.classify(seq, JSON.stringify(message));
          if (verdict === 'duplicate_durable') host.ack(seq, now);
          if (verdict !== 'new') return;
          const { card: code, back, face } = message;
          const record = {
            t: 'card',
            card: code,
            back,
            face,
            src: 'shoe',
            dseq: seq,
          } as TableLogRecord;
          if (dedupe.classify('shoe', seq, record) === 'already_journaled') {
            ledger.markDurable(seq);
            host.ack(seq, now);
            return;
          }
          writes.push({ at: now + JOURNAL_DELAY_MS, seq, record, key: keyOf(message) });
        },
      },
    });
    current = host;
  };
  const hostOpens = () => {
    hostOpen = true;
    host.opened(now);
  };

  // ---------------------------------------------------------------- what happens
  type Happening =
    | 'pull'
    | 'plug'
    | 'deadReopen'
    | 'restartShoe'
    | 'restartHost'
    | 'forge'
    | { attack: AttackMove };
  const schedule: Array<{ at: number; what: Happening }> = [];
  const at = (when: number, what: Happening) => {
    schedule.push({ at: when, what });
    schedule.sort((a, b) => a.at - b.at);
  };
  const pace = scenario.burst ? BURST_EVERY_MS : DEAL_EVERY_MS;
  const dealTime = scenario.events * pace;
  for (let pull = 0; pull < scenario.pulls; pull++) {
    const when = 1 + random.int(dealTime);
    const length = 5 + random.int(400);
    at(when, 'pull');
    for (let again = random.int(3); again > 0; again--)
      at(when + 1 + random.int(length), 'deadReopen');
    at(when + length, 'plug');
  }
  for (let restart = 0; restart < scenario.shoeRestarts; restart++) {
    at(1 + random.int(dealTime), 'restartShoe');
  }
  for (let restart = 0; restart < scenario.hostRestarts; restart++) {
    at(1 + random.int(dealTime), 'restartHost');
  }
  for (let burst = 0; burst < scenario.forgeries; burst++) at(1 + random.int(dealTime), 'forge');
  // After the shoe's first card, so that its HELLO and PROOF are there to replay.
  for (const move of scenario.attacks ?? []) at(2 * pace + random.int(dealTime), { attack: move });
  const rogueKey = Uint8Array.from({ length: 32 }, () => random.int(256));
  let hostNoticed = false;
  let shoeNoticed = false;

  const forge = () => {
    for (const forgery of forgeries(random, genuineCards, rogueKey)) {
      if (forgery.forged) forgedLines.add(forgery.line);
      log?.(`${now} forger writes ${show(forgery.line)}`);
      line.write('host', forgery.line, now);
    }
  };

  const happen = (what: Happening) => {
    if (typeof what === 'object') {
      attacker?.arm(what.attack, now);
      return;
    }
    log?.(`${now} ${what}`);
    switch (what) {
      case 'pull':
        if (!line.up) return;
        starts++;
        line.pull();
        hostNoticed = random.chance(0.5);
        shoeNoticed = random.chance(0.5);
        if (hostNoticed) {
          hostOpen = false;
          host.closed();
        }
        if (shoeNoticed) shoeCloses();
        return;
      case 'deadReopen':
        // The shoe's end opened while the host's was still gone: HELLO into the void.
        if (!line.up) {
          starts++;
          shoeOpens();
        }
        return;
      case 'plug':
        if (line.up) return;
        starts++;
        line.plug();
        shoeOpens();
        if (!hostOpen) hostOpens();
        return;
      case 'restartShoe':
        starts++;
        shoeCloses();
        outbox.close();
        log?.(`outbox file:\n${readFileSync(outboxPath, 'utf8')}`);
        line.restarted('device');
        newShoe();
        if (line.up) shoeOpens();
        return;
      case 'restartHost':
        starts++;
        host.closed();
        line.restarted('host');
        newHost();
        hostOpen = false;
        if (line.up) hostOpens();
        return;
      case 'forge':
        forge();
        return;
    }
  };

  // ---------------------------------------------------------------- virtual time
  const step = () => {
    for (const piece of line.takeDue(now)) {
      if (piece.to === 'host') {
        if (hostOpen) host.receive(piece.bytes, now);
      } else if (shoeOpen) shoe.receive(piece.bytes, now);
    }
    attacker?.tick(now);
    while (signings[0] !== undefined && signings[0].at <= now) signings.shift()!.done();
    // Both queues are in time order: each entry is due a fixed delay after it was made.
    while (writes[0] !== undefined && writes[0].at <= now) {
      const write = writes.shift()!;
      journaled.push(write.key);
      journalRecords.push(write.record);
      ledger.markDurable(write.seq);
      host.ack(write.seq, now);
    }
    if (nextPing <= now) {
      nextPing += PING_EVERY_MS;
      host.ping(`P${now}`, now);
    }
    // A tick before its deadline does nothing: skipped, as a timer would be.
    if ((shoe.nextDeadline() ?? Number.POSITIVE_INFINITY) <= now) shoe.tick(now);
    if ((host.nextDeadline() ?? Number.POSITIVE_INFINITY) <= now) host.tick(now);
  };
  let nextPing = PING_EVERY_MS;
  const nextEvent = (limit: number) => {
    let next = limit;
    for (const when of [
      line.nextAt(),
      attacker?.nextAt(),
      signings[0]?.at,
      writes[0]?.at,
      shoe.nextDeadline(),
      host.nextDeadline(),
      nextPing,
    ]) {
      if (when !== undefined && when < next) next = when;
    }
    return Math.max(now, next);
  };
  /** Runs everything due up to `limit`, or until `done` says so after a step. */
  const runUntil = (limit: number, done: () => boolean = () => false) => {
    for (;;) {
      const next = nextEvent(limit);
      if (next >= limit) break;
      now = next;
      step();
      if (done()) return;
    }
    now = limit;
    step();
  };

  newShoe();
  newHost();
  hostOpens();
  shoeOpens();
  let dealt = 0;
  const cleanAt = dealTime + pace;
  while (now < cleanAt) {
    const nextDeal = dealt < scenario.events ? (dealt + 1) * pace : cleanAt;
    runUntil(Math.min(schedule[0]?.at ?? cleanAt, nextDeal, cleanAt));
    while (schedule[0] !== undefined && schedule[0].at <= now) happen(schedule.shift()!.what);
    if (dealt < scenario.events && now >= (dealt + 1) * pace) {
      const message = card(dealt++);
      // Accepted once the outbox holds it: from here on it must reach the journal.
      outbox.queued(message);
      accepted.push(keyOf(message));
      // A line harmed just before counts too: a damaged ACK of the shoe's is NAKed by the seq
      // its next event takes.
      const recently = line.harmedAt.filter((at) => at > now - DEVICE_ACK_TIMEOUT_MS).length;
      acceptedAt.set(keyOf(message), { harm: line.harmed - recently, starts });
      log?.(`${now} shoe accepts ${keyOf(message)}`);
      shoe.send(message, now);
    }
  }
  // The line turns clean: plugged if it was out, both ends open, nothing more happens to it.
  line.faults = CLEAN;
  attacker?.stop(now);
  log?.(`${now} the line turns clean`);
  if (!line.up) happen('plug');
  if (!hostOpen) hostOpens();
  if (!shoeOpen) shoeOpens();
  const settled = () =>
    journaled.length >= accepted.length && shoe.backlog === 0 && outbox.outstanding === 0;
  runUntil(cleanAt + SETTLE_BOUND_MS, settled);
  const settledAfterMs = settled() ? now - cleanAt : undefined;
  log?.(
    `${now} end: journaled ${journaled.length} of ${accepted.length}, shoe backlog ${shoe.backlog}, outbox outstanding ${outbox.outstanding}, host ${host.authState}`,
  );
  outbox.close();
  log?.(`outbox file:\n${readFileSync(outboxPath, 'utf8')}`);
  rmSync(outboxPath, { force: true });
  rmSync(`${outboxPath}.tmp`, { force: true });
  return {
    scenario,
    accepted,
    journaled,
    settledAfterMs,
    unauthenticated,
    redelivered,
    resends,
    hostNaks: hostNaks + host.naksSent,
    harmed: line.harmed,
    alarms,
    attackerMoves: attacker?.tried ?? [],
    trace,
  };
}
