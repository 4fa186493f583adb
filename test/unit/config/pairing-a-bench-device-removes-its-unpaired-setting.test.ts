/**
 * `tableside device pair` on a bench device that said `unpaired: allow`
 * writes its key and removes that setting (a paired device is never
 * unpaired, and the config check refuses both), in YAML with its comments
 * kept and in JSON; `unpair` leaves the device unpaired with no bench
 * setting, so a live table refuses it again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { setDeviceKey } from '../../../firmware-host/config/device-key-edit.ts';
import { loadConfig, pairingPolicyOf } from '../../../firmware-host/config/index.ts';
import { tempDir } from '../../helpers/temp.ts';

const KEY = 'ed25519:0tUzXH2hEvH3FIxw_vkHCB0lKhsCiHQ28JCAfABv8Wc';

describe('pairing a bench device', () => {
  it('removes its unpaired setting in YAML, keeping the comments, and unpair leaves it refused', async () => {
    const file = join(tempDir('pair-bench-yaml-'), 'table.yaml');
    writeFileSync(
      file,
      'devices:\n  shoe:\n    kind: shoe # the smart shoe\n    transport: /dev/ttyUSB0\n    unpaired: allow # a bench\n',
    );
    expect(pairingPolicyOf((await loadConfig({ file, env: {} })).config.devices.shoe!)).toBe(
      'bench',
    );
    await setDeviceKey(file, 'shoe', KEY);
    const paired = (await loadConfig({ file, env: {} })).config.devices.shoe!;
    expect(paired.key).toBe(KEY);
    expect(paired.unpaired).toBeUndefined();
    expect(readFileSync(file, 'utf8')).toContain('kind: shoe # the smart shoe');

    await setDeviceKey(file, 'shoe', undefined);
    const unpaired = (await loadConfig({ file, env: {} })).config.devices.shoe!;
    expect(pairingPolicyOf(unpaired)).toBe('refused');
  });

  it('removes it in JSON too', async () => {
    const file = join(tempDir('pair-bench-json-'), 'table.json');
    writeFileSync(
      file,
      JSON.stringify({
        devices: { shoe: { kind: 'shoe', transport: 'tcp://127.0.0.1:7001', unpaired: 'allow' } },
      }),
    );
    await setDeviceKey(file, 'shoe', KEY);
    const shoe = (await loadConfig({ file, env: {} })).config.devices.shoe!;
    expect(shoe).toMatchObject({ key: KEY });
    expect(shoe.unpaired).toBeUndefined();
  });
});
