/**
 * A daemon stopped while its MQTT client (or anyone's) is still between the
 * TCP connect and the CONNECT packet: aedes' close leaves that socket open,
 * and the server waited for it until aedes' connect timeout (a stop took
 * 10 s). The embedded broker's close now ends it. Timers are faked so that
 * no timeout of aedes' can end the socket: only close can.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedBroker } from '../../../firmware-host/mqtt/broker.ts';
import { freePort } from '../../helpers/ports.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('the embedded broker', () => {
  it('closes with a connection open that never sent CONNECT, and ends that connection', async () => {
    const broker = await startEmbeddedBroker({ port: await freePort() });
    const socket: Socket = connect(broker.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    await broker.close();
    await ended;
    expect(socket.destroyed).toBe(true);
  }, 20_000);
});
