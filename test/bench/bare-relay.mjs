// The latency baselines as processes of their own, started exactly as the
// daemon is (the systemd unit's node flags) on the same kind of pty and
// broker. The bare relay reframes the shoe's link (ACKs at once) and
// publishes each card at QoS 1, nothing else. The durable relay (a file
// named) appends each card to that file opened as the journal opens its
// files (O_DSYNC where the platform has it, else an fdatasync per write),
// ACKs it only once the write returns, then publishes it: the least a daemon
// that never loses an ACKed card can do. Plain JavaScript on the built
// modules (dist/), so that no TypeScript loader runs in it where the daemon
// has none; on the sources (BENCH_RELAY_SOURCE=1, started with tsx) beside a
// daemon run from source, for the harness's smoke test.
//
//   node <flags> test/bench/bare-relay.mjs DEVICE_PATH BROKER_URL CARD_TOPIC [DURABLE_FILE]
//
// Prints `ready` once the pty is open and the broker connected.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { connectAsync } from 'mqtt';
import { relayCards } from './relay-cards.mjs';

const modules =
  process.env.BENCH_RELAY_SOURCE === '1'
    ? ['../../device-protocol/link.ts', '../../hardware/transports/url.ts']
    : ['../../dist/device-protocol/link.js', '../../dist/hardware/transports/url.js'];
const [{ LinkSession }, { openTransport }] = await Promise.all(
  modules.map((module) => import(module)),
);

const [devicePath, brokerUrl, cardTopic, durableFile] = process.argv.slice(2);
if (!devicePath || !brokerUrl || !cardTopic) {
  process.stderr.write('usage: bare-relay.mjs DEVICE_PATH BROKER_URL CARD_TOPIC [DURABLE_FILE]\n');
  process.exit(2);
}

/** The journal's flags: each write returns once its data is as durable as after fdatasync. */
async function durableStore(file) {
  const dataSync = constants.O_DSYNC ?? 0;
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | dataSync,
    0o600,
  );
  return {
    handle,
    async append(line) {
      await handle.write(line);
      if (dataSync === 0) await handle.datasync();
    },
  };
}

const publisher = await connectAsync(brokerUrl, {
  clientId: `bench-relay-${process.pid}`,
  reconnectPeriod: 0,
});
const store = durableFile ? await durableStore(durableFile) : undefined;
const transport = openTransport(devicePath);
await transport.open();
const session = new LinkSession({
  localTalker: 'HO',
  peerTalker: 'SH',
  ...(store ? { deferAck: ['CARD'] } : {}),
});
relayCards({ session, transport, publisher, cardTopic, ...(store ? { store } : {}) });
process.on('SIGTERM', async () => {
  await transport.close().catch(() => undefined);
  await store?.handle.close().catch(() => undefined);
  await publisher.endAsync().catch(() => undefined);
  process.exit(0);
});
process.stdout.write('ready\n');
