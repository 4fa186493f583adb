/**
 * The main-thread tty I/O under a scripted poller: what it asks the poller
 * for, and how it reads the ends of a port (a hang-up, an error). Bytes
 * through a real pty are in test/integration/hardware/serial-pty.test.ts.
 */
import { EventEmitter } from 'node:events';
import { closeSync, openSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type FdPoller, PolledFd } from '../../../hardware/transports/polled-fd.ts';

class ScriptedPoller extends EventEmitter implements FdPoller {
  readonly asked: number[] = [];
  poll(flags: number): void {
    this.asked.push(flags);
  }
}

const fds: number[] = [];
afterEach(() => {
  for (const fd of fds.splice(0)) closeSync(fd);
});

function devNull(flags: 'r' | 'w'): number {
  const fd = openSync('/dev/null', flags);
  fds.push(fd);
  return fd;
}

function polled(fd: number) {
  const poller = new ScriptedPoller();
  const chunks: Buffer[] = [];
  const failures: string[] = [];
  const io = new PolledFd(fd, poller, {
    data: (chunk) => chunks.push(chunk),
    failed: (reason) => failures.push(reason),
  });
  return { poller, io, chunks, failures };
}

describe('main-thread tty I/O', () => {
  it('asks the poller for readable on start, and nothing more while no write waits', () => {
    const { poller, io } = polled(devNull('w'));
    io.start();
    expect(poller.asked).toEqual([0b01]);
  });

  it('writes at once without the poller when the fd takes the bytes', async () => {
    const { poller, io } = polled(devNull('w'));
    await io.write(Buffer.from('$HO,1,ACK,1*0000\r\n'));
    expect(poller.asked).toEqual([]);
  });

  it('reads end of file as a hung-up tty: the port failed, and no event follows', () => {
    const { poller, io, chunks, failures } = polled(devNull('r'));
    io.start();
    poller.emit('readable', null);
    expect(failures).toEqual(['device disconnected (the tty hung up)']);
    expect(chunks).toEqual([]);
    poller.emit('readable', null);
    expect(failures).toHaveLength(1);
    expect(poller.listenerCount('readable')).toBe(0);
  });

  it('names the poller error when the poller fails', () => {
    const { poller, io, failures } = polled(devNull('r'));
    io.start();
    poller.emit('readable', new Error('EBADF, bad file descriptor'));
    expect(failures).toEqual(['device disconnected (EBADF, bad file descriptor)']);
  });

  it('refuses writes after stop, and stops listening to the poller', async () => {
    const { poller, io } = polled(devNull('w'));
    io.start();
    io.stop();
    await expect(io.write(Buffer.from('x'))).rejects.toThrow(/port is closed/);
    expect(poller.listenerCount('writable')).toBe(0);
  });

  it('rejects a write the fd refuses, naming the error', async () => {
    const { io } = polled(devNull('r'));
    await expect(io.write(Buffer.from('x'))).rejects.toThrow(/EBADF/);
  });
});
