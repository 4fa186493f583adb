/**
 * PROTOCOL.md § 6: both state tables, row by row, against the reference
 * endpoint (through `endpoint-under-test.ts`). For each row the test drives
 * a fresh endpoint into the row's state, applies the row's event, compares
 * what it wrote and delivered with the row's action, then checks by its
 * behaviour that the endpoint is in the row's next state.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  type HelloMessage,
  type Message,
  messageFrame,
} from '../../../device-protocol/messages.ts';
import {
  challengeLine,
  type DeviceHandshake,
  type DeviceSigner,
  type DeviceUnderTest,
  deviceHandshake,
  deviceUnderTest,
  type HostUnderTest,
  hostAuthFor,
  hostUnderTest,
  newDeviceKey,
  type Output,
} from './endpoint-under-test.ts';

const spec = readFileSync(new URL('../../../device-protocol/PROTOCOL.md', import.meta.url), 'utf8');

interface Row {
  readonly id: string;
  readonly device: string;
  readonly state: string;
  readonly event: string;
  readonly action: string[];
  readonly next: string;
}

/** The rows of the table in `section` (`6.1`, `6.2`): backticked cells are names. */
function tableOf(section: string): Row[] {
  const start = spec.indexOf(`### ${section} `);
  const end = spec.slice(start + 1).search(/\n##+ /);
  const text = spec.slice(start, end === -1 ? undefined : start + 1 + end);
  return text
    .split('\n')
    .filter((line) => /^\| [DH][0-9]+ /.test(line))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((cell) => cell.trim());
      const names = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
      return {
        id: cells[0]!,
        device: cells[1]!,
        state: names(cells[2]!)[0]!,
        event: names(cells[3]!)[0]!,
        action: names(cells[4]!),
        next: names(cells[5]!)[0]!,
      };
    });
}

/** `write NAK hello`, `write CARD ×3`, `deliver CARD ×3` -> the written and delivered sequences. */
function expected(action: readonly string[]): { written: string[]; delivered: string[] } {
  const written: string[] = [];
  const delivered: string[] = [];
  for (const token of action) {
    if (token === 'nothing') continue;
    const match = /^(write|deliver) (.+?)(?: ×([0-9]+))?$/.exec(token);
    if (match === null) throw new Error(`an action PROTOCOL.md § 6 does not define: ${token}`);
    const times = Number(match[3] ?? 1);
    for (let i = 0; i < times; i++) (match[1] === 'write' ? written : delivered).push(match[2]!);
  }
  return { written, delivered };
}

/** A written line as the tables name it: its type, and a NAK's reason. */
function nameOf(line: string): string {
  const event = parseFrameLine(`${line}\r\n`);
  if (event.kind !== 'frame') throw new Error(`the endpoint wrote a bad line: ${line}`);
  return event.frame.type === 'NAK' ? `NAK ${event.frame.fields[1]}` : event.frame.type;
}

function seqOf(line: string): number {
  const event = parseFrameLine(`${line}\r\n`);
  if (event.kind !== 'frame') throw new Error(line);
  return event.frame.seq;
}

function lineOf(frame: Frame): string {
  return encodeFrame(frame).trimEnd();
}

function badCrc(line: string): string {
  const crc = line.slice(-4);
  return `${line.slice(0, -4)}${crc === '0000' ? '0001' : '0000'}`;
}

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const helloOf = (protocol: string, model = 'TS-SHOE-2', serial = 'SH0042'): HelloMessage => ({
  type: 'HELLO',
  model,
  serial,
  protocol,
  firmware: '2.3.1',
  firmwareSha256: SHA,
});
const CARDS = ['AS', 'KH', '7D', '2C', '9S', 'TH', 'JD', '4C', 'QS', '3H', '5D', '8C'] as const;
const cardOf = (index: number): Message => ({
  type: 'CARD',
  card: CARDS[index % CARDS.length]!,
  back: 'red',
  face: 'down',
});

// ---------------------------------------------------------------- the device (§ 6.1)

const WINDOW = 3;

class DeviceRig {
  readonly dut: DeviceUnderTest;
  now = 0;
  #hostSeq = 100;
  #dealt = 0;
  /** CARD seqs the device wrote that the rig has not ACKed, oldest first. */
  readonly unacked: number[] = [];
  helloSeq: number | undefined;
  #helloLine: string | undefined;
  #host: ReturnType<typeof hostAuthFor> | undefined;
  #proof: string | undefined;
  lastCard: string | undefined;
  #command: string | undefined;

