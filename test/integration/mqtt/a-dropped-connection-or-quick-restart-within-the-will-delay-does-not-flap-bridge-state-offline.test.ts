/**
 * MQTT 5 will delay against a real mosquitto. The daemon reaches the broker
 * through a relay the test can cut (a pulled cable, a killed daemon: no
 * DISCONNECT). A connection that comes back within `willDelaySeconds`, and
 * a restart of the bridge with the same client id, resume the session, so
 * the broker never publishes the will: consumers see no `offline`. An
 * outage that lasts longer than the delay is announced once it has passed.
 */
import { expect, it } from 'vitest';
import {
  brokerFor,
  cleanupAfterEach,
  cuttableRelay,
  dealCards,
  makeBridge,
  mosquittoMissing,
  sleep,
  startMqtt5Bridge,
  v5Recorder,
  waitFor,
} from './support.ts';

const noMosquitto = mosquittoMissing();
const cleanup = cleanupAfterEach();

const WILL_DELAY_SECONDS = 2;

it.skipIf(noMosquitto)(
  'no offline for a cut or a restart within the will delay, offline after it for a longer outage',
  async () => {
    const broker = await brokerFor(cleanup);
    const relay = cleanup.later(await cuttableRelay(broker.port), (r) => r.close());
    const consumer = await v5Recorder(cleanup, broker.url);
    const states = () => consumer.on('bridge/state').map((message) => message.text);
    const options = {
      protocolVersion: 5 as const,
      clientId: 'tableside-will-delay-test',
      willDelaySeconds: WILL_DELAY_SECONDS,
      sessionExpirySeconds: 60,
      backoff: { initialMs: 100, maxMs: 200 },
    };
    const { store, bridge: first } = await startMqtt5Bridge(cleanup, relay.url, options);
    await waitFor(() => states().includes('online'), 'online');

    // 1. The connection drops and comes back on the bridge's first retry.
    relay.cut();
    await waitFor(() => first.connections === 2, 'the bridge to reconnect');
    await dealCards(store.journal, 2);
    // fixed wait: nothing happens: no offline may arrive past the will delay: only time shows it
    await sleep(WILL_DELAY_SECONDS * 1000 + 700);
    expect(states()).not.toContain('offline');

    // 2. The daemon dies (no DISCONNECT, no `offline` of its own) and a new one starts at once.
    relay.refuse(true);
    relay.cut();
    await waitFor(() => !first.isConnected, 'the first bridge to lose its connection');
    await first.stop();
    relay.refuse(false);
    const second = cleanup.later(makeBridge(relay.url, store, options), (b) => b.stop());
    await second.start();
    await waitFor(() => second.isConnected, 'the restarted bridge to connect');
    await dealCards(store.journal, 2, 2);
    // fixed wait: nothing happens: no offline may arrive past the will delay: only time shows it
    await sleep(WILL_DELAY_SECONDS * 1000 + 700);
    expect(states()).not.toContain('offline');
    await waitFor(() => consumer.events().length === 4, 'the 4 cards');

    // 3. An outage longer than the delay: `offline`, once the delay has passed.
    relay.refuse(true);
    const cutAt = Date.now();
    relay.cut();
    await waitFor(() => states().includes('offline'), 'offline', 10_000);
    const announcedAfter = Date.now() - cutAt;
    expect(announcedAfter).toBeGreaterThanOrEqual(WILL_DELAY_SECONDS * 1000 - 200);
    expect(states().filter((state) => state === 'offline')).toHaveLength(1);
  },
  30_000,
);
