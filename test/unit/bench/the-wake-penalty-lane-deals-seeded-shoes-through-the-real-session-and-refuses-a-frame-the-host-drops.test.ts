import { describe, expect, it } from 'vitest';
import { LinkSession } from '../../../device-protocol/link.ts';
import { PROTOCOL_VERSION } from '../../../device-protocol/messages.ts';
import { TableSession } from '../../../firmware-host/games/table-session.ts';
import { encodeRecord, hashLine } from '../../../firmware-host/journal/record.ts';
import { eventPayload } from '../../../firmware-host/mqtt/bridge.ts';
import { makeCardWork } from '../../bench/card-work.mjs';

const modules = {
  LinkSession,
  TableSession,
  encodeRecord,
  hashLine,
  eventPayload,
  protocol: PROTOCOL_VERSION,
};
const ruleset = 'tdc-baccarat-no-commission';
const ACK = /^\$HO,\d+,ACK,(\d+)\*[0-9A-F]{4}\r\n$/;

function deal(relay: boolean, cards: number) {
  const work = makeCardWork({ ...modules, ruleset, relay });
  const frames: string[] = [];
  for (let card = 0; card < cards; card++) {
    const frame = work.nextFrame();
    frames.push(frame.toString('latin1'));
    const ack = work.take(frame);
    // The host ACKs exactly the frame it took.
    expect(ACK.exec(ack)?.[1]).toBe(/^\$SH,(\d+),CARD,/.exec(frames.at(-1)!)?.[1]);
    work.settle(ack);
  }
  return { work, frames };
}

describe("the wake-penalty lane's card work", () => {
  it("takes 700 cards across three seeded shoes through the table session, each card's events journaled", () => {
    const { work } = deal(false, 700);
    expect(work.shoes()).toBe(3);
    expect(work.counts.cards).toBe(700);
    // Every card is a card event, plus the rounds' starts and results.
    expect(work.counts.events).toBeGreaterThan(700);
    expect(work.counts.bytes).toBeGreaterThan(700 * 200);
  });

  it('deals the same frames on every run, and the relay the same shoe with no table work', () => {
    const daemon = deal(false, 320);
    const again = deal(false, 320);
    const relay = deal(true, 320);
    expect(again.frames).toEqual(daemon.frames);
    expect(relay.frames).toEqual(daemon.frames);
    expect(relay.work.counts).toMatchObject({ cards: 320, events: 0 });
  });

  it('throws, naming the frame, when the host does not take it (a corrupted CRC)', () => {
    const work = makeCardWork({ ...modules, ruleset });
    const frame = work.nextFrame().toString('latin1');
    const corrupted = Buffer.from(frame.replace(/\*[0-9A-F]{4}/, '*0000'), 'latin1');
    expect(() => work.take(corrupted)).toThrow(/the host did not take the frame \$SH,\d+,CARD,/);
  });
});
