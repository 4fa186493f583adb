/**
 * A paired shoe (protocol 1.4) proves its key on every connection and MACs
 * every frame after: with a key file (Ed25519) and with a P-256 key held in
 * an ATECC608 secure element emulated at the I2C level. A reconnect is a
 * new handshake with new session keys.
 */
import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../device-protocol/auth/keys.ts';
import { parseFrameLine } from '../../../device-protocol/frame.ts';
import { Atecc608 } from '../../../hardware/i2c/atecc608.ts';
import { deviceKey } from '../../../hardware/keys/device-key.ts';
import { EmulatedAtecc608 } from '../../emulators/atecc608.ts';
import { EmulatedI2cWire } from '../../emulators/i2c-wire.ts';
import { alarmsOf, ed25519Key, SHOE_SCRIPT, until } from './auth-helpers.ts';
import { benchPerTest } from './helpers.ts';

describe('a paired shoe proves its key and every frame after carries a MAC', () => {
  const openBench = benchPerTest();

  it('deals every card over an authenticated session (Ed25519 key file)', async () => {
    const key = await ed25519Key();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 3, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    const alarms = alarmsOf(current.driver);
    const written: string[] = [];
    current.sim.on('wrote', (line) => written.push(line));
    await current.sim.whenReady();
    while (await current.sim.step());
    await current.sim.whenDone();
    expect(current.observations.map((o) => o.record.t)).toEqual(Array(6).fill('card'));
    expect(alarms).toEqual([]);
    const auth = current.driver.status().auth;
    expect(auth).toMatchObject({
      pairing: 'paired',
      state: 'authenticated',
      handshakes: 1,
      pairedFingerprint: keyFingerprint(key.publicKey),
      deviceFingerprint: keyFingerprint(key.publicKey),
    });
    expect(current.sim.authenticated).toBe(true);
    // Every frame after the PROOF carries a MAC; HELLO and PROOF do not.
    const frames = written
      .map((line) => parseFrameLine(line))
      .flatMap((e) => (e.kind === 'frame' ? [e.frame] : []));
    const proofAt = frames.findIndex((frame) => frame.type === 'PROOF');
    expect(proofAt).toBeGreaterThan(0);
    const after = frames.slice(proofAt + 1);
    expect(after.filter((frame) => frame.type === 'CARD')).toHaveLength(6);
    // A loaded host may send its CHALLENGE again before the PROOF reaches it: the same PROOF
    // answers it, bare as the first.
    for (const frame of after.filter((frame) => frame.type !== 'PROOF')) {
      expect(frame.fields.at(-1)).toMatch(/^~[A-Za-z0-9_-]{22}$/);
    }
    // The key itself never travels but in the PROOF, and never in an alarm or the status.
    const secretless = JSON.stringify(current.driver.status());
    expect(secretless).not.toContain(Buffer.from(key.publicKey.raw).toString('base64url'));
  });

  it('a reconnect is a new handshake, and the cards after it still get through', async () => {
    const key = await ed25519Key();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 4, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    await current.sim.whenReady();
    await current.sim.stepMany(3);
    await until(() => current.observations.length === 3, 'three cards');
    current.wire.sever();
    // fixed wait: emulated timing: the cable is cut for 50 ms
    await new Promise((resolve) => setTimeout(resolve, 50));
    current.wire.restore();
    while (await current.sim.step());
    await current.sim.whenDone();
    expect(current.observations).toHaveLength(6);
    expect(current.driver.status().auth.handshakes).toBe(2);
  });

  it('a line the host alone reopens keeps its session: every card once, none refused or invalid', async () => {
    const key = await ed25519Key();
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 6, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    await current.sim.whenReady();
    await current.sim.stepMany(2);
    await until(() => current.observations.length === 2, 'two cards');
    current.driver.link.reopen('host-side reopen in a test');
    while (await current.sim.step());
    await current.sim.whenDone();
    const dealt = current.observations.map((o) => (o.record.t === 'card' ? o.record.card : ''));
    expect(dealt).toEqual(
      current.sim.steps.flatMap((step) => (step.kind === 'card' ? [step.card] : [])),
    );
    const status = current.driver.status();
    expect(status.counters.invalid).toBe(0);
    expect(status.auth.refused).toEqual({});
    expect(status.auth.state).toBe('authenticated');
  });

  it('deals with a P-256 key kept in an ATECC608 secure element on the I2C bus', async () => {
    const chip = new EmulatedAtecc608();
    const i2c = new EmulatedI2cWire([chip]);
    const element = new Atecc608({ bus: i2c, delay: i2c.delay });
    await element.generateKey();
    const key = await deviceKey(element);
    expect(key.publicKey.type).toBe('p256');
    const current = openBench(
      { kind: 'shoe', ruleset: 'tdc-baccarat-no-commission', seed: 5, scenario: SHOE_SCRIPT, key },
      { pairedKey: key.publicKey },
    );
    await current.sim.whenReady();
    while (await current.sim.step());
    await current.sim.whenDone();
    expect(current.observations).toHaveLength(6);
    expect(current.driver.status().auth.state).toBe('authenticated');
    // The signature came from the chip: Nonce (pass-through) then Sign, once per
    // handshake (a loaded machine may need a second one, as a slow line does).
    expect(chip.log.filter((entry) => entry === 'cmd 0x41').length).toBeGreaterThanOrEqual(1);
  });
});
