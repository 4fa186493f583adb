/**
 * An MQTT client that records what the bridge publishes instead of sending
 * it, for unit tests that check payloads without a broker. It connects at
 * once, acknowledges every publish, and delivers messages the test hands it
 * as if they came from the broker. Used through `vi.mock` of
 * `firmware-host/mqtt/connect.ts` (the bridge's only way to a client).
 */
import { EventEmitter } from 'node:events';
import type { IClientOptions, MqttClient } from 'mqtt';
import type { MqttConnector } from '../../firmware-host/mqtt/connect.ts';

export interface Publication {
  topic: string;
  payload: string;
  qos: number;
  retain: boolean;
  /** MQTT 5 properties, when the bridge set any. */
  properties: Record<string, unknown> | undefined;
}

interface PublishOptions {
  qos?: number;
  retain?: boolean;
  properties?: Record<string, unknown>;
}

type Callback = (error?: Error) => void;

export class RecordingClient extends EventEmitter {
  readonly published: Publication[] = [];
  readonly subscriptions: string[] = [];
  readonly options: IClientOptions;

  constructor(options: IClientOptions) {
    super();
    this.options = options;
    setImmediate(() => this.emit('connect', {}));
  }

  subscribe(filter: string, _options: unknown, callback?: (error: Error | null) => void): this {
    this.subscriptions.push(filter);
    setImmediate(() => callback?.(null));
    return this;
  }

  publish(
    topic: string,
    payload: string | Buffer,
    options: PublishOptions,
    callback?: Callback,
  ): this {
    this.record(topic, payload, options);
    setImmediate(() => callback?.());
    return this;
  }

  async publishAsync(topic: string, payload: string | Buffer, options: PublishOptions) {
    this.record(topic, payload, options);
  }

  end(_force?: boolean, callback?: () => void): this {
    callback?.();
    return this;
  }

  async endAsync(): Promise<void> {
    // No connection to end: it only records.
  }

  /** A message from the broker on a topic the client subscribed to, with its MQTT 5 properties if any. */
  deliver(
    topic: string,
    payload: string | Record<string, unknown>,
    properties?: Record<string, unknown>,
  ): void {
    const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
    this.emit('message', topic, Buffer.from(text), properties ? { properties } : {});
  }

  private record(topic: string, payload: string | Buffer, options: PublishOptions): void {
    this.published.push({
      topic,
      payload: payload.toString(),
      qos: options.qos ?? 0,
      retain: options.retain ?? false,
      properties: options.properties,
    });
  }
}

/** Every client made, newest last. */
export const recordingClients: RecordingClient[] = [];

export const recordingConnector: MqttConnector = {
  connect(_url: string, options: IClientOptions): MqttClient {
    const client = new RecordingClient(options);
    recordingClients.push(client);
    return client as unknown as MqttClient;
  },
};
