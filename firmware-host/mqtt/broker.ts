/**
 * The embedded broker (`mqtt.url: embedded`): aedes 1.x in-process, on
 * 127.0.0.1 only, so a bench works with nothing installed. A casino runs
 * its own broker (mosquitto, EMQX, HiveMQ) and points `mqtt.url` at it.
 *
 * aedes speaks MQTT 3.1.1 and keeps retained messages in memory: they are
 * gone when the daemon stops, and the bridge republishes them on start.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AccessPolicy, BrokerRole } from './broker-access.ts';
import { MqttError } from './errors.ts';
import { fillMqttLengthCache } from './packet-length-cache.ts';

export interface EmbeddedBroker {
  /** e.g. mqtt://127.0.0.1:1883 */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export interface EmbeddedBrokerOptions {
  /** Default 1883; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1: the embedded broker is for this machine only. */
  host?: string;
  /** Who may log in and publish what (broker-access.ts); absent: anyone, anything. */
  access?: AccessPolicy;
  /** Told of every refused login or publish (for the daemon's log). */
  onRefused?: (what: string) => void;
}

export async function startEmbeddedBroker(
  options: EmbeddedBrokerOptions = {},
): Promise<EmbeddedBroker> {
  const host = options.host ?? '127.0.0.1';
  const requested = options.port ?? 1883;
  fillMqttLengthCache();
  const { Aedes } = await import('aedes');
  const broker = await Aedes.createBroker(accessHandlers(options));
  const server = createServer(broker.handle);
  // A socket whose CONNECT the broker has not taken yet is no client of aedes' (its close
  // leaves it open), and server.close waits for every socket: close destroys what is left.
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  try {
    await listen(server, requested, host);
  } catch (error) {
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new MqttError(
        'port_in_use',
        `cannot start the embedded MQTT broker: port ${requested} on ${host} is already in use ` +
          `(another MQTT broker, such as mosquitto, is probably running there). Either use that broker: ` +
          `set mqtt.url to mqtt://${host}:${requested} in the config (or TABLESIDE_MQTT_URL=mqtt://${host}:${requested}); ` +
          'or give the embedded broker another port with mqtt.port; or stop the program holding the port ' +
          `(\`ss -ltnp 'sport = :${requested}'\` shows which).`,
        { cause: error },
      );
    }
    throw new MqttError(
      'broker_failed',
      `cannot start the embedded MQTT broker on ${host}:${requested}: ${String(error)}`,
      {
        cause: error,
      },
    );
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : requested;
  let closing: Promise<void> | undefined;
  return {
    url: `mqtt://${host}:${port}`,
    port,
    close: () => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => broker.close(() => resolve()));
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
      })();
      return closing;
    },
  };
}

type AedesHandlers = NonNullable<Parameters<typeof import('aedes').Aedes.createBroker>[0]>;

const roles = new WeakMap<object, BrokerRole>();

function accessHandlers(options: EmbeddedBrokerOptions): AedesHandlers {
  const access = options.access;
  if (!access) return {};
  const refused = options.onRefused ?? (() => undefined);
  return {
    authenticate: (client, username, password, done) => {
      access.authenticate(username, password).then(
        (result) => {
          if (result.ok) {
            roles.set(client, result.role);
            done(null, true);
            return;
          }
          refused(`login refused: ${result.reason}`);
          const error = Object.assign(new Error(result.reason), { returnCode: 4 as const });
          done(error as Parameters<typeof done>[0], false);
        },
        (error: unknown) =>
          done(
            Object.assign(new Error(String(error)), { returnCode: 3 as const }) as Parameters<
              typeof done
            >[0],
            false,
          ),
      );
    },
    authorizePublish: (client, packet, done) => {
      // The broker's own messages (a client's will is checked like a publish).
      if (!client) return done(null);
      const role = roles.get(client) ?? 'anonymous';
      const problem = access.publishProblem(role, packet.topic, packet.retain);
      if (problem === undefined) return done(null);
      refused(`publish on ${packet.topic} refused: ${problem}`);
      done(new Error(problem));
    },
    authorizeSubscribe: (client, subscription, done) => {
      const role = (client && roles.get(client)) ?? 'anonymous';
      const problem = access.subscribeProblem(role, subscription.topic);
      if (problem === undefined) return done(null, subscription);
      refused(`subscription to ${subscription.topic} refused: ${problem}`);
      // A refused subscription (SUBACK 0x80); the client stays connected.
      done(null, null);
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}
