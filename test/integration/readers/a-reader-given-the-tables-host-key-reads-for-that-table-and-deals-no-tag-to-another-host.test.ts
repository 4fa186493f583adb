/**
 * The reader device (what `tableside firmware reader --host-key` runs) given
 * the table's host key at pairing (protocol 1.7, PROTOCOL.md § 5.2): through
 * the real driver over an in-memory line, a host that does not hold that key
 * gets no session (the reader reports host_lost, and no tag reaches it), and
 * the table that holds it gets the tag.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostSigner } from '../../../device-protocol/auth/host-auth.ts';
import { DeviceDriver, type Observation } from '../../../firmware-host/drivers/driver.ts';
import { firmwareHello, READER_MODEL } from '../../../hardware/firmware/identity.ts';
import { deviceKey, generatedSigner, hostSignerOf } from '../../../hardware/keys/device-key.ts';
import { ReaderDevice } from '../../../hardware/readers/reader-device.ts';
import type { TagSource, TagSourceEvents } from '../../../hardware/readers/tag-source.ts';
import { createMemoryPair } from '../../../hardware/transports/memory.ts';
import { until } from '../../helpers/until.ts';
import { registryOf, tagOf } from '../firmware/shoe-rig.ts';

/** A tag source a test lays tags on. */
class LaidTags extends EventEmitter<TagSourceEvents> implements TagSource {
  readonly description = 'tags laid by the test';
  async start() {
    return {
      model: READER_MODEL,
      serial: 'READER-HK-1',
      firmware: '1.0',
      firmwareSha256: '0'.repeat(64),
    };
  }
  async stop() {
    // Nothing to release: the test lays the tags itself.
  }
}

const stops: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

async function readerAndTable(tableKey: HostSigner, hostKey: HostSigner) {
  const wire = createMemoryPair(`reader-host-key-${Math.random().toString(36).slice(2)}`);
  const key = await deviceKey(generatedSigner('ed25519'));
  const source = new LaidTags();
  const reader = new ReaderDevice({
    source,
    transport: wire.device,
    hello: firmwareHello(READER_MODEL, 'READER-HK-1'),
    key,
    hostKey: tableKey.publicKey,
  });
  const lost: string[] = [];
  reader.core.on('hostLost', (detail) => lost.push(detail));
  const driver = new DeviceDriver({
    name: 'reader',
    kind: 'reader',
    transport: wire.host,
    registry: registryOf(['blue']),
    pairedKey: key.publicKey,
    hostKey,
  });
  const observations: Observation[] = [];
  driver.on('record', (observation) => {
    observations.push(observation);
    observation.ack();
  });
  driver.start();
  reader.start();
  stops.push(async () => {
    await reader.stop();
    await driver.stop();
  });
  return { source, lost, observations, reader };
}

describe('a reader given the table host key', () => {
  it('reports host_lost to a host without that key, which gets no tag; the table gets it', async () => {
    const tableKey = hostSignerOf(generatedSigner('ed25519'));
    const stranger = await readerAndTable(tableKey, hostSignerOf(generatedSigner('ed25519')));
    stranger.source.emit('tag', Uint8Array.from(tagOf(1, 25)));
    await until(() => stranger.lost.length > 0, 'host_lost from the reader', 10_000);
    expect(stranger.lost[0]).toMatch(/no CONFIRM of our PROOFs within [\d.]+ ms/);
    expect(stranger.observations).toEqual([]);

    const table = await readerAndTable(tableKey, tableKey);
    table.source.emit('tag', Uint8Array.from(tagOf(1, 25)));
    await until(() => table.observations.length > 0, 'the tag at the table', 10_000);
    expect(table.observations[0]!.record).toMatchObject({ t: 'card', card: 'KH', back: 'blue' });
    expect(table.lost).toEqual([]);
  }, 30_000);
});
