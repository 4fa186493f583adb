import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LinkStateChange } from '../../../hardware/transports/reconnecting-link.ts';
import { ReconnectingLink } from '../../../hardware/transports/reconnecting-link.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import type { Transport } from '../../../hardware/transports/transport.ts';
import { openTransport } from '../../../hardware/transports/url.ts';
import { socatMissing } from '../../helpers/tools.ts';
import { PtyPair } from './pty-pair.ts';

const missing = socatMissing();

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startPair(): Promise<PtyPair> {
  const pair = new PtyPair();
  await pair.start();
  cleanups.push(() => pair.stop());
  return pair;
}

/** Opens both ends of a pair, closed after the test. */
async function openBothEnds<T extends Transport>(host: T, device: T) {
  cleanups.push(
    () => host.close(),
    () => device.close(),
  );
  await host.open();
  await device.open();
  return { host, device };
}

function collect(target: { on(event: 'data', listener: (chunk: Buffer) => void): unknown }) {
  const chunks: Buffer[] = [];
  target.on('data', (chunk) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString();
}

/** Main-thread I/O (the default here) and the binding's own, the path of a binding without a poller. */
const IO = ['main-thread', 'binding'] as const;

describe.skipIf(missing !== undefined)('serial transport over a socat pty pair', () => {
  it.each(IO)('moves bytes both ways through the serialport 13 binding, %s', async (io) => {
    const pair = await startPair();
    const { host, device } = await openBothEnds(
      openTransport(`serial:${pair.a}?baud=115200`),
      new SerialTransport({ path: pair.b, baudRate: 115200, io }),
    );
    const atDevice = collect(device);
    const atHost = collect(host);
    await host.write(Buffer.from('$HO,1,PING*0000\r\n'));
    await device.write(Buffer.from('$SH,1,PONG*0000\r\n'));
    await vi.waitFor(() => expect(atDevice()).toBe('$HO,1,PING*0000\r\n'));
    await vi.waitFor(() => expect(atHost()).toBe('$SH,1,PONG*0000\r\n'));
  });

  it.each(IO)(
    'moves writes larger than the pty holds, queued without waiting, whole and in order, %s',
    async (io) => {
      const pair = await startPair();
      const { host, device } = await openBothEnds(
        new SerialTransport({ path: pair.a, baudRate: 115200, io }),
        new SerialTransport({ path: pair.b, baudRate: 115200, io }),
      );
      const received: Buffer[] = [];
      host.on('data', (chunk) => received.push(chunk));
      // Far more than a pty's buffer: the writes meet EAGAIN and wait for the poller.
      const first = Buffer.alloc(300_000, 'a');
      const second = Buffer.from(Array.from({ length: 50_000 }, (_, i) => 48 + (i % 10)));
      await Promise.all([device.write(first), device.write(second)]);
      const expected = Buffer.concat([first, second]);
      await vi.waitFor(() => expect(Buffer.concat(received).length).toBe(expected.length), {
        timeout: 10_000,
      });
      expect(Buffer.concat(received).equals(expected)).toBe(true);
    },
  );

  it('keeps a second opener off a port that is open, naming it as in use', async () => {
    const pair = await startPair();
    const first = new SerialTransport({ path: pair.a, baudRate: 115200 });
    cleanups.push(() => first.close());
    await first.open();
    const second = new SerialTransport({ path: pair.a, baudRate: 115200 });
    await expect(second.open()).rejects.toThrow(/in use by another program/);
    await first.close();
    await second.open();
    cleanups.push(() => second.close());
    expect(second.isOpen).toBe(true);
  });

  it('fails to open a missing device with the path and a hint', async () => {
    const host = openTransport('/dev/tableside/no-such-shoe');
    await expect(host.open()).rejects.toThrow(/no-such-shoe.*no such device/);
  });

  it.each(IO)(
    'reopens after the pty pair is killed mid-stream and brought back, reporting each state, %s',
    async (io) => {
      const pair = await startPair();
      const link = new ReconnectingLink(
        new SerialTransport({ path: pair.a, baudRate: 115200, io }),
        { initialDelayMs: 20, maxDelayMs: 100 },
        { random: () => 0.5 },
      );
      cleanups.push(() => link.close());
      const changes: LinkStateChange[] = [];
      link.on('state', (change) => changes.push(change));
      const atHost = collect(link);
      link.start();
      await link.whenState('open');

      const device = new SerialTransport({ path: pair.b, baudRate: 115200 });
      await device.open();
      await device.write(Buffer.from('before;'));
      await vi.waitFor(() => expect(atHost()).toBe('before;'));

      await pair.stop();
      await link.whenState('reopening');
      // The first reopening is the loss (under load a failed reopen may already follow it).
      const lost = changes.find((change) => change.state === 'reopening');
      expect(lost?.reason).toMatch(/disconnected|closed/);
      // While the pty is gone, opens fail with the missing path and the link keeps trying.
      await vi.waitFor(() =>
        expect(changes.some((c) => /open failed: .*no such device/.test(c.reason))).toBe(true),
      );

      await pair.start();
      await link.whenState('open');
      const device2 = new SerialTransport({ path: pair.b, baudRate: 115200 });
      cleanups.push(() => device2.close());
      await device2.open();
      await device2.write(Buffer.from('after;'));
      await vi.waitFor(() => expect(atHost()).toBe('before;after;'));
      expect(changes[0]).toMatchObject({ state: 'opening', reason: 'start' });
      expect(changes[1]).toMatchObject({ state: 'open' });
      expect(changes.at(-1)).toMatchObject({ state: 'open', previous: 'opening' });
      expect(changes.filter((c) => c.state === 'open')).toHaveLength(2);
    },
  );

  it('reopens a pty that stays silent though it never reports a close', async () => {
    const pair = await startPair();
    const link = new ReconnectingLink(
      openTransport(pair.a),
      { initialDelayMs: 10, maxDelayMs: 50, silenceTimeoutMs: 150 },
      { random: () => 0 },
    );
    cleanups.push(() => link.close());
    const changes: LinkStateChange[] = [];
    link.on('state', (change) => changes.push(change));
    link.start();
    await link.whenState('open');
    const silent = await link.whenState('reopening');
    expect(silent?.reason).toBe('silent: no frame for 150 ms');
    await link.whenState('open');
    expect(changes.map((c) => c.state)).toEqual([
      'opening',
      'open',
      'reopening',
      'opening',
      'open',
    ]);
  });
});
