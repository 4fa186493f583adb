/**
 * Writes a device's paired key into the table's config file (or removes
 * it) for `tableside device pair` / `unpair`, changing nothing else: a YAML
 * file is edited as text, only the lines of the key and the bench setting,
 * so every other byte (comments, their spacing, quotes, blank lines) stays
 * as it was; a JSON file keeps its other keys. Written
 * to a temporary file then renamed, so a crash leaves the old file whole.
 * Pairing removes the device's `unpaired` bench setting: a paired device
 * is never unpaired (the config check refuses both).
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { type Document, isMap, isPair, isScalar, type Pair, parseDocument, stringify } from 'yaml';
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
    next = editYamlText(text, document, device, key) ?? rewrittenYaml(document, device, key);
  }
  const temporary = `${file}.pairing-${process.pid}`;
  await writeFile(temporary, next, { mode: 0o600 });
  await rename(temporary, file);
  return { previous };
}

/** The whole document written again by the YAML library: only for a device written in flow style. */
function rewrittenYaml(document: Document, device: string, key: string | undefined): string {
  if (key === undefined) document.deleteIn(['devices', device, 'key']);
  else {
    document.setIn(['devices', device, 'key'], key);
    document.deleteIn(['devices', device, 'unpaired']);
  }
  return document.toString();
}

/**
 * The text with the device's `key` line set (or removed) and its `unpaired`
 * line removed, every other byte as it was; undefined when the device is
 * not a block mapping with each entry on its own line (`shoe: {kind: shoe}`).
 */
function editYamlText(
  text: string,
  document: Document,
  device: string,
  key: string | undefined,
): string | undefined {
  const entry = document.getIn(['devices', device], true);
  if (!isMap(entry) || entry.flow || entry.items.length === 0) return undefined;
  const lines = new Map<
    string,
    { start: number; end: number; valueStart: number; valueEnd: number }
  >();
  for (const pair of entry.items) {
    const place = pairLine(text, pair);
    if (place === undefined) return undefined;
    if (isScalar(pair.key)) lines.set(String(pair.key.value), place);
  }
  const edits: Array<{ from: number; to: number; text: string }> = [];
  const keyLine = lines.get('key');
  // One line, never folded: a key is longer than the library's line width.
  const value = key === undefined ? '' : stringify(key, { lineWidth: 0 }).trimEnd();
  if (key === undefined) {
    if (keyLine) edits.push({ from: keyLine.start, to: keyLine.end, text: '' });
  } else {
    if (keyLine) edits.push({ from: keyLine.valueStart, to: keyLine.valueEnd, text: value });
    else {
      // A new line before the device's first entry, at its indentation.
      const first = pairLine(text, entry.items[0]!)!;
      const indent = text.slice(first.start, first.valueStart).match(/^[ \t]*/)![0];
      edits.push({ from: first.start, to: first.start, text: `${indent}key: ${value}\n` });
    }
    const unpaired = lines.get('unpaired');
    if (unpaired) edits.push({ from: unpaired.start, to: unpaired.end, text: '' });
  }
  let next = text;
  // From the end, so earlier places hold; at one place the removal before the insertion.
  const order = (a: (typeof edits)[0], b: (typeof edits)[0]) =>
    b.from - a.from || b.to - b.from - (a.to - a.from);
  for (const edit of edits.sort(order)) {
    next = next.slice(0, edit.from) + edit.text + next.slice(edit.to);
  }
  return next;
}

/**
 * Where a block mapping's entry lies in the text: its whole lines (from the
 * line's start to past its newline, a trailing comment included) and its
 * value; undefined unless the entry starts its line and its value is a
 * scalar on that line.
 */
function pairLine(
  text: string,
  pair: unknown,
): { start: number; end: number; valueStart: number; valueEnd: number } | undefined {
  if (!isPair(pair)) return undefined;
  const { key, value } = pair as Pair;
  if (!isScalar(key) || !isScalar(value) || !key.range || !value.range) return undefined;
  const start = text.lastIndexOf('\n', key.range[0] - 1) + 1;
  if (text.slice(start, key.range[0]).trim() !== '') return undefined;
  const [valueStart, valueEnd] = value.range;
  if (text.slice(key.range[0], valueEnd).includes('\n')) return undefined;
  const newline = text.indexOf('\n', valueEnd);
  return { start, end: newline < 0 ? text.length : newline + 1, valueStart, valueEnd };
}
