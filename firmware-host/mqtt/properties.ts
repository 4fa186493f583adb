/**
 * MQTT 5 message properties of what the bridge publishes, and the check of
 * a request's Response Topic. Pure. The names (content type
 * `application/json`, user property `seq`, Response Topic, Correlation
 * Data) are the ones docs/asyncapi.yaml describes.
 */

export const JSON_CONTENT_TYPE = 'application/json';

export interface PublishProperties {
  contentType?: string;
  payloadFormatIndicator?: boolean;
  userProperties?: Record<string, string>;
  correlationData?: Buffer;
}

/** An event: JSON (so UTF-8), with its journal seq readable without parsing the payload. */
export function eventProperties(seq: number): PublishProperties {
  return {
    contentType: JSON_CONTENT_TYPE,
    payloadFormatIndicator: true,
    userProperties: { seq: String(seq) },
  };
}

/** A response, on `bridge/response/<op>` or on the request's Response Topic (with its Correlation Data). */
export function responseProperties(correlationData?: Buffer): PublishProperties {
  return {
    contentType: JSON_CONTENT_TYPE,
    payloadFormatIndicator: true,
    ...(correlationData !== undefined ? { correlationData } : {}),
  };
}

const MAX_TOPIC_BYTES = 65_535;

/**
 * Why the bridge will not answer on `topic`, or undefined when it may.
 * Never inside the table's own topics: a requester must not make the
 * daemon publish what looks like an event, the state or `bridge/state`.
 */
export function responseTopicProblem(topic: string, tableRoot: string): string | undefined {
  if (topic.length === 0) return 'it is empty';
  if (/[+#]/.test(topic)) return 'it holds a wildcard (+ or #), which a PUBLISH may not';
  if (topic.includes('\u0000')) return 'it holds a NUL character';
  if (topic.startsWith('$')) return 'it starts with "$" (reserved for the broker)';
  if (Buffer.byteLength(topic) > MAX_TOPIC_BYTES) return 'it is longer than 65,535 bytes';
  if (topic === tableRoot || topic.startsWith(`${tableRoot}/`)) {
    return `it lies inside the table's own topics (${tableRoot}/...), which only the daemon's own messages use`;
  }
  return undefined;
}
