/**
 * Signed chain heads: the journal seals its head at each rotation (after
 * the checkpoint) and on `seal()`; `verifySealedJournal` proves the
 * records up to the last good head, and catches an insider who rewrites a
 * record and recomputes the whole chain, naming where the first change lies.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal } from '../../../firmware-host/journal/journal.ts';
import {
  decodeLine,
  encodeRecord,
  GENESIS_HASH,
  hashLine,
  type JournalEntry,
} from '../../../firmware-host/journal/record.ts';
import {
  type SignedHead,
  signHead,
  verifySealedJournal,
} from '../../../firmware-host/journal/seal.ts';
import { readJournalFiles, verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import { generateKeyPair } from '../../../firmware-host/trust/keys.ts';

const table = generateKeyPair();
const stranger = generateKeyPair();
const cleanup: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function sealedJournal(): Promise<{ dir: string; journal: Journal }> {
  const dir = await mkdtemp(join(tmpdir(), 'tableside-seal-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  let now = Date.UTC(2026, 10, 25, 10);
  const journal = await Journal.open({
    dir,
    clock: () => now++,
    table: 't1',
    rotateDaily: false,
    checkpoint: (reason) => ({ type: 'checkpoint', reason, session: { n: 1 } }),
    seal: (head) => ({ ...signHead(table.privateKey, 't1', head) }),
  });
  cleanup.push(() => journal.close());
  return { dir, journal };
}

const card = (code: string): JournalEntry => ({
  kind: 'event',
  data: { type: 'card', card: code, to: 'player' },
});

/** Two files, heads at the rotation and on seal(), then an unsealed tail. */
async function dealt() {
  const { dir, journal } = await sealedJournal();
  await journal.append([card('AS'), card('KD'), card('7H')]); // seq 2..4
  await journal.rotate('new shoe'); // 5 file, 6 checkpoint, 7 head(6)
  await journal.append([card('2C'), card('3C')]); // 8, 9
  const [sealed] = await journal.seal(); // 10 head(9)
  await journal.append([card('4C'), card('5C')]); // 11, 12
  expect(sealed?.data).toMatchObject({ type: 'head', seq: 9 });
  return { dir, journal };
}

/** What an insider with write access does: change a record, then recompute every prev after it. */
async function rewriteWithRecomputedChain(
  dir: string,
  seq: number,
  change: (data: Record<string, unknown>) => void,
) {
  const files = await readJournalFiles(dir);
  let prev: string | undefined;
  let changed = false;
  for (const file of files) {
    const lines = file.bytes.toString().split('\n').filter(Boolean);
    const out: string[] = [];
    for (const line of lines) {
      const decoded = decodeLine(line);
      if (!decoded.ok) throw new Error('test journal is damaged');
      const record = decoded.record;
      if (record.seq === seq) {
        change(record.data as Record<string, unknown>);
        changed = true;
      }
      if (prev !== undefined) record.prev = prev;
      const text = encodeRecord(record);
      prev = hashLine(text);
      out.push(text);
    }
    await writeFile(join(dir, file.name), `${out.join('\n')}\n`);
  }
  expect(changed).toBe(true);
}

