/**
 * What every `tableside sim` device needs around its play: the wire it
 * talks on (`--link` or `--listen`), the key it proves (`--key`, its
 * fingerprint on stderr as the device's own display would show it), and
 * staying connected after it is done (`--keep-open`).
 */
import type { DeviceKey } from '../../hardware/keys/device-key.ts';
import type { Transport } from '../../hardware/transports/transport.ts';
import type { TcpServerTransport } from '../../simulators/tcp-server.ts';

type Fail = (message: string) => never;

/** The simulator's transport, and the server it listens on with `--listen`. */
export async function openSimWire(
  options: { link?: string | undefined; listen?: string | undefined },
  fail: Fail,
): Promise<{ transport: Transport; server: TcpServerTransport | undefined }> {
  if (!options.link === !options.listen) {
    fail('give exactly one of --link URL or --listen [HOST:]PORT');
  }
  try {
    if (options.listen !== undefined) {
      const { TcpServerTransport } = await import('../../simulators/tcp-server.ts');
      const match = /^(?:(.+):)?(\d+)$/.exec(options.listen);
      if (!match) fail(`--listen ${JSON.stringify(options.listen)}: expected PORT or HOST:PORT`);
      const server = new TcpServerTransport(Number(match[2]), match[1] ?? '0.0.0.0');
      return { transport: server, server };
    }
    const { openTransport } = await import('../../hardware/transports/url.ts');
    return { transport: openTransport(options.link!), server: undefined };
  } catch (error) {
    fail((error as Error).message);
  }
}

/**
 * The device key of `--key FILE`, its fingerprint printed on stderr after
 * `who` (what a technician compares when pairing); undefined without a file.
 */
export async function loadSimKey(
  file: string | undefined,
  who: string,
  fail: Fail,
): Promise<DeviceKey | undefined> {
  if (file === undefined) return undefined;
  const { loadKeyFile } = await import('../../hardware/keys/device-key.ts');
  const { deviceKey } = await import('../../hardware/keys/device-key.ts');
  const { keyFingerprint } = await import('../../device-protocol/auth/keys.ts');
  const key = await deviceKey(await loadKeyFile(file).catch((error: Error) => fail(error.message)));
  process.stderr.write(`${who}: device key fingerprint ${keyFingerprint(key.publicKey)}\n`);
  return key;
}

/** With `--keep-open`: the simulator stays connected (answering PINGs) until it is stopped. */
export function untilStopped(stopping: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = setInterval(() => {
      if (stopping()) {
        clearInterval(check);
        resolve();
      }
    }, 200);
  });
}
