/**
 * Issue 24 item 6, the quarantine that could never end: a rogue tapped into
 * a paired shoe's cable (a socat pty, the real daemon, a real mosquitto)
 * writes a burst of perfectly framed CARD frames with a MAC of no session
 * between the shoe's own frames. 16 refusals in a row quarantine the shoe
 * (`device_quarantined`, availability `quarantined`), and a shoe whose HELLO
 * was ACKed never says HELLO again: it used to stay quarantined for good.
 * The host challenges it afresh 2 s later; only the key holder can answer,
 * and its PROOF lifts the quarantine (`device_requalified`, availability
 * `online`). The shoe deals on: every card published once, in order, none of
 * the rogue's.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { sealLine } from '../../device-protocol/auth/frame-mac.ts';
import { keyFingerprint } from '../../device-protocol/auth/keys.ts';
import { encodeFrame } from '../../device-protocol/frame.ts';
import { deviceKey, generatedSigner } from '../../hardware/keys/device-key.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const CARDS = 60;
/** More than the 16 refusals in a row that quarantine a paired device. */
const BURST = 24;

describe.skipIf(missing !== undefined)("a rogue's burst of bad MACs on a paired shoe's tty", () => {
  let table: E2eTable | undefined;
  afterEach(async () => {
    await table?.close();
    table = undefined;
  });

  it('quarantines the shoe only until it proves its key again, and no card is lost or doubled', async () => {
    const key = await deviceKey(generatedSigner('ed25519'));
    table = await E2eTable.create('rogue-burst', { shoeKey: key });
    const t = table;
    await t.startDaemon();
    const shoe = t.startShoe({
      seed: 43,
      rate: 20,
      steps: `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`,
    });
    await shoe.whenReady();
    await until(
      () => t.consumer.ofType('card').length >= 5,
      'the first cards',
      30_000,
      () => t.describe(),
    );
    expect(shoe.authenticated).toBe(true);

    // Aces of spades face up, right grammar, right CRC, a MAC under a key of no session.
    const rogueKey = randomBytes(32);
    const burst = Array.from({ length: BURST }, (_, index) =>
      sealLine(
        encodeFrame({ talker: 'SH', seq: 300 + index, type: 'CARD', fields: ['AS', 'red', 'up'] }),
        rogueKey,
      ),
    ).join('');
    await shoe.link.write(Buffer.from(burst, 'latin1'));

    const alarmOf = (kind: string) => t.consumer.ofType('alarm').find((a) => a.kind === kind);
    await until(
      () => alarmOf('device_quarantined') !== undefined,
      'the shoe quarantined',
      30_000,
      () => t.describe(),
    );
    expect(alarmOf('device_quarantined')).toMatchObject({
      device: 'shoe',
      reason: 'not_authenticating',
    });
    await until(
      () => alarmOf('device_requalified') !== undefined,
      'the shoe requalified',
      30_000,
      () => t.describe(),
    );
    expect(alarmOf('device_requalified')).toMatchObject({
      device: 'shoe',
      fingerprint: keyFingerprint(key.publicKey),
    });
    const availability = t.consumer.messages
      .filter((m) => m.topic === `${t.consumer.root}/devices/shoe/availability`)
      .map((m) => m.payload);
    expect(availability).toContain('quarantined');
    await until(
      () => t.consumer.value('devices/shoe/availability') === 'online',
      'the shoe online again',
      30_000,
      () => `${t.consumer.value('devices/shoe/availability')}\n${t.describe()}`,
    );

    await shoe.whenDone();
    const dealt = t.dealtCards();
    expect(dealt).toHaveLength(CARDS);
    await until(
      () => t.consumer.ofType('card').length >= CARDS,
      `${CARDS} card events`,
      30_000,
      () => t.describe(),
    );
    const cards = publishedCards(t.consumer);
    expect(cards).toHaveLength(CARDS);
    cards.forEach((published, position) => {
      if (!published.hidden) expect(published.card).toBe(dealt[position]!.card);
    });
    expect(t.consumer.outOfOrder).toEqual([]);
    expect(t.consumer.duplicates).toBe(0);

    const health = await t.consumer.request('health_check', { transaction: 'after-burst' });
    const device = (health.data as { devices: Array<Record<string, unknown>> }).devices[0]!;
    expect(device.quarantined).toBeUndefined();
    expect(device.auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      deviceFingerprint: keyFingerprint(key.publicKey),
    });
    expect(
      (device.auth as { refused: Record<string, number> }).refused.bad_mac,
    ).toBeGreaterThanOrEqual(16);
  });
});
