/**
 * Issue 34, item 11: `tableside device pair` wrote the YAML config again
 * through the YAML library, which changed a comment's spacing (and would
 * change quotes, folds and blank lines), though the docs promise the rest
 * of the file is left as it was. Pairing and unpairing now change the key's
 * line and remove the bench setting's line, and no other byte.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setDeviceKey } from '../../../firmware-host/config/device-key-edit.ts';
import { loadConfig } from '../../../firmware-host/config/index.ts';
import { tempDir } from '../../helpers/temp.ts';

const KEY = 'ed25519:0tUzXH2hEvH3FIxw_vkHCB0lKhsCiHQ28JCAfABv8Wc';
const OTHER = 'ed25519:Qm9vb29vb29vb29vb29vb29vb29vb29vb29vb29vb28';

const ORIGINAL = [
  '# Table 7, pit 2',
  'table: "t7"      # quoted, as the technician wrote it',
  '',
  'devices:',
  '  shoe:',
  '    kind: shoe        # the smart shoe',
  "    transport: '/dev/ttyUSB0'",
  '    unpaired: allow   #   a bench, for now',
  '',
  '  shuffler:   # the second line',
  '    kind: shuffler',
  '    transport: tcp://10.0.0.9:7001',
  '',
].join('\n');

function written(text: string): string {
  const file = join(tempDir('pair-bytes-'), 'table.yaml');
  writeFileSync(file, text);
  return file;
}

describe('tableside device pair changes only the key and bench lines of a YAML config, byte for byte', () => {
  it('adds the key line and removes the unpaired line, every other byte kept', async () => {
    const file = written(ORIGINAL);
    await setDeviceKey(file, 'shoe', KEY);
    expect(readFileSync(file, 'utf8')).toBe(
      ORIGINAL.replace('  shoe:\n', `  shoe:\n    key: ${KEY}\n`).replace(
        '    unpaired: allow   #   a bench, for now\n',
        '',
      ),
    );
    expect((await loadConfig({ file, env: {} })).config.devices.shoe).toMatchObject({ key: KEY });
  });

  it('replaces a key in place, keeping its comment, and unpair removes just its line', async () => {
    const withKey = ORIGINAL.replace(
      '    kind: shuffler\n',
      `    kind: shuffler\n    key: ${OTHER}   # paired 2026-11-02\n`,
    );
    const file = written(withKey);
    const { previous } = await setDeviceKey(file, 'shuffler', KEY);
    expect(previous).toBe(OTHER);
    expect(readFileSync(file, 'utf8')).toBe(withKey.replace(OTHER, KEY));
    await setDeviceKey(file, 'shuffler', undefined);
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
  });
});
