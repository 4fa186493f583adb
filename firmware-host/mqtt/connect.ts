/**
 * How the bridge gets an MQTT.js client, without loading what it does not
 * use. `import('mqtt')` loads every transport MQTT.js has (WebSocket with
 * `ws`, SOCKS proxies with `socks` and `ip-address`, ...) whatever the URL:
 * about 4 MB of a daemon that runs for years on a Pi. For the plain
 * `mqtt://host[:port]` and `mqtts://host[:port]` URLs a casino configures,
 * this builds the same socket MQTT.js would (its connect/tcp.js and
 * connect/tls.js, without the proxy) and hands it to MQTT.js's own client.
 * Every other URL (ws://, wss://, credentials or a query in the URL) and a
 * SOCKS proxy (MQTTJS_SOCKS_PROXY) go through `mqtt.connect` unchanged.
 */
import type { IClientOptions, MqttClient } from 'mqtt';
import { fillMqttLengthCache } from './packet-length-cache.ts';

export interface MqttConnector {
  connect(url: string, options: IClientOptions): MqttClient;
}

interface PlainUrl {
  secure: boolean;
  host: string;
  port: number | undefined;
}

/** mqtt(s)://host[:port][/] with nothing MQTT.js would read more from; undefined otherwise. */
export function plainBrokerUrl(url: string): PlainUrl | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const secure = parsed.protocol === 'mqtts:';
  if (!secure && parsed.protocol !== 'mqtt:') return undefined;
  if (parsed.username || parsed.password || parsed.search || parsed.hash) return undefined;
  if (parsed.pathname !== '' && parsed.pathname !== '/') return undefined;
  // WHATWG keeps an IPv6 literal's brackets; a socket wants the bare address.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return undefined;
  return { secure, host, port: parsed.port === '' ? undefined : Number(parsed.port) };
}

/** The connector for `url`: the lean one when it can, MQTT.js's own otherwise. */
export async function mqttConnectorFor(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<MqttConnector> {
  fillMqttLengthCache();
  const plain = plainBrokerUrl(url);
  if (!plain || env.MQTTJS_SOCKS_PROXY) return await import('mqtt');
  const [client, net, tls] = await Promise.all([
    import('mqtt/lib/client'),
    import('node:net'),
    import('node:tls'),
  ]);
  // A CommonJS module with a transpiled `export default`: Node's namespace
  // `default` is module.exports (whose `default` is the class); loaders that
  // honour `__esModule` (vitest) hand over the class itself.
  const exported: unknown = client.default;
  const Client: typeof client.default.default =
    typeof exported === 'function'
      ? (exported as typeof client.default.default)
      : client.default.default;
  return {
    connect(_url: string, options: IClientOptions): MqttClient {
      // As MQTT.js: a client certificate and key turn mqtt:// into mqtts://.
      const secure = plain.secure || (options.cert !== undefined && options.key !== undefined);
      const host = plain.host;
      const port = plain.port ?? (secure ? 8883 : 1883);
      const clientOptions: IClientOptions = {
        ...options,
        protocol: secure ? 'mqtts' : 'mqtt',
        host,
        hostname: host,
        port,
      };
      const build = (mqttClient: MqttClient) => {
        if (!secure) return net.createConnection({ port, host });
        // MQTT.js's connect/tls.js: SNI for names, verification on unless refused.
        const rejectUnauthorized = options.rejectUnauthorized !== false;
        const socket = tls.connect({
          host,
          port,
          ...(net.isIP(host) === 0 && !options.servername ? { servername: host } : {}),
          ...(options.servername ? { servername: options.servername } : {}),
          ...(options.ca !== undefined ? { ca: options.ca as string | Buffer } : {}),
          ...(options.cert !== undefined ? { cert: options.cert as string | Buffer } : {}),
          ...(options.key !== undefined ? { key: options.key as string | Buffer } : {}),
          rejectUnauthorized,
        });
        const onTlsError = (error: Error) => {
          if (rejectUnauthorized) mqttClient.emit('error', error);
          socket.end();
        };
        socket.on('secureConnect', () => {
          if (rejectUnauthorized && !socket.authorized) {
            socket.emit('error', new Error('TLS not authorized'));
          } else {
            socket.removeListener('error', onTlsError);
          }
        });
        socket.on('error', onTlsError);
        return socket;
      };
      const mqttClient = new Client(build, clientOptions);
      // As mqtt.connect: an error with no listener of the caller's must not throw.
      mqttClient.on('error', () => undefined);
      return mqttClient;
    },
  };
}
