/**
 * docs/asyncapi.yaml for tests: the document, its local `$ref`s resolved,
 * Ajv validators of its payload schemas, and which channel and message a
 * publication is. Used by test/unit/mqtt/asyncapi-document.test.ts.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { REQUEST_OPS } from '../../firmware-host/mqtt/topics.ts';
import type { Publication } from './recording-mqtt.ts';

const DOC_PATH = new URL('../../docs/asyncapi.yaml', import.meta.url);

export type Json = Record<string, unknown>;
export interface Doc {
  asyncapi: string;
  info: Json;
  channels: Record<string, { address: string; parameters?: Json; messages: Record<string, Json> }>;
  operations: Record<
    string,
    {
      action: string;
      channel: { $ref: string };
      messages: Array<{ $ref: string }>;
      bindings?: { mqtt?: { qos?: number; retain?: boolean } };
      reply?: { channel: { $ref: string }; messages: Array<{ $ref: string }> };
    }
  >;
  components: Json;
}

/** The document as text, and parsed. */
export const text = readFileSync(DOC_PATH, 'utf8');
export const doc = parseYaml(text) as Doc;

/** The value a local `$ref` (`#/a/b`) points at, or undefined. */
export function pointer(ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = doc;
  for (const part of ref.slice(2).split('/')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Json)[part.replaceAll('~1', '/').replaceAll('~0', '~')];
  }
  return node;
}

/** A copy of `value` with every local `$ref` replaced by what it points at. */
export function dereference(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dereference);
  if (value === null || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') return dereference(pointer(ref));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dereference(v)]));
}

/** A copy of a schema without its `description`s: words for people, not constraints. */
export function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'description')
      .map(([key, item]) => [key, withoutDescriptions(item)]),
  );
}

/** A channel's messages, each resolved to its component message. */
export function messagesOf(channelId: string): Json[] {
  const channel = doc.channels[channelId];
  if (!channel) throw new Error(`no channel ${channelId}`);
  return Object.values(channel.messages).map((message) => dereference(message) as Json);
}

/** Ajv (JSON Schema draft-07, strict) holding the components as `asyncapi#/components/...`. */
export const ajv = new Ajv({ allErrors: true, allowUnionTypes: true, strictTuples: false });
ajv.addSchema({ $id: 'asyncapi', components: doc.components }, undefined, undefined, false);
ajv.addKeyword('components');

/** A validator for a component message's payload (by its `$ref`). */
export function payloadValidator(messageRef: string): ValidateFunction {
  const ref = String((pointer(messageRef) as { $ref?: string }).$ref ?? messageRef);
  return ajv.compile({ $ref: `asyncapi${ref}/payload` });
}

/** Channel id → its messages' payload validators, with each message's name. */
export function validatorsOf(
  channelId: string,
): Array<{ name: string; ref: string; validate: ValidateFunction }> {
  const channel = doc.channels[channelId]!;
  return Object.entries(channel.messages).map(([id, message]) => {
    const ref = (message as { $ref?: string }).$ref ?? `#/channels/${channelId}/messages/${id}`;
    return {
      name: String((pointer(ref) as { name?: unknown }).name),
      ref,
      validate: payloadValidator(ref),
    };
  });
}

/** The channel whose address matches `topic`, with its parameter values. */
export function channelOf(
  topic: string,
): { id: string; params: Record<string, string> } | undefined {
  for (const [id, channel] of Object.entries(doc.channels)) {
    const names: string[] = [];
    const pattern = channel.address
      .replace(/[.+*?^$()[\]\\|]/g, '\\$&')
      .replace(/\{(\w+)\}/g, (_m, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
    const match = new RegExp(`^${pattern}$`).exec(topic);
    if (match) {
      return { id, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
    }
  }
  return undefined;
}

/** The message of its channel that `publication` is, or why it is none. */
export function matchOf(
  publication: Publication,
): { message: string; ref: string; payload: unknown } | { problem: string } {
  const found = channelOf(publication.topic);
  if (!found) return { problem: `${publication.topic}: no channel has this address` };
  const op = found.params.op;
  const candidates = validatorsOf(found.id).filter(
    ({ name }) =>
      op === undefined ||
      name === op ||
      // An unknown op is answered with an error, which every response message allows.
      !(REQUEST_OPS as readonly string[]).includes(op),
  );
  let payload: unknown = publication.payload;
  try {
    payload = JSON.parse(publication.payload);
  } catch {
    // text/plain payloads (online/offline) are validated as strings
  }
  const errors: string[] = [];
  for (const { name, ref, validate } of candidates) {
    if (validate(payload)) return { message: `${found.id}/${name}`, ref, payload };
    errors.push(`${name}: ${ajv.errorsText(validate.errors)}`);
  }
  return {
    problem: `${publication.topic} ${publication.payload}: ${errors.join(' | ') || 'no message'}`,
  };
}
