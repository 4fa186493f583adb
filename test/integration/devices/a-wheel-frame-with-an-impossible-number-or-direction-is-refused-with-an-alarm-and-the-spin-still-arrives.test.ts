/**
 * A wheel written by hand from PROTOCOL.md § 7.5 (its own CRC, no production
 * codec) talks to the real wheel driver over an in-memory wire. A frame with
 * a direction the protocol lacks or a number off the wheel is ACKed (its CRC
 * was fine), raised as a device_fault alarm naming the field, and stores
 * nothing; line noise is NAKed or dropped; the spin that follows still
 * arrives whole, and its RESULT is ACKed only once the caller has stored it.
 * It announces 1.5 on an unpaired line: from protocol 1.7 the host sends it
 * no CHALLENGE (a 1.4-1.6 PROOF binds nothing, PROTOCOL.md § 5.2) and it
 * runs unauthenticated.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { until } from '../../helpers/until.ts';

function crc(body: string): string {
  let value = 0xffff;
  for (const byte of Buffer.from(body, 'latin1')) {
    value ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) {
      value = value & 0x8000 ? ((value << 1) ^ 0x1021) & 0xffff : (value << 1) & 0xffff;
    }
  }
  return value.toString(16).toUpperCase().padStart(4, '0');
}
const line = (body: string) => `$${body}*${crc(body)}\r\n`;
const SHA = 'ab'.repeat(32);

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

describe('a wheel driver fed by a hand-written wheel', () => {
  it('refuses ROTOR,left and RESULT,37 with alarms, survives noise, and delivers the spin', async () => {
    const wire = createMemoryPair(`wheel-refused-${Math.random().toString(36).slice(2)}`);
    const driver = new DeviceDriver({
      name: 'wheel',
      kind: 'wheel',
      transport: wire.host,
      timing: { heartbeatMs: 200, offlineAfterMs: 1_000, silenceTimeoutMs: 0 },
    });
    stops.push(() => driver.stop());
    const observations: Observation[] = [];
    const alarms: Array<Extract<DomainEvent, { type: 'alarm' }>> = [];
    driver.on('record', (observation) => observations.push(observation));
    driver.on('alarm', (alarm) => alarms.push(alarm));
    let received = '';
    wire.device.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    await wire.device.open();
    stops.push(() => wire.device.close());
    driver.start();
    const acked = (seq: number) => new RegExp(`\\$HO,\\d+,ACK,${seq}\\*`).test(received);
    const send = (text: string) => wire.device.write(Buffer.from(text, 'latin1'));

    // The host says HELLO when its end opens; the wheel answers with its own.
    await until(() => /\$HO,\d+,HELLO,/.test(received), "the host's HELLO");
    await send(line(`RW,0,HELLO,TS-WHEEL-1,RW0001,1.5,1.0.0,${SHA}`));
    await until(() => acked(0), 'the HELLO ACKed');
    // A 1.5 wheel on an unpaired line is not challenged from 1.7: it runs unauthenticated.
    expect(driver.status().auth.state).toBe('unauthenticated');
    expect(received).not.toMatch(/\$HO,0,CHALLENGE,/);
    await send(line('RW,1,ROTOR,left,27'));
    await until(() => alarms.length === 1, 'the refused ROTOR alarmed');
    // The alarm is raised as the frame is read; its ACK is written a moment later.
    await until(() => acked(1), 'the refused ROTOR ACKed');
    expect(alarms[0]).toMatchObject({
      kind: 'device_fault',
      fault: 'invalid_message',
      frame: 'ROTOR',
    });
    expect(alarms[0]!.message).toMatch(/direction.*"left": expected one of cw ccw/);

    await send('\x00\xffRW,9,RESULT,3*ZZZZ\r\n$RW,2,RES\x07ULT,3,3*0000\r\n');
    await send(line('RW,2,ROTOR,cw,27.5'));
    await send(line('RW,3,BALL,ccw'));
    await send(line('RW,4,NOMOREBETS'));
    await send(line('RW,5,RESULT,37,9'));
    await send(line('RW,6,RESULT,17,9'));
    await until(() => observations.length === 2, 'two records');
    expect(alarms.map((alarm) => alarm.frame)).toEqual(['ROTOR', 'RESULT']);
    expect(alarms[1]!.message).toMatch(/number.*37: expected 0-36/);
    expect(observations.map((observation) => observation.record)).toEqual([
      expect.objectContaining({ t: 'no_more_bets', src: 'wheel' }),
      expect.objectContaining({
        t: 'spin',
        rotor: 'cw',
        ball: 'ccw',
        number: 17,
        revolutions: 9,
        rpm: 27.5,
      }),
    ]);
    await until(() => acked(5), 'the refused RESULT ACKed');
    // The result is the caller's to store first: no ACK until then.
    // fixed wait: nothing happens: the RESULT must draw no ACK before it is stored: only time shows it
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(acked(6)).toBe(false);
    observations[1]!.ack();
    await until(() => acked(6), 'the RESULT ACKed once stored');
    const status = driver.status();
    expect(status.counters.invalid).toBe(2);
    expect(status.counters.crcErrors + status.counters.badLines).toBeGreaterThan(0);
  });
});
