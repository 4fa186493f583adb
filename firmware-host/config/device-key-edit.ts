/**
 * Writes a device's paired key into the table's config file (or removes
 * it) for `tableside device pair` / `unpair`, changing nothing else: a YAML
 * file keeps its comments and layout, a JSON file its other keys. Written
 * to a temporary file then renamed, so a crash leaves the old file whole.
 * Pairing removes the device's `unpaired` bench setting: a paired device
 * is never unpaired (the config check refuses both).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { ConfigError } from './errors.ts';

export async function setDeviceKey(
  file: string,
  device: string,
  key: string | undefined,
): Promise<{ previous: string | undefined }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new ConfigError('unreadable', [
      {
        path: '(file)',
        message: `${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      },
    ]);
  }
  const missing = () =>
    new ConfigError('invalid', [
      { path: `devices.${device}`, message: `no such device in ${file}: add it before pairing` },
    ]);
  let next: string;
  let previous: string | undefined;
  if (file.endsWith('.json')) {
    const data = JSON.parse(text) as { devices?: Record<string, Record<string, unknown>> };
    const entry = data.devices?.[device];
    if (entry === undefined || typeof entry !== 'object') throw missing();
    previous = typeof entry.key === 'string' ? entry.key : undefined;
    if (key === undefined) delete entry.key;
    else {
      entry.key = key;
      delete entry.unpaired;
    }
    next = `${JSON.stringify(data, null, 2)}\n`;
  } else {
    const document = parseDocument(text);
    if (document.errors.length > 0) {
      throw new ConfigError('syntax', [{ path: '(file)', message: document.errors[0]!.message }]);
    }
    if (!document.hasIn(['devices', device])) throw missing();
    const old = document.getIn(['devices', device, 'key']);
    previous = typeof old === 'string' ? old : undefined;
    if (key === undefined) document.deleteIn(['devices', device, 'key']);
    else {
      document.setIn(['devices', device, 'key'], key);
      document.deleteIn(['devices', device, 'unpaired']);
    }
    next = document.toString();
  }
  const temporary = `${file}.pairing-${process.pid}`;
  await writeFile(temporary, next, { mode: 0o600 });
  await rename(temporary, file);
  return { previous };
}
