/**
 * The suite against a shoe written from PROTOCOL.md alone (not our link
 * session, not our simulators), over a real TCP socket: without a mistake it
 * conforms; with one, the run fails and names the check that caught it and
 * what the device did, and always ends with a verdict (never a hang).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { CheckId } from '../../../firmware-host/conformance/checks.ts';
import type { ConformanceReport } from '../../../firmware-host/conformance/report.ts';
import { runConformance } from '../../../firmware-host/conformance/suite.ts';
import { openTransport } from '../../../hardware/transports/url.ts';
import { HandWrittenDevice, type Mistake } from './hand-written-device.ts';

/** Devices still running: a case that timed out left its device here for afterAll. */
const running = new Set<HandWrittenDevice>();
afterAll(async () => {
  for (const device of running) await device.stop();
});

/** Each case has its device of its own on a port of its own, so the cases run side by side. */
async function conformanceOf(mistake: Mistake): Promise<ConformanceReport> {
  const device = new HandWrittenDevice(mistake);
  running.add(device);
  try {
    const link = await device.listen();
    return await runConformance({
      link,
      transport: openTransport(link),
      scripted: true,
      talker: 'SH',
    });
  } finally {
    running.delete(device);
    await device.stop();
  }
}

function statusOf(report: ConformanceReport, id: CheckId) {
  const result = report.results.find((candidate) => candidate.id === id);
  if (result === undefined) throw new Error(`no result for ${id}`);
  return result;
}

function failedRequired(report: ConformanceReport): string[] {
  return report.results
    .filter((result) => result.required && result.status !== 'pass')
    .map((result) => result.id);
}

// The cases share nothing (a device, a port and a run each) and mostly wait on the suite's
// timeouts, which is what a broken device is for: side by side, the file takes as long as its
// slowest case instead of the sum of them.
describe.concurrent('a hand-written shoe', () => {
  it('conforms when it makes no mistake', async () => {
    const report = await conformanceOf('none');
    expect(failedRequired(report), JSON.stringify(report.results, null, 1)).toEqual([]);
    expect(report.conforms).toBe(true);
    expect(report.device.model).toBe('TS-HAND-1');
    // A 1.0 device: the 1.4 handshake is not for it, and the run says so.
    expect(statusOf(report, 'auth').status).toBe('skip');
  }, 120_000);

  it('with a bad CRC on its cards fails the frame check, naming bad_crc', async () => {
    const report = await conformanceOf('bad-crc');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'frames')).toMatchObject({ status: 'fail' });
    expect(statusOf(report, 'frames').detail).toContain('bad_crc');
    expect(statusOf(report, 'frames').detail).toContain('$SH,');
  }, 120_000);

  it('that never retransmits fails the HELLO and the event retransmission checks', async () => {
    const report = await conformanceOf('no-retransmit');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'hello-retransmit').status).toBe('fail');
    expect(statusOf(report, 'hello-retransmit').detail).toMatch(
      /no second copy of HELLO \d+ within/,
    );
    expect(statusOf(report, 'retransmit').status).toBe('fail');
    expect(statusOf(report, 'hello').status).toBe('pass');
  }, 120_000);

  it('that reuses a seq for its next card fails the seq check, naming both frames', async () => {
    const report = await conformanceOf('reused-seq');
    expect(report.conforms).toBe(false);
    const seq = statusOf(report, 'seq');
    expect(seq.status).toBe('fail');
    expect(seq.detail).toMatch(
      /seq \d+ reused: "SH,\d+,CARD,AS,red,down" then "SH,\d+,CARD,KH,red,down"/,
    );
  }, 120_000);

  it("that sends a card before its HELLO's ACK fails the hold-events check", async () => {
    const report = await conformanceOf('early-events');
    expect(report.conforms).toBe(false);
    const hold = statusOf(report, 'hold-events');
    expect(hold.status).toBe('fail');
    expect(hold.detail).toMatch(/\$SH,\d+,CARD,AS,red,down before the host ACKed HELLO 0/);
  }, 120_000);

  it('that stays silent fails the HELLO check, says it heard nothing, and skips the rest', async () => {
    const report = await conformanceOf('silent');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'hello')).toMatchObject({ status: 'fail' });
    expect(statusOf(report, 'hello').detail).toContain('the device sent nothing');
    expect(statusOf(report, 'ping')).toMatchObject({ status: 'skip', required: true });
    expect(report.verdict).toMatch(/^DOES NOT CONFORM/);
  }, 120_000);

  it('that answers garbage fails the HELLO and frame checks, naming the unreadable lines', async () => {
    const report = await conformanceOf('garbage');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'hello').detail).toMatch(/unreadable \((malformed|bad_crc)\)/);
    expect(statusOf(report, 'frames').status).toBe('fail');
    expect(statusOf(report, 'stray-bytes').status).toBe('fail');
  }, 120_000);

  it('that hangs up mid-suite fails the check it was in, names the closed line and ends', async () => {
    const report = await conformanceOf('disconnect');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'host-hello').status).toBe('pass');
    expect(statusOf(report, 'ping').status).toBe('fail');
    expect(statusOf(report, 'ping').detail).toMatch(/the line closed while waiting for/);
    expect(statusOf(report, 'duplicate')).toMatchObject({ status: 'skip', required: true });
    expect(statusOf(report, 'duplicate').detail).toMatch(
      /not run: the line closed .* did not reopen/,
    );
  }, 120_000);

  it('that restarts when its line reopens fails the reconnect check, and the window check does not count the card it lost', async () => {
    const report = await conformanceOf('restarts-on-reopen');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'reconnect').status).toBe('fail');
    // § 3.7: the restart lost the card in flight; its next card is alone in flight.
    expect(statusOf(report, 'window'), statusOf(report, 'window').detail).toMatchObject({
      status: 'pass',
    });
    expect(failedRequired(report)).toEqual(['reconnect']);
  }, 120_000);

  it('that floods copies of its cards fails the flood check, naming the line', async () => {
    const report = await conformanceOf('flood');
    expect(report.conforms).toBe(false);
    expect(statusOf(report, 'no-flood').status).toBe('fail');
    expect(statusOf(report, 'no-flood').detail).toMatch(
      /sent \$SH,\d+,CARD,AS,red,down \d+ times within one second/,
    );
  }, 120_000);
});
