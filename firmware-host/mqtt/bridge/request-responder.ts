/**
 * Requests in, answers out. Every request passes the gate first (its size,
 * its retain flag, the table's load, its signature), then its schema, then
 * the table's handler; each is answered on `bridge/response/<op>` and, for
 * an MQTT 5 request with a Response Topic, there as well with its
 * Correlation Data. An answer is kept until the broker acknowledges it, and
 * sent again after a reconnect, so none is lost.
 */
import type { IClientPublishOptions } from 'mqtt';
import { type PublishProperties, responseProperties, responseTopicProblem } from '../properties.ts';
import { describeReason } from '../reason-codes.ts';
import {
  decodeRequestBody,
  isJsonObject,
  NOT_AN_OBJECT,
  parseRequestFields,
  transactionOf,
} from '../requests.ts';
import type { TableTopics } from '../topics.ts';
import type { RequestProperties } from './connection.ts';
import type {
  BridgeOptions,
  EmitBridgeEvent,
  LiveConnection,
  RequestAuthorizer,
} from './options.ts';

/**
 * A request payload over this many bytes is refused by its size, unread
 * (`too_large`): the largest legal request, signed, is a few kilobytes.
 */
export const REQUEST_MAX_BYTES = 16 * 1024;

/**
 * Requests handed to the table and not answered yet, at most: more are
 * refused at once (`busy`), so a flood queues nothing in the daemon.
 */
export const REQUESTS_IN_HAND_MAX = 64;

/** An answer whose connection went this many times while it was in flight is dropped, logged. */
const ANSWER_SENDS_MAX = 2;
/** MQTT 5 DISCONNECT reason 0x95: the broker closed the connection for a packet over its limit. */
const PACKET_TOO_LARGE = 0x95;

/** An answer to a request, kept until the broker acknowledges it. */
interface Answer {
  topic: string;
  body: string;
  options: IClientPublishOptions;
  /** Times handed to the client; at most ANSWER_SENDS_MAX. */
  sends: number;
  /** The broker refused it (an MQTT 5 reason code): it is not sent again. */
  refused?: (code: number) => void;
}

export class RequestResponder {
  /** Requests handed to `onRequest` and not answered yet. */
  #inHand = 0;
  /** Answers the broker has not acknowledged: sent again after a reconnect, so none is lost. */
  readonly #unacknowledged = new Set<Answer>();

  constructor(
    private readonly options: Pick<BridgeOptions, 'onRequest' | 'authorize' | 'log'>,
    private readonly topics: TableTopics,
    private readonly connection: LiveConnection,
    private readonly emit: EmitBridgeEvent,
  ) {}

  /** A new connection: answers in flight through too many connections are dropped, the rest sent again. */
  resendAnswers(): void {
    // The connection went each time these were in flight: an answer may itself be what
    // a 3.1.1 broker closes it for (over its packet size), and would never end.
    this.#dropAnswersInFlight('the connection went each time it was sent', ANSWER_SENDS_MAX);
    for (const answer of this.#unacknowledged) this.#publishAnswer(answer);
  }

  /** The broker closed the connection with this reason code. */
  brokerDisconnected(reasonCode: number): void {
    if (reasonCode === PACKET_TOO_LARGE) this.#dropAnswersInFlight("over the broker's packet size");
  }

  async onMessage(
    topic: string,
    payload: Buffer,
    retained: boolean,
    properties: RequestProperties | undefined,
  ): Promise<void> {
    const op = this.topics.opOf(topic);
    if (op === undefined) return;
    const reply = this.#replier(op, properties);
    const respond = (body: Record<string, unknown>, transaction: string | number | undefined) =>
      reply(JSON.stringify(transaction === undefined ? body : { ...body, transaction }));
    const admitted = admitRequest(this.options.authorize, topic, payload, {
      retained,
      busy: this.#inHand >= REQUESTS_IN_HAND_MAX,
    });
    if (admitted.refused) {
      const { code, error, transaction } = admitted.refused;
      this.options.log?.warn({ op, code, error }, 'request refused');
      this.emit('refused', op, code, error);
      respond({ status: 'error', code, error }, transaction);
      return;
    }
    if ('problem' in admitted) {
      respond({ status: 'error', code: 'bad_request', error: admitted.problem }, undefined);
      return;
    }
    const parsed = parseRequestFields(op, admitted.fields);
    if (!parsed.ok) {
      respond({ status: 'error', code: 'bad_request', error: parsed.error }, parsed.transaction);
      return;
    }
    this.#inHand++;
    try {
      const data = await this.options.onRequest(parsed.request, { signer: admitted.signer });
      respond({ status: 'ok', data: data ?? {} }, parsed.transaction);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      respond(
        {
          status: 'error',
          code: typeof code === 'string' ? code : 'failed',
          error: error instanceof Error ? error.message : String(error),
        },
        parsed.transaction,
      );
    } finally {
      this.#inHand--;
    }
  }

  /**
   * How a request is answered: on `bridge/response/<op>` and, for an MQTT 5
   * request with a Response Topic, there as well with its Correlation Data.
   * A response topic the bridge will not or may not publish to is logged;
   * the answer on `bridge/response/<op>` goes out all the same.
   */
  #replier(op: string, properties: RequestProperties | undefined): (body: string) => void {
    const v5 = this.connection.protocolVersion === 5;
    const responseTopic = v5 ? properties?.responseTopic : undefined;
    const correlationData = properties?.correlationData;
    let direct: string | undefined;
    if (responseTopic !== undefined) {
      const problem = responseTopicProblem(responseTopic, this.topics.root);
      if (problem === undefined) direct = responseTopic;
      else {
        this.options.log?.warn(
          { op, responseTopic, problem },
          `request ${op}: not answered on its response topic "${responseTopic}": ${problem}; answered on ${this.topics.response(op)}`,
        );
      }
    }
    return (body) => {
      const properties: PublishProperties | undefined = v5 ? responseProperties() : undefined;
      this.#sendAnswer({
        topic: this.topics.response(op),
        body,
        options: properties ? { qos: 1, properties } : { qos: 1 },
        sends: 0,
      });
      if (direct === undefined) return;
      const topic = direct;
      this.#sendAnswer({
        topic,
        body,
        options: { qos: 1, properties: responseProperties(correlationData) },
        sends: 0,
        refused: (code) => {
          const reason = describeReason('PUBACK', code, 5);
          this.options.log?.warn(
            { op, responseTopic: topic, reason },
            `request ${op}: the broker refused the answer on its response topic "${topic}": ${reason}; it was answered on ${this.topics.response(op)}`,
          );
        },
      });
    };
  }

  /** Forgets the answers sent at least `sends` times and not acknowledged, each logged. */
  #dropAnswersInFlight(why: string, sends = 1): void {
    for (const answer of this.#unacknowledged) {
      if (answer.sends < sends) continue;
      this.#unacknowledged.delete(answer);
      this.options.log?.warn(
        { topic: answer.topic, sends: answer.sends },
        `answer dropped: ${why}`,
      );
    }
  }

  /** Publishes an answer now, or on the next connect; kept until the broker acknowledges it. */
  #sendAnswer(answer: Answer): void {
    this.#unacknowledged.add(answer);
    this.#publishAnswer(answer);
  }

  #publishAnswer(answer: Answer): void {
    const client = this.connection.client;
    if (!client) return; // sent on the next connect
    answer.sends++;
    client.publish(answer.topic, answer.body, answer.options, (error) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      // Another error is the connection going: the answer is sent again on the next.
      if (error && typeof code !== 'number') return;
      this.#unacknowledged.delete(answer);
      if (typeof code === 'number') answer.refused?.(code);
    });
  }
}

