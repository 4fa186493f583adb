/**
 * `tableside request OP [FIELD=VALUE...] --key FILE`: signs one request
 * with a supervisor's key, publishes it on the table's request topic and
 * prints the table's response. Exit 0 when the table answered ok.
 */
import { randomBytes } from 'node:crypto';
import { type Command, InvalidArgumentError } from 'commander';
import { REQUEST_OPS } from '../mqtt/topics.ts';

interface RequestOptions {
  key: string;
  config?: string;
  url?: string;
  table?: string;
  baseTopic?: string;
  username?: string;
  password?: string;
  timeout: number;
}

export function register(program: Command): void {
  program
    .command('request')
    .description(
      "sign a request with a supervisor's key, send it to the table and print the response",
    )
    .argument('<op>', `the request: ${REQUEST_OPS.join(', ')}`)
    .argument(
      '[fields...]',
      'NAME=VALUE; VALUE is read as JSON when it parses (boxes=[1,2]), else as text',
    )
    .requiredOption('--key <file>', "the supervisor's private key (`tableside key generate`)")
    .option('--config <file>', "the table's config: broker URL, table id and base topic")
    .option('--url <url>', 'broker URL (default: the config, else mqtt://127.0.0.1:1883)')
    .option('--table <id>', 'table id (default: the config)')
    .option('--base-topic <topic>', 'base topic (default: the config)')
    .option('--username <name>', 'broker username')
    .option('--password <password>', 'broker password (or TABLESIDE_MQTT_PASSWORD)')
    .option('--timeout <ms>', 'how long to wait for the response', parseMs, 10_000)
    .addHelpText(
      'after',
      `
Examples:
  tableside request void_hand reason="spilled drink" --key alice.pem --config table.yaml
  tableside request new_round boxes=[1,2,3] --key alice.pem --url mqtt://pit:1883 --table t1
  tableside request reopen reason="closing time called by mistake" --key alice.pem --config table.yaml`,
    )
    .action(async (op: string, fields: string[], options: RequestOptions) => {
      process.exitCode = await send(op, fields, options);
    });
}

function parseMs(text: string): number {
  const ms = Number(text);
  if (!Number.isSafeInteger(ms) || ms <= 0)
    throw new InvalidArgumentError(`expected milliseconds, got ${text}`);
  return ms;
}

export function parseFields(fields: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const equals = field.indexOf('=');
    if (equals <= 0) throw new Error(`expected NAME=VALUE, got "${field}"`);
    const name = field.slice(0, equals);
    const text = field.slice(equals + 1);
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // plain text
    }
    body[name] = value;
  }
  return body;
}

async function send(op: string, fields: string[], options: RequestOptions): Promise<number> {
  const fail = (message: string) => {
    process.stderr.write(`tableside request: ${message}\n`);
    return 1;
  };
  let body: Record<string, unknown>;
  try {
    body = parseFields(fields);
  } catch (error) {
    return fail((error as Error).message);
  }
  const { readPrivateKeyFile } = await import('../trust/keys.ts');
  let key: import('node:crypto').KeyObject;
  try {
    key = await readPrivateKeyFile(options.key, '--key');
  } catch (error) {
    return fail((error as Error).message);
  }
  let url = options.url;
  let table = options.table;
  let baseTopic = options.baseTopic;
  if (options.config) {
    const { loadConfig } = await import('../config/loader.ts');
    try {
      const { config } = await loadConfig({ file: options.config });
      url ??=
        config.mqtt.url === 'embedded' ? `mqtt://127.0.0.1:${config.mqtt.port}` : config.mqtt.url;
      table ??= config.table;
      baseTopic ??= config.mqtt.baseTopic;
    } catch (error) {
      return fail((error as Error).message);
    }
  }
  url ??= 'mqtt://127.0.0.1:1883';
  table ??= 'table-1';
  baseTopic ??= 'tableside';
  const { tableTopics } = await import('../mqtt/topics.ts');
  const { signRequest } = await import('../trust/signed-request.ts');
  const topics = tableTopics(baseTopic, table);
  const transaction =
    typeof body.transaction === 'string' || typeof body.transaction === 'number'
      ? body.transaction
      : `cli-${randomBytes(6).toString('hex')}`;
  const payload = signRequest(topics.request(op), { ...body, transaction }, key, {
    ts: Date.now(),
  });
  const mqtt = await import('mqtt');
  const password = options.password ?? process.env.TABLESIDE_MQTT_PASSWORD;
  let client: import('mqtt').MqttClient;
  try {
    client = await mqtt.connectAsync(url, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: options.timeout,
      ...(options.username ? { username: options.username } : {}),
      ...(password ? { password } : {}),
    });
  } catch (error) {
    return fail(`cannot connect to ${url}: ${(error as Error).message}`);
  }
  try {
    const response = new Promise<Record<string, unknown>>((resolve) => {
      client.on('message', (_topic, message) => {
        try {
          const parsed = JSON.parse(message.toString()) as Record<string, unknown>;
          if (parsed.transaction === transaction) resolve(parsed);
        } catch {
          // another client's response
        }
      });
    });
    await client.subscribeAsync(topics.response(op), { qos: 1 });
    await client.publishAsync(topics.request(op), JSON.stringify(payload), { qos: 1 });
    const timeout = new Promise<undefined>((resolve) => {
      setTimeout(() => resolve(undefined), options.timeout).unref();
    });
    const answer = await Promise.race([response, timeout]);
    if (!answer) {
      return fail(
        `no response from table ${table} within ${options.timeout} ms (is the daemon running, and may this account publish requests?)`,
      );
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
    return answer.status === 'ok' ? 0 : 1;
  } catch (error) {
    return fail((error as Error).message);
  } finally {
    // The answer (or the failure) is already in hand: a client that will not close cleanly changes nothing.
    await client.endAsync(true).catch(() => undefined);
  }
}