describe('signed journal heads', () => {
  it('seals at each rotation right after the checkpoint, and on seal(); nothing new, no new seal', async () => {
    const { dir, journal } = await dealt();
    expect(await journal.seal()).toHaveLength(1); // 13 head(12)
    expect(await journal.seal()).toEqual([]);
    await journal.close();
    const records = (await readJournalFiles(dir)).flatMap((file) =>
      file.bytes
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((line) => decodeLine(line)),
    );
    const heads = records.flatMap((decoded) =>
      decoded.ok && (decoded.record.data as { type?: string }).type === 'head'
        ? [decoded.record]
        : [],
    );
    expect(heads.map((record) => [record.seq, (record.data as unknown as SignedHead).seq])).toEqual(
      [
        [7, 6],
        [10, 9],
        [13, 12],
      ],
    );
    // Each head's hash is its own prev: the line it seals.
    for (const head of heads) expect((head.data as unknown as SignedHead).hash).toBe(head.prev);
    expect(JSON.stringify(heads)).not.toContain('PRIVATE');
  });

  it('proves an untouched journal up to its last head and counts the unsealed tail', async () => {
    const { dir, journal } = await dealt();
    await journal.close();
    const report = verifySealedJournal(await readJournalFiles(dir), table.publicKey);
    expect(report).toMatchObject({
      ok: true,
      heads: 2,
      provenThrough: 9,
      unsealed: 2,
      findings: [],
    });
  });

  it('catches a journal rewritten with a recomputed chain, which the plain chain check passes', async () => {
    const { dir, journal } = await dealt();
    await journal.close();
    await rewriteWithRecomputedChain(dir, 3, (data) => {
      data.card = 'AH';
    });
    // The hash chain alone is fooled: that is what signed heads are for.
    expect((await verifyJournalDir(dir)).ok).toBe(true);
    const report = verifySealedJournal(await readJournalFiles(dir), table.publicKey);
    expect(report.ok).toBe(false);
    expect(report.firstDiffering).toEqual({ after: 0, through: 6 });
    expect(report.findings.map((finding) => finding.problem)).toContain('rewritten');
    expect(report.findings[0]!.message).toMatch(/one of seq 1\.\.6/);
  });

  it('names the first differing record exactly when heads held elsewhere bracket it', async () => {
    const { dir, journal } = await dealt();
    await journal.close();
    const before = verifySealedJournal(await readJournalFiles(dir), table.publicKey);
    expect(before.ok).toBe(true);
    // Heads a consumer kept from journal/head: the ones in the journal, plus the published copies.
    const published = (await readJournalFiles(dir))
      .flatMap((file) => file.bytes.toString().split('\n').filter(Boolean))
      .map((line) => decodeLine(line))
      .flatMap((decoded) =>
        decoded.ok && (decoded.record.data as { type?: string }).type === 'head'
          ? [decoded.record.data]
          : [],
      );
    // The insider changes seq 9, recomputes, and deletes the head that sealed it (seq 10).
    await rewriteWithRecomputedChain(dir, 9, (data) => {
      data.card = 'AC';
    });
    const files = await readJournalFiles(dir);
    const report = verifySealedJournal(files, table.publicKey, published);
    expect(report.ok).toBe(false);
    // Seq 7 (the head of seq 6) still matches; the published head of seq 9 does not: 8 or 9 changed.
    expect(report.firstDiffering).toEqual({ after: 6, through: 9 });
    expect(report.provenThrough).toBe(6);
  });

  it('refuses heads signed by another key, and checkpoints whose head was removed', async () => {
    const { dir, journal } = await dealt();
    await journal.close();
    const report = verifySealedJournal(await readJournalFiles(dir), stranger.publicKey);
    expect(report.ok).toBe(false);
    expect(report.findings.filter((finding) => finding.problem === 'forged_head')).toHaveLength(2);
    expect(report.findings.some((finding) => finding.problem === 'unsealed_checkpoint')).toBe(true);
    // A head copied from elsewhere with its signature altered.
    const head = signHead(table.privateKey, 't1', { seq: 3, hash: GENESIS_HASH, ts: 1 });
    const forged = verifySealedJournal(await readJournalFiles(dir), table.publicKey, [
      { ...head, seq: 4 },
    ]);
    expect(forged.findings[0]).toMatchObject({ problem: 'forged_head' });
    expect(forged.findings[0]!.message).toMatch(/signature does not verify/);
  });

  it('reports records cut from the end that a published head had sealed', async () => {
    const { dir, journal } = await dealt();
    const extra = await journal.seal(); // head(12) at 13
    await journal.close();
    const published = extra.map((record) => record.data);
    const [last] = (await readJournalFiles(dir)).slice(-1);
    const lines = last!.bytes.toString().split('\n').filter(Boolean);
    await writeFile(join(dir, last!.name), `${lines.slice(0, -4).join('\n')}\n`); // cut 10..13
    const report = verifySealedJournal(await readJournalFiles(dir), table.publicKey, published);
    expect(report.ok).toBe(false);
    expect(report.findings.some((finding) => finding.problem === 'missing_records')).toBe(true);
    expect(report.provenThrough).toBe(6);
  });

  it('verifies across a key rotation with both public keys, each head naming its own', async () => {
    const { dir, journal } = await dealt(); // heads by `table`
    await journal.close();
    const rotated = generateKeyPair();
    let now = Date.UTC(2026, 10, 26, 10);
    const reopened = await Journal.open({
      dir,
      clock: () => now++,
      table: 't1',
      rotateDaily: false,
      seal: (head) => ({ ...signHead(rotated.privateKey, 't1', head) }),
    });
    await reopened.append([card('6S')]);
    await reopened.seal();
    await reopened.close();
    const files = await readJournalFiles(dir);
    expect(verifySealedJournal(files, [table.publicKey, rotated.publicKey])).toMatchObject({
      ok: true,
      heads: 3,
    });
    const oldOnly = verifySealedJournal(files, table.publicKey);
    expect(oldOnly.ok).toBe(false);
    expect(oldOnly.findings.map((finding) => finding.problem)).toEqual(['forged_head']);
  });

  it('keeps old journals readable: one written without a sealer verifies as before', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tableside-seal-old-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const journal = await Journal.open({ dir, clock: () => 1, rotateDaily: false });
    await journal.append([card('AS')]);
    expect(await journal.seal()).toEqual([]);
    await journal.close();
    expect((await verifyJournalDir(dir)).ok).toBe(true);
    const text = await readFile(join(dir, 'journal-000001.jsonl'), 'utf8');
    expect(text).not.toContain('"head"');
    const report = verifySealedJournal(await readJournalFiles(dir), table.publicKey);
    expect(report).toMatchObject({ ok: false, heads: 0, provenThrough: 0, unsealed: 2 });
    expect(report.findings.map((finding) => finding.problem)).toEqual(['no_heads']);
  });
});
