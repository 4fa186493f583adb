import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { DeviceDriver } from '../../../firmware-host/drivers/driver.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { DeckRegistry } from '../../../hardware/readers/deck-registry.ts';
import { TagReaderTransport } from '../../../hardware/readers/tag-reader-transport.ts';
import { WedgeReader } from '../../../hardware/readers/wedge.ts';
import { parseTransportUrl } from '../../../hardware/transports/url.ts';
import {
  DECIMAL_REVERSED_KEYPAD,
  HEX_LOWER_ROLLOVER_7_BYTES,
  HEX_UPPER_WITH_SHIFT,
  NOT_A_UID,
  type RecordedReader,
  reportBytes,
} from '../../fixtures/wedge/boot-keyboard-reports.ts';
import { until } from './pn532-on-a-pty.ts';

/**
 * The reader's HID device as node-hid presents it ('data' reports, 'error'
 * on unplug). node-hid needs a real USB device, so this one seam is a double:
 * the reports it plays are the hand-written fixtures.
 */
class RecordedHidDevice extends EventEmitter {
  closed = false;
  play(recorded: RecordedReader): void {
    for (const report of recorded.reports) this.emit('data', reportBytes(report));
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

const registry = new DeckRegistry();
registry.enrol('red-9', 'red', [
  ['DEADBEEF', 'TD'],
  ['04A1B2C3D4E5F6', '9H'],
]);

describe('a keyboard-wedge reader deals typed UIDs as cards and names what it cannot read', () => {
  let stop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await stop?.();
  });

  function wedgeReader(url: string) {
    const spec = parseTransportUrl(url);
    if (spec.kind !== 'wedge') throw new Error('not a wedge URL');
    const devices: RecordedHidDevice[] = [];
    let unplugged = false;
    const transport = new TagReaderTransport(
      'wedge',
      url,
      () =>
        new WedgeReader({
          vendorId: spec.vendorId,
          productId: spec.productId,
          format: spec.format,
          retryMs: 50,
          async open() {
            if (unplugged) throw new Error('not connected');
            const device = new RecordedHidDevice();
            devices.push(device);
            return device;
          },
        }),
    );
    const driver = new DeviceDriver({
      name: 'reader',
      kind: 'reader',
      transport,
      registry,
      timing: { heartbeatMs: 200, offlineAfterMs: 2_000, silenceTimeoutMs: 3_000 },
      reconnect: { initialDelayMs: 20, maxDelayMs: 200 },
    });
    const cards: string[] = [];
    const alarms: Extract<DomainEvent, { type: 'alarm' }>[] = [];
    const hellos: string[] = [];
    driver.on('record', (observation) => {
      if (observation.record.t === 'card')
        cards.push(`${observation.record.card}/${observation.record.back}`);
      observation.ack();
    });
    driver.on('alarm', (alarm) => alarms.push(alarm));
    driver.on('hello', (identity) => hellos.push(`${identity.model} ${identity.firmware}`));
    driver.start();
    stop = () => driver.stop();
    return {
      cards,
      alarms,
      hellos,
      device: () => devices[devices.length - 1] as RecordedHidDevice,
      unplug(on: boolean) {
        unplugged = on;
      },
      devices,
    };
  }

  it('hex readers: a card per UID, an alarm for a foreign tag and for a line that is no UID', async () => {
    const reader = wedgeReader('wedge://ffff:0035?format=hex');
    await until(() => reader.hellos.length >= 1, 5_000, 'the HELLO');
    expect(reader.hellos[0]).toBe('WEDGE-ffff-0035 wedge-hex-msb');
    reader.device().play(HEX_UPPER_WITH_SHIFT);
    reader.device().play(HEX_LOWER_ROLLOVER_7_BYTES);
    await until(() => reader.cards.length === 2, 5_000, 'two cards');
    reader.device().play(NOT_A_UID);
    await until(() => reader.alarms.length === 1, 5_000, 'the bad-input alarm');
    expect(reader.alarms[0]).toMatchObject({ kind: 'device_fault', fault: 'wedge_bad_uid' });
    expect(reader.alarms[0]?.message).toMatch(
      /"hello" is not hex digits: set the reader to hex UIDs/,
    );
    // A foreign tag (a 4-byte UID not enrolled) is the registry's alarm, as with any reader.
    reader.device().emit('data', reportBytes('00 00 1e 00 00 00 00 00'));
    for (const usage of ['1f', '20', '21', '22', '23', '24', '25']) {
      reader.device().emit('data', reportBytes(`00 00 ${usage} 00 00 00 00 00`));
    }
    reader.device().emit('data', reportBytes('00 00 28 00 00 00 00 00'));
    await until(() => reader.alarms.length === 2, 5_000, 'the foreign-card alarm');
    expect(reader.alarms[1]).toMatchObject({ kind: 'foreign_card', uid: '12345678' });
    expect(reader.cards).toEqual(['TD/red', '9H/red']);
  });

  it('a reversed decimal reader maps to the same cards; an unplugged reader is an alarm, then reopened', async () => {
    const reader = wedgeReader('wedge://ffff:0035?format=dec&order=reversed');
    await until(() => reader.hellos.length >= 1, 5_000, 'the HELLO');
    reader.device().play(DECIMAL_REVERSED_KEYPAD);
    await until(() => reader.cards.length === 1, 5_000, 'the card');
    expect(reader.cards).toEqual(['TD/red']);

    reader.unplug(true);
    reader.device().emit('error', new Error('could not read from HID device'));
    await until(() => reader.alarms.length === 1, 5_000, 'the unplug alarm');
    expect(reader.alarms[0]).toMatchObject({ kind: 'device_fault', fault: 'wedge_unplugged' });
    expect(reader.alarms[0]?.message).toMatch(/plug it back in/);
    // fixed wait: nothing happens: the reader must not be reopened while it is still unplugged: only time shows it
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reader.devices).toHaveLength(1);
    reader.unplug(false);
    await until(() => reader.devices.length === 2, 5_000, 'the reopened reader');
    reader.device().play(DECIMAL_REVERSED_KEYPAD);
    await until(() => reader.cards.length === 2, 5_000, 'the card after the reopen');
    expect(reader.devices[0]?.closed).toBe(true);
  });
});
