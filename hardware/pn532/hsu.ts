/**
 * The PN532's HSU (high-speed UART) host link, UM0701-02 § 6.2.5 and the HSU
 * wake-up of § 7.2.11 (also § 6.3.2): a PN532 in power-down wakes on the 0x55
 * pattern, and needs a little time before it listens, which the run of 00
 * bytes after it gives (they also read as extra preamble). We wake it before
 * the first frame and after every resynchronisation.
 */
import type { Transport } from '../transports/transport.ts';
import type { Pn532Bus } from './bus.ts';
import { type Pn532Frame, Pn532FrameReader } from './frame.ts';

export const HSU_WAKE_UP = Uint8Array.of(0x55, 0x55, ...new Array<number>(14).fill(0x00));

/** The byte link an HSU PN532 hangs on: an opened transport (serial, pty, tcp). */
export type HsuLink = Pick<Transport, 'write' | 'on' | 'off'> & { readonly url: string };

export interface Pn532HsuBus extends Pn532Bus {
  /** Stops listening to the link (does not close it). */
  detach(): void;
}

export function pn532OverHsu(link: HsuLink): Pn532HsuBus {
  const reader = new Pn532FrameReader();
  const frames: Pn532Frame[] = [];
  let waiter: (() => void) | undefined;
  let asleep = true;
  const onData = (chunk: Buffer) => {
    frames.push(...reader.push(chunk));
    if (frames.length > 0) waiter?.();
  };
  link.on('data', onData);
  return {
    name: `PN532 on ${link.url} (HSU)`,
    async send(frame) {
      if (asleep) {
        const both = new Uint8Array(HSU_WAKE_UP.length + frame.length);
        both.set(HSU_WAKE_UP);
        both.set(frame, HSU_WAKE_UP.length);
        asleep = false;
        await link.write(both);
      } else {
        await link.write(frame);
      }
    },
    receive(timeoutMs) {
      const ready = frames.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiter = undefined;
          resolve(undefined);
        }, timeoutMs);
        waiter = () => {
          clearTimeout(timer);
          waiter = undefined;
          resolve(frames.shift());
        };
      });
    },
    resync() {
      reader.reset();
      frames.length = 0;
      asleep = true;
    },
    detach() {
      link.off('data', onData);
      waiter?.();
    },
  };
}