type Admitted =
  | {
      refused?: undefined;
      /** The payload's fields, without `auth`. */
      fields: Record<string, unknown>;
      signer: string | undefined;
    }
  /** A body that is not a JSON object, on a table that takes unsigned requests. */
  | { refused?: undefined; problem: string }
  | {
      refused: { code: string; error: string; transaction: string | number | undefined };
    };

/**
 * The gate every request passes before its fields are read: its size
 * (unread when too large), its retain flag, the table's load, then the
 * authorizer (its signature), whatever its body. A body that is not a JSON
 * object carries no fields and no signature: it is checked as a request
 * with none, so a table that needs signatures refuses it (`unsigned`), and
 * a bench answers it `bad_request` naming what was wrong.
 */
export function admitRequest(
  authorize: RequestAuthorizer | undefined,
  topic: string,
  payload: Buffer,
  state: { retained: boolean; busy: boolean },
): Admitted {
  const refuse = (code: string, error: string, transaction?: string | number) => ({
    refused: { code, error, transaction },
  });
  if (payload.length > REQUEST_MAX_BYTES) {
    return refuse(
      'too_large',
      `request of ${payload.length} bytes refused unread: at most ${REQUEST_MAX_BYTES} bytes`,
    );
  }
  const decoded = decodeRequestBody(payload);
  const body = decoded.ok ? decoded.body : undefined;
  const transaction = transactionOf(body);
  if (state.retained) {
    // Obeyed once, it would be obeyed again at every connect of the table.
    return refuse(
      'retained',
      `a retained request is never obeyed (the broker hands it over again at every connect); publish it without retain, and clear this one: mosquitto_pub -r -n -t ${topic}`,
      transaction,
    );
  }
  if (state.busy) {
    return refuse(
      'busy',
      `the table has ${REQUESTS_IN_HAND_MAX} requests in hand; send it again once they are answered`,
      transaction,
    );
  }
  const fields = isJsonObject(body) ? body : {};
  let check: ReturnType<RequestAuthorizer>;
  try {
    check = authorize ? authorize(topic, fields) : { ok: true, fields, signer: undefined };
  } catch (error) {
    // A checker that throws must not take the daemon down: the request is refused.
    check = { ok: false, code: 'bad_request', error: `request not checked: ${String(error)}` };
  }
  const problem = !decoded.ok ? decoded.error : isJsonObject(body) ? undefined : NOT_AN_OBJECT;
  if (!check.ok) {
    return refuse(check.code, problem ? `${problem}; ${check.error}` : check.error, transaction);
  }
  if (problem !== undefined) return { problem };
  return { fields: check.fields, signer: check.signer };
}
