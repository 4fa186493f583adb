import { describe, expect, it } from 'vitest';
import { encodeFrame, type Frame, parseFrameLine } from '../../../device-protocol/frame.ts';
import {
  judgeAckTimeout,
  judgeCodecs,
  judgeFlood,
  judgeFrames,
  judgeHoldEvents,
  judgeSeqs,
  judgeWindow,
  type TraceEntry,
} from '../../../firmware-host/conformance/trace.ts';

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function device(at: number, seq: number, type: string, ...fields: string[]): TraceEntry {
  return { dir: 'in', at, event: { kind: 'frame', frame: { talker: 'SH', seq, type, fields } } };
}

function host(at: number, seq: number, type: string, ...fields: string[]): TraceEntry {
  const frame: Frame = { talker: 'HO', seq, type, fields };
  return { dir: 'out', at, line: encodeFrame(frame), frame };
}

const hello = (at: number, seq: number) =>
  device(at, seq, 'HELLO', 'TS-X', 'X1', '1.2', '1.0', SHA);

describe('the trace judges', () => {
  it('pass a well-behaved exchange', () => {
    const trace = [
      hello(0, 0),
      host(1, 0, 'ACK', '0'),
      device(2, 1, 'CARD', 'AS', 'red', 'down'),
      host(3, 1, 'ACK', '1'),
      device(4, 2, 'CARD', 'KH', 'red', 'down'),
      device(5, 3, 'CARD', '7D', 'red', 'down'),
      device(600, 2, 'CARD', 'KH', 'red', 'down'),
    ];
    expect(judgeHoldEvents(trace).status).toBe('pass');
    expect(judgeSeqs(trace).status).toBe('pass');
    expect(judgeWindow(trace, '1.2').status).toBe('pass');
    expect(judgeCodecs(trace, 'SH').status).toBe('pass');
    expect(judgeFlood(trace).status).toBe('pass');
  });

  it('name an event sent before the HELLO was ACKed, but not a copy of an older one', () => {
    const early = [hello(0, 0), device(1, 1, 'CARD', 'AS', 'red', 'down'), host(2, 0, 'ACK', '0')];
    expect(judgeHoldEvents(early)).toMatchObject({
      status: 'fail',
      detail: 'broken: $SH,1,CARD,AS,red,down before the host ACKed HELLO 0',
    });
    // A reconnect: HELLO 5, then the unACKed card 4 again at once (§ 3.7) is allowed.
    const replay = [
      hello(0, 3),
      host(1, 0, 'ACK', '3'),
      device(2, 4, 'CARD', 'AS', 'red', 'down'),
      hello(3, 5),
      device(4, 4, 'CARD', 'AS', 'red', 'down'),
    ];
    expect(judgeHoldEvents(replay).status).toBe('pass');
  });

  it('take a copy of a HELLO the host had ACKed as ACKed: it crossed the ACK on the wire', () => {
    // A 1.7 host that ACKed HELLO 5 with its CONFIRM challenges the copy again, and ACKs it no more.
    const crossed = [
      hello(0, 5),
      host(1, 0, 'ACK', '5'),
      hello(2, 5),
      device(3, 6, 'CARD', 'AS', 'red', 'down'),
    ];
    expect(judgeHoldEvents(crossed).status).toBe('pass');
    const unacked = [hello(0, 5), hello(600, 5), device(601, 6, 'CARD', 'AS', 'red', 'down')];
    expect(judgeHoldEvents(unacked).status).toBe('fail');
  });

  it('name a seq given to two different frames, ignoring a MAC and a restart at seq 0', () => {
    const reused = [
      hello(0, 0),
      device(1, 1, 'CARD', 'AS', 'red', 'down'),
      device(2, 1, 'CARD', 'KH', 'red', 'down'),
    ];
    expect(judgeSeqs(reused).detail).toBe(
      'broken: seq 1 reused: "SH,1,CARD,AS,red,down" then "SH,1,CARD,KH,red,down"',
    );
    const resealed = [
      device(1, 1, 'CARD', 'AS', 'red', 'down', '~AAAAAAAAAAAAAAAAAAAAAA'),
      device(2, 1, 'CARD', 'AS', 'red', 'down', '~BBBBBBBBBBBBBBBBBBBBBB'),
      hello(3, 0),
      device(4, 1, 'CARD', 'KH', 'red', 'down'),
    ];
    expect(judgeSeqs(resealed).status).toBe('pass');
  });

  it('hold a device to one event alone after its HELLO, and to one in flight below 1.2', () => {
    const burst = [
      hello(0, 0),
      host(1, 0, 'ACK', '0'),
      device(2, 1, 'CARD', 'AS', 'red', 'down'),
      device(3, 2, 'CARD', 'KH', 'red', 'down'),
    ];
    expect(judgeWindow(burst, '1.2').detail).toMatch(
      /\$SH,2,CARD,KH,red,down made 2 events unACKed, 1 allowed \(one alone after a HELLO/,
    );
    const opened = [
      ...burst.slice(0, 3),
      host(3, 1, 'ACK', '1'),
      device(4, 2, 'CARD', 'KH', 'red', 'down'),
      device(5, 3, 'CARD', '7D', 'red', 'down'),
    ];
    expect(judgeWindow(opened, '1.2').status).toBe('pass');
    expect(judgeWindow(opened, '1.0').status).toBe('fail');
  });

  it('forget the events a device had in flight when it restarts (HELLO at seq 0), not when it reconnects', () => {
    // A 1.0 shoe whose line reopens and which restarts with it (§ 3.7: it lost its
    // unacknowledged card, and the host drops it): its new card is alone in flight.
    const hello10 = (at: number, seq: number) =>
      device(at, seq, 'HELLO', 'TS-X', 'X1', '1.0', '1.0', SHA);
    const beforeTheReopen = [
      hello10(0, 0),
      host(1, 0, 'ACK', '0'),
      device(2, 1, 'ACK', '1'),
      device(3, 5, 'CARD', 'KH', 'red', 'down'),
      { dir: 'mark', at: 4, what: 'reopened' } as const,
    ];
    const restarted = [
      ...beforeTheReopen,
      hello10(5, 0),
      host(6, 2, 'ACK', '0'),
      device(7, 2, 'CARD', 'AS', 'red', 'down'),
    ];
    expect(judgeWindow(restarted, '1.0')).toMatchObject({ status: 'pass' });
    // A device that kept counting (its HELLO at 6) still has card 5 in flight.
    const reconnected = [
      ...beforeTheReopen,
      hello10(5, 6),
      host(6, 2, 'ACK', '6'),
      device(7, 7, 'CARD', 'AS', 'red', 'down'),
    ];
    expect(judgeWindow(reconnected, '1.0').detail).toMatch(
      /^broken: \$SH,7,CARD,AS,red,down made 2 events unACKed, 1 allowed/,
    );
  });

  it('name a line sent more than ten times in a second', () => {
    const trace = [hello(0, 0)];
    for (let copy = 0; copy < 12; copy++)
      trace.push(device(10 + copy, 1, 'CARD', 'AS', 'red', 'down'));
    expect(judgeFlood(trace).detail).toBe('sent $SH,1,CARD,AS,red,down 12 times within one second');
  });

  it('name unreadable lines, stray bytes and invalid messages', () => {
    const bad = parseFrameLine('$SH,1,CARD,AS,red,down*0000');
    const trace: TraceEntry[] = [
      { dir: 'in', at: 0, event: bad },
      {
        dir: 'in',
        at: 1,
        event: { kind: 'discard', reason: 'no_start', raw: 'boot v1', detail: '' },
      },
      device(2, 2, 'CARD', 'ZZ', 'red', 'down'),
      {
        dir: 'in',
        at: 3,
        event: { kind: 'frame', frame: { talker: 'SF', seq: 3, type: 'CUT', fields: [] } },
      },
    ];
    const [frames, stray] = judgeFrames(trace);
    expect(frames!.status).toBe('fail');
    expect(frames!.detail).toMatch(/^1 of 3 lines unreadable; first: bad_crc/);
    expect(stray).toMatchObject({
      status: 'fail',
      required: false,
      detail: 'bytes outside a frame: "boot v1"',
    });
    const codecs = judgeCodecs(trace, 'SH');
    expect(codecs.status).toBe('fail');
    expect(codecs.detail).toMatch(/^2 times broken; first: \$SH,2,CARD,ZZ,red,down: /);
  });
});

describe('the ACK timeout judge', () => {
  const card = (at: number) => device(at, 1, 'CARD', 'AS', 'red', 'down');

  it("names a line sent again sooner than the host's 500 ms, unasked", () => {
    expect(judgeAckTimeout([hello(0, 0), card(10), card(310)])).toMatchObject({
      status: 'fail',
      required: false,
      detail:
        'sent $SH,1,CARD,AS,red,down again 300 ms after the last copy: the host waits 500 ms, a device as long or longer',
    });
    expect(judgeAckTimeout([hello(0, 0), card(10), card(530)]).status).toBe('pass');
  });

  it('does not count a copy a NAK or a HELLO asked for', () => {
    expect(judgeAckTimeout([card(10), host(20, 3, 'NAK', '1', 'bad_crc'), card(25)]).status).toBe(
      'pass',
    );
    expect(judgeAckTimeout([card(10), host(20, 3, 'HELLO'), card(25)]).status).toBe('pass');
    expect(judgeAckTimeout([card(10), hello(20, 2), card(25)]).status).toBe('pass');
  });
});

describe('the ACK timeout judge after a HELLO', () => {
  const card = (at: number) => device(at, 1, 'CARD', 'AS', 'red', 'down');

  it("does not count the copies the host's ACK of a HELLO asked for", () => {
    // The copy at 25 may have crossed the ACK on the wire, the one at 30 answer it; not a third.
    expect(
      judgeAckTimeout([
        card(10),
        hello(20, 2),
        host(22, 4, 'ACK', '2'),
        card(25),
        card(30),
        card(35),
      ]),
    ).toMatchObject({ status: 'fail', detail: expect.stringMatching(/ 5 ms after the last copy/) });
    expect(
      judgeAckTimeout([card(10), hello(300, 2), host(320, 4, 'ACK', '2'), card(325)]).status,
    ).toBe('pass');
  });

  it("times a copy from when the device could have read the host's HELLO, not from its write", () => {
    // The device's timer sent the card at 600 while the host's HELLO was on its way; reading
    // the HELLO, it ACKs it and sends the card again at once (§ 3.4, § 6.1 D15).
    const crossed = [
      hello(0, 0),
      host(1, 0, 'ACK', '0'),
      card(100),
      host(599, 1, 'HELLO', 'tableside', 'conformance', '1.5', '1.0', SHA),
      card(600),
      device(601, 2, 'ACK', '1'),
      card(602),
    ];
    expect(judgeAckTimeout(crossed)).toMatchObject({ status: 'pass' });
    // Once the device has ACKed the HELLO it has read it: a copy 1 ms after the answer is early.
    const afterTheAck = [...crossed.slice(0, 4), device(600, 2, 'ACK', '1'), card(601), card(602)];
    expect(judgeAckTimeout(afterTheAck)).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/again 1 ms after the last copy/),
    });
  });
});