  private constructor(
    readonly config: string,
    key: DeviceSigner | undefined,
  ) {
    this.dut = deviceUnderTest({
      hello: helloOf(config === '1.1' ? '1.1' : config === '1.2 W=3' ? '1.2' : '1.7'),
      window: config === '1.1' ? 1 : WINDOW,
      ...(key === undefined ? {} : { key }),
    });
  }

  static async create(config: string): Promise<DeviceRig> {
    return new DeviceRig(config, config === '1.7 keyed' ? await newDeviceKey() : undefined);
  }

  #seen(output: Output): Output {
    for (const line of output.written) {
      const type = nameOf(line);
      if (type === 'HELLO') {
        this.helloSeq = seqOf(line);
        this.#helloLine = line;
      }
      if (type === 'CARD') {
        this.lastCard = line;
        if (!this.unacked.includes(seqOf(line))) this.unacked.push(seqOf(line));
      }
    }
    return output;
  }

  #step(): number {
    this.now += 1;
    return this.now;
  }

  open(): Output {
    return this.#seen(this.dut.open(this.#step()));
  }
  queue(): Output {
    return this.#seen(this.dut.send(cardOf(this.#dealt++), this.#step()));
  }
  receive(line: string): Output {
    return this.#seen(this.dut.receive(line, this.#step()));
  }
  after(ms: number): Output {
    this.now += ms;
    return this.#seen(this.dut.tick(this.now));
  }
  host(message: Message): string {
    return lineOf(messageFrame('HO', this.#hostSeq++, message));
  }
  ack(seq: number): Output {
    const index = this.unacked.indexOf(seq);
    if (index >= 0) this.unacked.splice(index, 1);
    return this.receive(this.host({ type: 'ACK', ackedSeq: seq }));
  }
  ackOldest(): Output {
    return this.ack(this.unacked[0]!);
  }
  command(): Output {
    this.#command = this.host({ type: 'INDICATE', light: 'red', mode: 'on' });
    return this.receive(this.#command);
  }
  commandAgain(): Output {
    this.command();
    return this.receive(this.#command!);
  }
  /** A stale CHALLENGE (no host asked for it): its nonce and X25519 key are fresh. */
  staleChallenge(): Output {
    return this.receive(challengeLine());
  }
  /** The host's CHALLENGE of the device's HELLO, from a real host (HostAuth). */
  challenge(): Output {
    this.#host = hostAuthFor(this.#helloLine!);
    const output = this.receive(this.#host.challenge);
    this.#proof = output.written.find((line) => nameOf(line) === 'PROOF');
    return output;
  }
  /** That host's CONFIRM of the device's PROOF. */
  confirm(): Output {
    return this.receive(this.#host!.confirm(this.#proof!));
  }
}

const DEVICE_STATES: Record<string, (rig: DeviceRig) => void> = {
  connecting: (rig) => {
    rig.open();
    if (rig.config === '1.2 W=3') rig.receive(rig.host(helloOf('1.2', 'tableside', 'pi-table-07')));
    rig.queue();
  },
  stop_and_wait: (rig) => {
    DEVICE_STATES.connecting!(rig);
    rig.ack(rig.helloSeq!);
    rig.queue();
  },
  slow_start: (rig) => {
    DEVICE_STATES.connecting!(rig);
    rig.ack(rig.helloSeq!);
    for (let i = 0; i < WINDOW; i++) rig.queue();
  },
  window: (rig) => {
    DEVICE_STATES.slow_start!(rig);
    rig.ackOldest();
    rig.queue();
  },
  awaiting_challenge: (rig) => {
    DEVICE_STATES.connecting!(rig);
    rig.ack(rig.helloSeq!);
  },
  awaiting_confirm: (rig) => {
    DEVICE_STATES.awaiting_challenge!(rig);
    rig.challenge();
  },
  authenticated: (rig) => {
    DEVICE_STATES.awaiting_confirm!(rig);
    rig.confirm();
  },
};

const DEVICE_EVENTS: Record<string, (rig: DeviceRig) => Output> = {
  'event queued': (rig) => rig.queue(),
  timeout: (rig) => rig.after(10_000),
  'HELLO ACKed': (rig) => rig.ack(rig.helloSeq!),
  'event ACKed': (rig) => rig.ackOldest(),
  'NAK naming the event': (rig) =>
    rig.receive(rig.host({ type: 'NAK', nakedSeq: rig.unacked[0]!, reason: 'bad_crc' })),
  'ACK of an unknown seq': (rig) => rig.ack(9999),
  'host command': (rig) => rig.command(),
  'host command again': (rig) => rig.commandAgain(),
  PING: (rig) => rig.receive(rig.host({ type: 'PING', token: 't1' })),
  'bad line': (rig) => rig.receive(badCrc(rig.host({ type: 'GATE', action: 'lock' }))),
  'NAK hello': (rig) =>
    rig.receive(rig.host({ type: 'NAK', nakedSeq: rig.unacked[0]!, reason: 'hello' })),
  'line reopens': (rig) => rig.open(),
  'host HELLO': (rig) => rig.receive(rig.host(helloOf('1.1', 'tableside', 'pi-table-07'))),
  'NAK without seq': (rig) => rig.receive(rig.host({ type: 'NAK', reason: 'malformed' })),
  'NAK missing, seq forgotten': (rig) =>
    rig.receive(rig.host({ type: 'NAK', nakedSeq: rig.helloSeq!, reason: 'missing' })),
  CHALLENGE: (rig) => rig.challenge(),
  'stale CHALLENGE': (rig) => rig.staleChallenge(),
  CONFIRM: (rig) => rig.confirm(),
  'no CONFIRM for 3 s': (rig) => rig.after(3_000),
  'no CHALLENGE for 3 s': (rig) => rig.after(3_000),
  'host command unsealed': (rig) => rig.command(),
};

const types = (output: Output) => output.written.map(nameOf);

/** Each next state, told apart by what the device does next. */
const DEVICE_PROBES: Record<string, (rig: DeviceRig) => void> = {
  connecting: (rig) => {
    expect(types(rig.after(10_000)), 'its HELLO is still unACKed').toContain('HELLO');
  },
  stop_and_wait: (rig) => {
    expect(types(rig.after(10_000)), 'its HELLO was ACKed').not.toContain('HELLO');
    for (let i = 0; i < 3; i++) rig.queue();
    expect(rig.unacked, 'one event in flight').toHaveLength(1);
    rig.ackOldest();
    expect(rig.unacked, 'still one: stop and wait').toHaveLength(1);
  },
  slow_start: (rig) => {
    expect(types(rig.after(10_000)), 'its HELLO was ACKed').not.toContain('HELLO');
    for (let i = 0; i < WINDOW; i++) rig.queue();
    expect(rig.unacked, 'one event alone').toHaveLength(1);
    rig.ackOldest();
    expect(rig.unacked, 'then the window').toHaveLength(WINDOW);
  },
  window: (rig) => {
    expect(types(rig.after(10_000)), 'its HELLO was ACKed').not.toContain('HELLO');
    for (let i = 0; i <= WINDOW; i++) rig.queue();
    expect(rig.unacked, 'the window is full').toHaveLength(WINDOW);
  },
  awaiting_challenge: (rig) => {
    const waiting = rig.after(1_000);
    expect(types(waiting), 'nothing goes before the CHALLENGE').toEqual([]);
    expect(types(rig.queue()), 'events wait for the session keys').toEqual([]);
    expect(types(rig.challenge())).toContain('PROOF');
  },
  awaiting_confirm: (rig) => {
    expect(types(rig.queue()), 'events wait for the CONFIRM').toEqual([]);
    expect(types(rig.after(3_000)), 'no CONFIRM: it asks again with a HELLO').toContain('HELLO');
  },
  authenticated: (rig) => {
    expect(rig.lastCard, 'its events carry a MAC').toMatch(/,~[A-Za-z0-9_-]{22}\*/);
    const unsealed = rig.command();
    expect(unsealed, 'a host frame without a MAC is refused').toEqual({
      written: [],
      delivered: [],
    });
  },
};

// ---------------------------------------------------------------- the host (§ 6.2)

class HostRig {
  readonly dut: HostUnderTest;
  now = 0;
  /** The device's next seq. */
  seq = 0;
  /** The seq left out by `event past a gap`, until `missing event`. */
  gap: number | undefined;
  readonly #held: string[] = [];
  #lastEvent: string | undefined;
  /** The device's side of the handshake, to answer the host's CHALLENGE and seal events. */
  readonly #device: DeviceHandshake;
  #proof: string | undefined;
  #helloLine: string | undefined;

  private constructor(
    readonly config: string,
    key: DeviceSigner,
  ) {
    const paired = config === 'paired';
    this.dut = hostUnderTest({ talker: 'SH', ...(paired ? { paired: key.publicKey } : {}) });
    this.#device = deviceHandshake(paired ? key : undefined);
  }

  static async create(config: string): Promise<HostRig> {
    return new HostRig(config, await newDeviceKey());
  }

  #seen(output: Output): Output {
    for (const line of output.written) {
      const type = nameOf(line);
      if (type === 'ACK') this.#device.helloAcked(this.now);
      if (type === 'CHALLENGE') this.#proof = this.#device.challenged(line) ?? this.#proof;
      if (type === 'CONFIRM') this.#device.confirmed(line);
    }
    return output;
  }

  receive(line: string): Output {
    this.now += 1;
    return this.#seen(this.dut.receive(line, this.now));
  }
  after(ms: number): Output {
    this.now += ms;
    return this.#seen(this.dut.tick(this.now));
  }
  hello(protocol: string): Output {
    const line = lineOf(messageFrame('SH', this.seq++, helloOf(protocol)));
    if (protocol === '1.7') {
      this.#helloLine = line;
      this.#device.helloSent(line);
    }
    return this.receive(line);
  }
  /** The device's proven HELLO once more: a copy a man in the middle replays. */
  helloAgain(): Output {
    return this.receive(this.#helloLine!);
  }
  cardLine(seq: number): string {
    return lineOf(messageFrame('SH', seq, cardOf(seq)));
  }
  event(): Output {
    this.#lastEvent = this.cardLine(this.seq++);
    return this.receive(this.#lastEvent);
  }
  eventAgain(): Output {
    this.event();
    return this.receive(this.#lastEvent!);
  }
  pastAGap(): Output {
    if (this.gap === undefined) this.gap = this.seq++;
    const line = this.cardLine(this.seq++);
    this.#held.push(line);
    return this.receive(line);
  }
  missing(): Output {
    const gap = this.gap!;
    this.gap = undefined;
    return this.receive(this.cardLine(gap));
  }
  /** Past the most the host holds: it stops waiting for the missing seq (§ 3.8). */
  farPastTheGap(): Output {
    this.seq = this.gap! + 65;
    this.gap = undefined;
    return this.receive(this.cardLine(this.seq++));
  }
  heldAgain(): Output {
    return this.receive(this.#held.at(-1)!);
  }
  proof(): Output {
    expect(this.#proof, 'the host sent a CHALLENGE the device answered').toBeDefined();
    return this.receive(this.#proof!);
  }
  proofNone(): Output {
    return this.receive(lineOf({ talker: 'SH', seq: 0, type: 'PROOF', fields: ['none'] }));
  }
  sealedEvent(): Output {
    return this.receive(this.#device.seal(this.cardLine(this.seq++), 'CARD'));
  }
}

const HOST_STATES: Record<string, (rig: HostRig) => void> = {
  no_hello: () => undefined,
  ready: (rig) => {
    rig.hello('1.1');
  },
  in_order: (rig) => {
    rig.hello('1.2');
    rig.event();
  },
  holding: (rig) => {
    HOST_STATES.in_order!(rig);
    rig.pastAGap();
    rig.pastAGap();
  },
  challenging: (rig) => {
    rig.hello('1.7');
  },
  authenticated: (rig) => {
    rig.hello('1.7');
    rig.proof();
  },
};

const HOST_EVENTS: Record<string, (rig: HostRig) => Output> = {
  event: (rig) => rig.event(),
  'event again': (rig) => rig.eventAgain(),
  PING: (rig) => rig.receive(lineOf(messageFrame('SH', rig.seq++, { type: 'PING', token: 'p1' }))),
  'HELLO 1.1': (rig) => rig.hello('1.1'),
  'HELLO 1.2': (rig) => rig.hello('1.2'),
  'HELLO 1.7': (rig) => rig.hello('1.7'),
  'HELLO 1.6': (rig) => rig.hello('1.6'),
  'HELLO again': (rig) => rig.helloAgain(),
  'PROOF of the ACKed HELLO': (rig) => rig.proof(),
  'bad line': (rig) => rig.receive(badCrc(rig.cardLine(rig.seq))),
  'line reopens': (rig) => rig.dut.reopen(rig.now),
  'event past a gap': (rig) => rig.pastAGap(),
  'missing event': (rig) => rig.missing(),
  'event 65 past the gap': (rig) => rig.farPastTheGap(),
  'held event again': (rig) => rig.heldAgain(),
  'held event again, late': (rig) => {
    rig.now += 1_000;
    return rig.heldAgain();
  },
  timeout: (rig) => rig.after(600),
  PROOF: (rig) => rig.proof(),
  'PROOF after a dropped event': (rig) => {
    rig.event();
    return rig.proof();
  },
  'PROOF none': (rig) => rig.proofNone(),
  'sealed event': (rig) => rig.sealedEvent(),
};

const delivered = (output: Output) => output.delivered.map((message) => message.type);

const HOST_PROBES: Record<string, (rig: HostRig) => void> = {
  no_hello: (rig) => {
    const output = rig.event();
    expect(types(output), 'an event before a HELLO is NAKed hello').toEqual(['NAK hello']);
    expect(delivered(output)).toEqual([]);
  },
  ready: (rig) => {
    rig.seq += 5;
    const output = rig.event();
    expect(delivered(output), 'taken as it comes, whatever its seq').toEqual(['CARD']);
    expect(types(output)).toEqual(['ACK']);
  },
  in_order: (rig) => {
    expect(delivered(rig.event()), 'the next seq is taken').toEqual(['CARD']);
    const held = rig.pastAGap();
    expect(delivered(held), 'one past a gap is held').toEqual([]);
    expect(types(held)).toEqual(['NAK missing']);
  },
  holding: (rig) => {
    expect(delivered(rig.missing()).length, 'the missing one brings the held ones').toBeGreaterThan(
      1,
    );
  },
  challenging: (rig) => {
    expect(rig.event(), 'events wait for the PROOF').toEqual({ written: [], delivered: [] });
    expect(types(rig.after(600))).toEqual(['CHALLENGE']);
  },
  authenticated: (rig) => {
    const output = rig.sealedEvent();
    expect(delivered(output)).toEqual(['CARD']);
    expect(output.written[0], 'its ACK is sealed').toMatch(/,~[A-Za-z0-9_-]{22}\*/);
  },
  unproven: (rig) => {
    expect(delivered(rig.event()), 'taken without a MAC').toEqual(['CARD']);
  },
  quarantined: (rig) => {
    expect(delivered(rig.event()), 'nothing it sends is delivered').toEqual([]);
    expect(delivered(rig.sealedEvent())).toEqual([]);
  },
};

// ---------------------------------------------------------------- the rows

function check(row: Row, output: Output): void {
  const want = expected(row.action);
  expect(types(output), `${row.id}: what it writes`).toEqual(want.written);
  expect(delivered(output), `${row.id}: what it delivers`).toEqual(want.delivered);
}

const deviceRows = tableOf('6.1');
const hostRows = tableOf('6.2');

describe('PROTOCOL.md § 6.1, the device state table, against the device endpoint', () => {
  it('has its rows', () => expect(deviceRows.length).toBeGreaterThan(20));

  it.each(deviceRows.map((row) => [row.id, row] as const))('%s', async (_, row) => {
    const rig = await DeviceRig.create(row.device);
    const drive = DEVICE_STATES[row.state];
    const event = DEVICE_EVENTS[row.event];
    const probe = DEVICE_PROBES[row.next];
    expect(drive, `state ${row.state}`).toBeDefined();
    expect(event, `event ${row.event}`).toBeDefined();
    expect(probe, `next state ${row.next}`).toBeDefined();
    drive!(rig);
    check(row, event!(rig));
    probe!(rig);
  });
});

describe('PROTOCOL.md § 6.2, the host state table, against the host endpoint', () => {
  it('has its rows', () => expect(hostRows.length).toBeGreaterThan(20));

  it.each(hostRows.map((row) => [row.id, row] as const))('%s', async (_, row) => {
    const rig = await HostRig.create(row.device);
    const drive = HOST_STATES[row.state];
    const event = HOST_EVENTS[row.event];
    const probe = HOST_PROBES[row.next];
    expect(drive, `state ${row.state}`).toBeDefined();
    expect(event, `event ${row.event}`).toBeDefined();
    expect(probe, `next state ${row.next}`).toBeDefined();
    drive!(rig);
    check(row, event!(rig));
    probe!(rig);
  });
});
