/**
 * Why each MUST of PROTOCOL.md that a conformance check requires is a MUST:
 * the host's link session (and its receive ledger) fed the lines a device
 * that breaks it would write, showing the card lost, doubled, reordered or
 * stalled at the host. firmware-host/conformance/requirements.ts names this
 * file for the rules it shows.
 */
import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../../device-protocol/frame.ts';
import { type LinkAction, LinkSession } from '../../../device-protocol/link.ts';
import { ReceiveLedger } from '../../../firmware-host/drivers/ledger.ts';

const SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function line(seq: number, type: string, ...fields: string[]): string {
  return encodeFrame({ talker: 'SH', seq, type, fields });
}

const hello = (seq: number, protocol = '1.1') =>
  line(seq, 'HELLO', 'TS-SHOE-2', 'SH0042', protocol, '2.3.1', SHA);
const card = (seq: number, code: string) => line(seq, 'CARD', code, 'red', 'down');

/** The cards the host delivered, in order. */
function cards(actions: readonly LinkAction[]): string[] {
  return actions.flatMap((action) =>
    action.kind === 'deliver' && action.message.type === 'CARD' ? [action.message.card] : [],
  );
}

/** A host that has the device's HELLO. */
function hostWithHello(protocol = '1.1'): LinkSession {
  const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
  host.receiveBytes(hello(0, protocol), 0);
  return host;
}

/** Feeds device lines to the host; returns everything it did. */
function feed(host: LinkSession, ...lines: string[]): LinkAction[] {
  return lines.flatMap((text, index) => host.receiveBytes(text, 10 + index));
}

describe('what the host does with a device that breaks a MUST', () => {
  it('§ 2: a card with a bad CRC is discarded every time it comes: lost', () => {
    const host = hostWithHello();
    const damaged = card(1, 'AS').replace(/\*(....)/, '*0000');
    const actions = feed(host, damaged, damaged, damaged);
    expect(cards(actions)).toEqual([]);
    expect(actions.filter((action) => action.kind === 'discarded')).toHaveLength(3);
  });

  it('§ 3.1: a host frame the device never ACKs is given up after 5 transmissions: stalled', () => {
    const host = hostWithHello();
    const sent = host.send({ type: 'GATE', action: 'lock' }, 0);
    const after: LinkAction[] = [...sent];
    for (let deadline = host.nextDeadline(); deadline !== undefined; ) {
      after.push(...host.tick(deadline));
      deadline = host.nextDeadline();
    }
    const gates = after.filter((action) => action.kind === 'send' && action.type === 'GATE');
    expect(gates).toHaveLength(5);
    expect(after.at(-1)).toMatchObject({ kind: 'failed', type: 'GATE', reason: 'no_ack' });
  });

  it('§ 3.4: a card whose line was lost and never sent again never arrives: lost', () => {
    const host = hostWithHello();
    // CARD 1 went into the line and was lost; the device goes on to its next card.
    expect(cards(feed(host, card(2, 'KH')))).toEqual(['KH']);
  });

  it('§ 3.7: a copy under a new seq is a second card, a new card under a used seq is none', () => {
    const doubled = hostWithHello();
    // AS delivered, its ACK lost; the copy takes a new seq.
    expect(cards(feed(doubled, card(1, 'AS'), card(2, 'AS')))).toEqual(['AS', 'AS']);
    const lost = hostWithHello();
    const actions = feed(lost, card(1, 'AS'), card(1, 'KH'));
    expect(cards(actions)).toEqual(['AS']);
    expect(actions).toContainEqual(
      expect.objectContaining({ kind: 'discarded', reason: 'duplicate' }),
    );
  });

  it('§ 3.5, § 3.8: two cards in flight to a stop-and-wait host, the first lost once: reordered', () => {
    const host = hostWithHello('1.1');
    // AS lost on the line, KH (sent without waiting for AS's ACK) arrives, then AS's copy.
    expect(cards(feed(host, card(2, 'KH'), card(1, 'AS')))).toEqual(['KH', 'AS']);
  });

  it('§ 4.1: events without a HELLO are NAKed hello and none is delivered: stalled', () => {
    const host = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
    const actions = feed(host, card(1, 'AS'), card(1, 'AS'));
    expect(cards(actions)).toEqual([]);
    expect(actions).toContainEqual(
      expect.objectContaining({ kind: 'discarded', reason: 'hello_required' }),
    );
  });

  it('§ 4.1: a new card sent before its HELLO was ACKed, the HELLO lost, is journaled twice: doubled', () => {
    const host = hostWithHello();
    const ledger = new ReceiveLedger();
    ledger.hello(0);
    expect(cards(feed(host, card(1, 'AS')))).toEqual(['AS']);
    ledger.markDurable(1);
    // The device reconnects: HELLO 2 is lost on the line, and card 3 goes without waiting
    // for its ACK. The host takes it (ACK lost), then HELLO 2's copy, then card 3's copy.
    const journaled: string[] = [];
    for (const text of [card(3, 'KH'), hello(2), card(3, 'KH')]) {
      for (const action of host.receiveBytes(text, 20)) {
        if (action.kind === 'deliver' && action.message.type === 'HELLO') ledger.hello(action.seq);
        if (action.kind !== 'deliver' || action.message.type !== 'CARD') continue;
        if (ledger.classify(action.seq, action.message.card) === 'new') {
          journaled.push(action.message.card);
          ledger.markDurable(action.seq);
        }
      }
    }
    expect(journaled).toEqual(['KH', 'KH']);
  });

  it('§ 4.2: a host that reopened its line delivers nothing until a new HELLO: stalled', () => {
    const host = hostWithHello();
    host.lineReopened();
    const actions = feed(host, card(1, 'AS'), card(1, 'AS'));
    expect(cards(actions)).toEqual([]);
    expect(actions).toContainEqual(
      expect.objectContaining({
        kind: 'send',
        type: 'NAK',
        line: expect.stringContaining(',hello*'),
      }),
    );
  });

  it('§ 7: a card with a field its type does not allow is ACKed and never delivered: lost', () => {
    const host = hostWithHello();
    const actions = feed(host, card(1, 'ZZ'));
    expect(cards(actions)).toEqual([]);
    expect(actions.map((action) => action.kind)).toEqual(['send', 'invalid']);
    expect(actions[0]).toMatchObject({ type: 'ACK' });
  });
});
