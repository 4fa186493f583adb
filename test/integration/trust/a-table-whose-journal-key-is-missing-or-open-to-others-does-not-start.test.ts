/**
 * Where the config asks for the table's signing key (journal.signingKey),
 * a key file that is missing, open to other users, not a key, or kept
 * inside the journal folder stops the daemon at start with a message
 * naming the setting and the problem, before anything is written; the
 * message never holds the key.
 */
import { chmod, copyFile, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { freePort } from '../../helpers/ports.ts';
import { Cleanup, keyFile, tempDir } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

async function refusal(journalDir: string, signingKey: string): Promise<string> {
  const { config } = resolveConfig(
    {
      table: 't1',
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir: journalDir, signingKey },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  const error = await daemon.start().then(
    () => undefined,
    (reason: unknown) => reason as Error,
  );
  if (!error) {
    await daemon.stop();
    throw new Error('the daemon started');
  }
  return error.message;
}

describe('a table whose journal key is missing or open to others', () => {
  it('does not start, and says which key and what is wrong', async () => {
    const dir = tempDir(cleanup);
    const journalDir = join(dir, 'journal');
    const good = await keyFile(dir, 'table');

    expect(await refusal(journalDir, join(dir, 'absent.pem'))).toMatch(
      /journal\.signingKey: no such file: .*absent\.pem/,
    );

    const open = await keyFile(dir, 'open');
    await chmod(open.path, 0o644);
    expect(await refusal(journalDir, open.path)).toMatch(
      /open to other users \(mode 644\).*chmod 600/,
    );

    const notKey = join(dir, 'not-a-key.pem');
    await writeFile(notKey, 'hello\n', { mode: 0o600 });
    expect(await refusal(journalDir, notKey)).toMatch(/is not a PEM private key/);

    await mkdir(journalDir, { recursive: true });
    const inside = join(journalDir, 'table.pem');
    await copyFile(good.path, inside);
    const message = await refusal(journalDir, inside);
    expect(message).toMatch(/inside the journal folder/);
    expect(message).not.toMatch(/PRIVATE KEY|MC4CAQ/);

    // Nothing was written: no journal file in the folder.
    expect((await readdir(journalDir)).filter((name) => name.startsWith('journal-'))).toEqual([]);
  });
});
