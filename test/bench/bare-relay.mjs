// The latency baseline as a process of its own, started exactly as the
// daemon is (the systemd unit's node flags) on the same kind of pty and
// broker: it reframes the shoe's link (ACKs at once) and publishes each card
// at QoS 1, nothing else. Plain JavaScript on the built modules (dist/), so
// that no TypeScript loader runs in it where the daemon has none; on the
// sources (BENCH_RELAY_SOURCE=1, started with tsx) beside a daemon run from
// source, for the harness's smoke test.
//
//   node <flags> test/bench/bare-relay.mjs DEVICE_PATH BROKER_URL CARD_TOPIC
//
// Prints `ready` once the pty is open and the broker connected.
import { connectAsync } from 'mqtt';
import { relayCards } from './relay-cards.mjs';

const modules =
  process.env.BENCH_RELAY_SOURCE === '1'
    ? ['../../device-protocol/link.ts', '../../hardware/transports/url.ts']
    : ['../../dist/device-protocol/link.js', '../../dist/hardware/transports/url.js'];
const [{ LinkSession }, { openTransport }] = await Promise.all(
  modules.map((module) => import(module)),
);

const [devicePath, brokerUrl, cardTopic] = process.argv.slice(2);
if (!devicePath || !brokerUrl || !cardTopic) {
  process.stderr.write('usage: bare-relay.mjs DEVICE_PATH BROKER_URL CARD_TOPIC\n');
  process.exit(2);
}

const publisher = await connectAsync(brokerUrl, {
  clientId: `bench-relay-${process.pid}`,
  reconnectPeriod: 0,
});
const transport = openTransport(devicePath);
await transport.open();
const session = new LinkSession({ localTalker: 'HO', peerTalker: 'SH' });
relayCards({ session, transport, publisher, cardTopic });
process.on('SIGTERM', async () => {
  await transport.close().catch(() => undefined);
  await publisher.endAsync().catch(() => undefined);
  process.exit(0);
});
process.stdout.write('ready\n');
