/** `tableside run --web [host:port]`: the console on, over the config's `web:` section if any. */
import {
  DEFAULT_WEB_HOST,
  DEFAULT_WEB_PORT,
  type WebConfig,
  webSchema,
} from '../config/web-schema.ts';

export function webFromOption(value: string | true, configured: WebConfig | undefined): WebConfig {
  const base: Record<string, unknown> = configured ? { ...configured } : {};
  if (value !== true) {
    const match = /^(?:(\[[^\]]+\]|[^:]+):)?(\d{1,5})$/.exec(value);
    if (!match)
      throw new Error(
        `--web ${JSON.stringify(value)}: expected host:port or port, e.g. 127.0.0.1:8080`,
      );
    if (match[1]) base.host = match[1].replace(/^\[|\]$/g, '');
    base.port = Number(match[2]);
  }
  base.host ??= DEFAULT_WEB_HOST;
  base.port ??= DEFAULT_WEB_PORT;
  const parsed = webSchema.safeParse(base);
  if (!parsed.success) {
    throw new Error(
      `--web: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
