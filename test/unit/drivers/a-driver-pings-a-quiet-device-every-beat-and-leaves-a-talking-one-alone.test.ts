/**
 * PROTOCOL.md § 3.10: the host PINGs a device it has heard nothing from for a
 * heartbeat, not one whose frames keep coming (those frames, and the ACKs
 * they draw, already prove both ends alive). A PONG does not count as
 * talking: a device that only answers PINGs keeps being PINGed every beat.
 * Nor does the beat wake the driver between a device's events (a card every
 * half beat): each event re-arms it, so a dealer's pace costs no timer
 * wake-ups; a device that goes quiet is beaten again a beat after its last.
 * Virtual time, so that the beat is exact.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { encodeFrame, type Message, messageFrame } from '../../../device-protocol/index.ts';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { shoeHello } from '../../helpers/device-hello.ts';

const BEAT_MS = 100;
const HELLO = shoeHello();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval', 'setImmediate', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function table() {
  const wire = createMemoryPair('pings');
  const device = wire.device;
  await device.open();
  const heard: string[] = [];
  let seq = 0;
  let answerPings = false;
  const send = (message: Message) =>
    device.write(Buffer.from(`${encodeFrame(messageFrame('SH', seq++, message))}\r\n`));
  device.on('data', (chunk) => {
    for (const line of chunk.toString('latin1').split('\r\n').filter(Boolean)) {
      heard.push(line);
      // Like any device: every reliable host frame is ACKed, so nothing is retransmitted.
      const head = /^\$HO,(\d+),([A-Z]+)/.exec(line);
      if (head && head[2] !== 'ACK' && head[2] !== 'NAK') {
        void send({ type: 'ACK', ackedSeq: Number(head[1]) });
      }
      const ping = /^\$HO,\d+,PING,?([A-Za-z0-9]*)\*/.exec(line);
      if (ping && answerPings) void send({ type: 'PONG', token: ping[1] ?? '' });
    }
  });
  const driver = new DeviceDriver({
    name: 'shoe',
    kind: 'shoe',
    transport: wire.host,
    timing: { heartbeatMs: BEAT_MS, offlineAfterMs: 10_000 },
    reconnect: { silenceTimeoutMs: 60_000 },
    now: () => Date.now(),
  });
  driver.start();
  await vi.advanceTimersByTimeAsync(1);
  await send(HELLO);
  await vi.advanceTimersByTimeAsync(1);
  const pingsIn = async (ms: number, each?: () => Promise<void>) => {
    const before = heard.filter((line) => line.includes(',PING')).length;
    for (let at = 0; at < ms; at += 20) {
      if (each) await each();
      await vi.advanceTimersByTimeAsync(20);
    }
    return heard.filter((line) => line.includes(',PING')).length - before;
  };
  return {
    driver,
    pingsIn,
    send,
    answerPings: () => {
      answerPings = true;
    },
  };
}

describe('the driver heartbeat', () => {
  it('PINGs a quiet device every beat', async () => {
    const { driver, pingsIn } = await table();
    // Its HELLO was its last word: the first beat after it spares the PING.
    expect(await pingsIn(200)).toBe(1);
    expect(await pingsIn(1_000)).toBe(10);
    await driver.stop();
  });

  it('leaves a device alone while its frames keep coming, and PINGs it again once it is quiet', async () => {
    const { driver, pingsIn, send } = await table();
    const talking = await pingsIn(1_000, () =>
      send({ type: 'STATUS', state: 'ready', details: {} }),
    );
    expect(talking).toBe(0);
    expect(driver.availability).toBe('online');
    expect(await pingsIn(1_000)).toBeGreaterThanOrEqual(9);
    await driver.stop();
  });

  it('does not wake between the events of a talking device, and beats a beat after its last', async () => {
    const { driver, pingsIn, send } = await table();
    const beat = vi.spyOn(driver as unknown as { beat(): void }, 'beat');
    // An event every 60 ms (a beat is 100): the beat never comes due.
    for (let event = 0; event < 10; event++) {
      await send({ type: 'STATUS', state: 'ready', details: {} });
      await vi.advanceTimersByTimeAsync(60);
    }
    expect(beat).not.toHaveBeenCalled();
    // Quiet: the first beat a beat after the last event PINGs.
    expect(await pingsIn(60)).toBe(1);
    expect(beat).toHaveBeenCalledTimes(1);
    await driver.stop();
  });

  it('keeps PINGing a device that only answers PINGs: a PONG is not talking', async () => {
    const { driver, pingsIn, answerPings } = await table();
    answerPings();
    await pingsIn(200);
    expect(await pingsIn(1_000)).toBe(10);
    await driver.stop();
  });
});
