/**
 * A device that writes well-framed CARD frames but never says HELLO (a
 * rogue on the line that does not say who it is) has each frame NAKed
 * `hello` (PROTOCOL.md § 4) and none dealt, as before; now the table also
 * hears of it: one `device_unauthenticated` alarm (reason `no_hello`) per
 * connection, not one per frame. A device that answers the NAK with its
 * HELLO (a host restart) raises none: see
 * a-paired-shoe-that-kept-running-while-the-host-restarted-proves-itself-again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { alarmsOf, until } from './auth-helpers.ts';
import { FAST_RECONNECT, FAST_TIMING } from './helpers.ts';

describe('card frames with no HELLO', () => {
  const stops: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  });

  it('are NAKed, never dealt, and alarmed once per connection', async () => {
    const wire = createMemoryPair(`no-hello-${Math.random().toString(36).slice(2)}`);
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: wire.host,
      timing: FAST_TIMING,
      reconnect: FAST_RECONNECT,
    });
    const observations: Observation[] = [];
    driver.on('record', (observation) => observations.push(observation));
    const alarms = alarmsOf(driver);
    driver.start();
    stops.push(() => driver.stop());

    const rogue = wire.device;
    let naksForHello = 0;
    let pending = '';
    rogue.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      const lines = pending.split('\r\n');
      pending = lines.pop()!;
      for (const line of lines) {
        const event = parseFrameLine(`${line}\r\n`);
        if (
          event.kind === 'frame' &&
          event.frame.type === 'NAK' &&
          event.frame.fields[1] === 'hello'
        )
          naksForHello++;
      }
    });
    await rogue.open();
    stops.push(() => rogue.close());

    let sent = 0;
    const send = () => {
      sent++;
      const line = encodeFrame({
        talker: 'SH',
        seq: sent,
        type: 'CARD',
        fields: ['AS', 'red', 'up'],
      });
      rogue.write(Buffer.from(line, 'latin1')).catch(() => undefined);
    };
    const writer = setInterval(send, 20);
    stops.push(async () => clearInterval(writer));

    await until(() => alarms.length > 0, 'the alarm', 10_000);
    // Many frames and beats later, still one alarm for this connection.
    const atAlarm = naksForHello;
    await until(() => naksForHello >= atAlarm + 60, '60 more NAKs', 10_000);
    clearInterval(writer);

    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      type: 'alarm',
      kind: 'device_unauthenticated',
      device: 'shoe',
      reason: 'no_hello',
    });
    expect(alarms[0]!.message).toContain('with no HELLO');
    expect(Number(alarms[0]!.frames)).toBeGreaterThan(0);
    expect(observations).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(naksForHello);
  });
});
