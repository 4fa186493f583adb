/**
 * An insider with write access to the journal folder changes a card and
 * recomputes the whole SHA-256 chain, and removes the signed heads that no
 * longer match: `journal verify` alone is fooled. The table signed its
 * chain head with its own key (made by `tableside key generate`, kept
 * outside the journal folder) at every checkpoint, every
 * `sealIntervalSeconds` and at stop, and published each head retained on
 * journal/head, where a consumer kept them: `journal verify --key --heads`
 * catches the rewrite and names where the first changed record lies. A
 * period exported before, as a bundle, verifies offline with the public key.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { decodeLine, encodeRecord, hashLine } from '../../../firmware-host/journal/record.ts';
import { readJournalFiles } from '../../../firmware-host/journal/verify.ts';
import { runCliSync } from '../../helpers/cli.ts';
import { freePort } from '../../helpers/ports.ts';
import { BASE, Cleanup, Client, startTable, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());
const RULESET = 'bulgaria-punto-banco';

function legalRecords() {
  const ruleset = getRuleset(RULESET);
  const { records } = dealLegalSession({
    ruleset,
    engine: createEngine(ruleset),
    random: seededRandom(7),
    shoes: 2,
    maxRoundsPerShoe: 3,
  });
  return records.map(({ ts: _ts, ...record }) => ({ ...record, src: 'console' }));
}

/**
 * The insider's tool: change one record, drop the heads after it (they no
 * longer match), renumber what follows so no seq is missing, and recompute
 * every prev.
 */
async function rewrite(dir: string, seq: number, change: (data: Record<string, unknown>) => void) {
  let prev: string | undefined;
  let dropped = 0;
  for (const file of await readJournalFiles(dir)) {
    const out: string[] = [];
    for (const line of file.bytes.toString().split('\n').filter(Boolean)) {
      const decoded = decodeLine(line);
      if (!decoded.ok) throw new Error('damaged test journal');
      const record = decoded.record;
      if (record.seq === seq) change(record.data as Record<string, unknown>);
      if (record.seq > seq && (record.data as { type?: string }).type === 'head') {
        dropped++;
        continue;
      }
      record.seq -= dropped;
      if (prev !== undefined) record.prev = prev;
      const text = encodeRecord(record);
      prev = hashLine(text);
      out.push(text);
    }
    await writeFile(join(dir, file.name), `${out.join('\n')}\n`);
  }
}

const cli = (args: string[]) =>
  runCliSync(args, { env: { TABLESIDE_LOG_LEVEL: 'warn' }, timeout: 60_000 });

describe('a journal rewritten with a recomputed chain', () => {
  it('is caught by the signed heads a consumer kept from journal/head', async () => {
    const dir = tempDir(cleanup);
    const keyPath = join(dir, 'keys', 'table.pem');
    await import('node:fs/promises').then((fs) => fs.mkdir(join(dir, 'keys'), { mode: 0o700 }));
    const generated = cli(['key', 'generate', '--out', keyPath]);
    expect(generated.status, generated.stderr).toBe(0);
    const publicKey = /public key:\s+(ed25519:\S+)/.exec(generated.stdout)![1]!;
    expect(generated.stdout).not.toMatch(/PRIVATE KEY/);

    const journalDir = join(dir, 'journal');
    const port = await freePort();
    const daemon = await startTable(cleanup, {
      table: 't1',
      mqtt: { url: 'embedded', port },
      journal: { dir: journalDir, rotateDaily: false, signingKey: keyPath, sealIntervalSeconds: 1 },
    });
    const consumer = await Client.connect(
      cleanup,
      `mqtt://127.0.0.1:${port}`,
      {},
      `${BASE}/t1/journal/head`,
    );
    await waitFor(() => consumer.messages.length > 0, 'the head sealed at start');

    const records = legalRecords();
    const half = Math.floor(records.length / 2);
    for (const record of records.slice(0, half)) await daemon.ingest(record);
    // One sealing interval passes with new records: a head covering them reaches the broker.
    const sealedTo = daemon.lastSeq;
    await waitFor(
      () => consumer.messages.some((m) => (JSON.parse(m.text) as { seq: number }).seq >= sealedTo),
      'the head sealed on the interval',
    );
    for (const record of records.slice(half)) await daemon.ingest(record);
    await daemon.stop();
    const heads = consumer.messages.map((m) => JSON.parse(m.text) as Record<string, unknown>);
    // At start, at each new shoe (checkpoint), on the interval, and at stop.
    expect(heads.length).toBeGreaterThanOrEqual(4);
    expect(heads.at(-1)).toMatchObject({ type: 'head', table: 't1' });
    const headsFile = join(dir, 'heads.jsonl');
    await writeFile(headsFile, `${consumer.messages.map((m) => m.text).join('\n')}\n`);

    const intact = cli(['journal', 'verify', journalDir, '--key', publicKey, '--heads', headsFile]);
    expect(intact.status, intact.stdout + intact.stderr).toBe(0);
    expect(intact.stdout).toMatch(/^OK: /);

    // A bundle of the first shoe, for a dispute, before anyone touched the journal.
    const bundle = join(dir, 'shoe-1.bundle');
    const exported = cli([
      'journal',
      'export',
      journalDir,
      '--from',
      '1',
      '--to',
      '20',
      '--out',
      bundle,
    ]);
    expect(exported.status, exported.stderr).toBe(0);
    const checked = cli(['journal', 'verify-bundle', bundle, '--key', publicKey]);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^OK: table t1, seq 1\.\.\d+ proven/);

    // The insider changes the first card of the first coup to another card.
    const lines = (await readJournalFiles(journalDir)).flatMap((file) =>
      file.bytes.toString().split('\n').filter(Boolean),
    );
    const target = lines
      .map((line) => decodeLine(line))
      .flatMap((decoded) => (decoded.ok ? [decoded.record] : []))
      .find((record) => record.kind === 'input' && (record.data as { t?: string }).t === 'card')!;
    const original = (target.data as { card: string }).card;
    await rewrite(journalDir, target.seq, (data) => {
      data.card = original === 'KS' ? 'QS' : 'KS';
    });

    const fooled = cli(['journal', 'verify', journalDir]);
    expect(fooled.status, fooled.stdout).toBe(0);
    const caught = cli([
      'journal',
      'verify',
      journalDir,
      '--key',
      publicKey,
      '--heads',
      headsFile,
      '--json',
    ]);
    expect(caught.status).toBe(1);
    const report = JSON.parse(caught.stdout) as {
      ok: boolean;
      firstDiffering: { after: number; through: number };
    };
    expect(report.ok).toBe(false);
    expect(report.firstDiffering.after).toBeLessThan(target.seq);
    expect(report.firstDiffering.through).toBeGreaterThanOrEqual(target.seq);
    const text = cli(['journal', 'verify', journalDir, '--key', publicKey, '--heads', headsFile]);
    expect(text.stdout).toMatch(
      /the first record that differs from what the table signed is (seq|one of seq)/,
    );

    // The table's private key never left its file.
    const secret = (await readFile(keyPath, 'utf8')).split('\n')[1]!;
    const journalText = lines.join('\n');
    expect(journalText).not.toContain(secret);
    expect(consumer.messages.map((m) => m.text).join('\n')).not.toContain(secret);
  });
});
