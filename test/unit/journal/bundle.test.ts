/**
 * `journal export`'s bundle: a period of the journal closed by a signed
 * head, verifiable with the table's public key alone; any change to a line
 * is caught, and a period not yet sealed is not exported.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { exportBundle, verifyBundle } from '../../../firmware-host/journal/bundle.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import type { JournalEntry } from '../../../firmware-host/journal/record.ts';
import { signHead } from '../../../firmware-host/journal/seal.ts';
import { readJournalFiles } from '../../../firmware-host/journal/verify.ts';
import { generateKeyPair } from '../../../firmware-host/trust/keys.ts';

const table = generateKeyPair();
const stranger = generateKeyPair();
const START = Date.UTC(2026, 10, 25, 10);
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const card = (code: string): JournalEntry => ({
  kind: 'event',
  data: { type: 'card', card: code, to: 'banker' },
});

/** seq 1 file; 2-4 cards (ts +1..+3 min); 5 head(4); 6-7 cards; 8 head(7); 9 card (unsealed). */
async function journalFiles() {
  const dir = await mkdtemp(join(tmpdir(), 'tableside-bundle-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  let now = START;
  const journal = await Journal.open({
    dir,
    clock: () => now,
    table: 't1',
    rotateDaily: false,
    seal: (head) => ({ ...signHead(table.privateKey, 't1', head) }),
  });
  for (const code of ['AS', 'KD', '7H']) {
    now += 60_000;
    await journal.append([card(code)]);
  }
  await journal.seal();
  now += 60_000;
  await journal.append([card('2C'), card('3C')]);
  await journal.seal();
  await journal.append([card('4C')]);
  await journal.close();
  return readJournalFiles(dir);
}

describe('journal bundles', () => {
  it('exports a period by time, closed by the next signed head, and proves it offline', async () => {
    const files = await journalFiles();
    const result = exportBundle(files, { ts: START + 60_000 }, { ts: START + 120_000 });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.header).toMatchObject({ table: 't1', firstSeq: 2, lastSeq: 5 });
    expect(verifyBundle(result.text, table.publicKey)).toMatchObject({
      ok: true,
      table: 't1',
      firstSeq: 2,
      provenThrough: 4,
      problems: [],
    });
  });

  it('verifies a bundle that opens with a head sealing the record before it (its anchor)', async () => {
    const files = await journalFiles();
    const result = exportBundle(files, { seq: 5 }, { seq: 7 });
    if (!result.ok) throw new Error(result.error);
    expect(result.header).toMatchObject({ firstSeq: 5, lastSeq: 8 });
    expect(verifyBundle(result.text, table.publicKey)).toMatchObject({
      ok: true,
      provenThrough: 7,
    });
  });

  it('exports by seq, and refuses a period whose end no head seals yet', async () => {
    const files = await journalFiles();
    const bySeq = exportBundle(files, { seq: 6 }, { seq: 7 });
    expect(bySeq).toMatchObject({ ok: true, header: { firstSeq: 6, lastSeq: 8 } });
    const open = exportBundle(files, { seq: 6 }, { seq: 9 });
    expect(open).toMatchObject({ ok: false });
    if (!open.ok) expect(open.error).toMatch(/not sealed yet/);
    expect(exportBundle(files, { seq: 50 }, { seq: 60 })).toMatchObject({
      ok: false,
      error: 'no record in that period',
    });
  });

  it('catches a changed line, a removed line, another key and a bundle cut before its head', async () => {
    const files = await journalFiles();
    const result = exportBundle(files, { seq: 2 }, { seq: 7 });
    if (!result.ok) throw new Error(result.error);
    const lines = result.text.split('\n');
    const changed = result.text.replace('"card":"KD"', '"card":"KH"');
    expect(changed).not.toBe(result.text);
    const cases: [string, string, RegExp][] = [
      ['changed', changed, /chain breaks/],
      ['removed', [...lines.slice(0, 3), ...lines.slice(4)].join('\n'), /does not follow/],
      ['cut', `${lines.slice(0, -2).join('\n')}\n`, /ends at seq|not covered|no head/],
      ['garbage header', `x${result.text}`, /not a bundle header/],
    ];
    for (const [what, text, problem] of cases) {
      const report = verifyBundle(text, table.publicKey);
      expect(report.ok, what).toBe(false);
      expect(report.problems.join('\n'), what).toMatch(problem);
    }
    const other = verifyBundle(result.text, stranger.publicKey);
    expect(other.ok).toBe(false);
    expect(other.problems.join('\n')).toMatch(/not the table's/);
  });
});
