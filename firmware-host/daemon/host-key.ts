/**
 * The table's host key (protocol 1.7, PROTOCOL.md § 5.2): the Ed25519 key
 * whose CONFIRM a paired device takes session keys from. Kept in the state
 * folder (the journal folder's parent: /var/lib/tableside/host-key.pem on a
 * Pi), made at the first start, loaded at every start after, so the devices
 * paired with the table keep recognising it.
 *
 * A key of its own, not the journal's `signingKey`: every paired table needs
 * one (the journal key is optional), devices pin it for years while the
 * journal key's public half goes to verifiers and may be rotated on its own,
 * and one key never signs two protocols' statements.
 */
import { lstat, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { HostSigner } from '../../device-protocol/auth/host-auth.ts';
import { isHardwareError } from '../../hardware/errors.ts';
import { createKeyFile, hostSignerOf, loadKeyFile } from '../../hardware/keys/device-key.ts';
import type { TablesideConfig } from '../config/schema.ts';
import { DaemonError } from './errors.ts';

export const HOST_KEY_FILE = 'host-key.pem';

/** Where a table keeps its host key: beside the journal folder, in the state folder. */
export function hostKeyPath(config: Pick<TablesideConfig, 'journal'>): string {
  return join(dirname(resolve(config.journal.dir)), HOST_KEY_FILE);
}

/**
 * The table's host key: loaded from `path`, or made there (mode 600) when
 * there is none yet. A file that is there but unreadable, open to others or
 * not a key stops the start (DaemonError naming the file): a new key would
 * cut the table off from every device paired with it.
 */
export async function tableHostKey(path: string): Promise<HostSigner> {
  try {
    if (await exists(path)) return hostSignerOf(await loadKeyFile(path));
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    try {
      return hostSignerOf(await createKeyFile(path, 'ed25519'));
    } catch (error) {
      // Made meanwhile by another tableside (the daemon and a pairing at once): use that one.
      if (await exists(path)) return hostSignerOf(await loadKeyFile(path));
      throw error;
    }
  } catch (error) {
    if (isHardwareError(error)) {
      throw new DaemonError('start_failed', `the table's host key: ${error.message}`);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new DaemonError('start_failed', `the table's host key ${path} cannot be kept (${code})`);
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return false;
      throw error;
    },
  );
}
