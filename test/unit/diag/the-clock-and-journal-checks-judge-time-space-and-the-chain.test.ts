import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkClock, checkJournal } from '../../../firmware-host/diag/host-checks.ts';
import { Journal } from '../../../firmware-host/journal/journal.ts';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function journalWithRecords(count: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tableside-diag-journal-'));
  dirs.push(dir);
  const journal = await Journal.open({ dir, clock: () => 1_700_000_000_000, rotateDaily: false });
  for (let index = 0; index < count; index++) {
    await journal.append([{ kind: 'event', data: { type: 'round_start', round: index + 1 } }]);
  }
  await journal.close();
  return dir;
}

describe('the clock check', () => {
  it('fails a system time before the build and says how to fix it', async () => {
    const results = await checkClock({
      buildTime: Date.now() + 86_400_000,
      timedatectl: async () => 'NTP=yes\nNTPSynchronized=yes\n',
    });
    expect(results[0]).toMatchObject({ name: 'clock: time', status: 'fail' });
    expect(results[0]!.advice).toMatch(/NTP|RTC/);
    expect(results[1]).toMatchObject({ name: 'clock: NTP', status: 'pass' });
  });

  it('warns when NTP is not synchronised and skips with a note where timedatectl is missing', async () => {
    const unsynced = await checkClock({
      buildTime: 0,
      timedatectl: async () => 'NTP=no\nNTPSynchronized=no\n',
    });
    expect(unsynced[0]!.status).toBe('pass');
    expect(unsynced[1]).toMatchObject({ status: 'warn' });
    expect(unsynced[1]!.advice).toContain('timedatectl set-ntp true');
    const missing = await checkClock({ buildTime: 0, timedatectl: async () => undefined });
    expect(missing[1]).toMatchObject({ status: 'skip' });
    expect(missing[1]!.detail).toContain('timedatectl');
  });
});

describe('the journal check', () => {
  it('passes an intact journal with room on its disk and a writable folder', async () => {
    const dir = await journalWithRecords(3);
    const results = await checkJournal(dir, { minFreeBytes: 1, lowFreeBytes: 1 });
    expect(results.map((result) => [result.name, result.status])).toEqual([
      ['journal: chain', 'pass'],
      ['journal: disk space', 'pass'],
      ['journal: writable', 'pass'],
    ]);
    expect(results[0]!.detail).toMatch(/\d+ records in 1 file\(s\).*hash chain intact/);
  });

  it('fails an edited journal and a disk below the threshold, with advice for each', async () => {
    const dir = await journalWithRecords(3);
    const file = (await readdir(dir)).find((name) => name.endsWith('.jsonl'))!;
    const text = await readFile(join(dir, file), 'utf8');
    await writeFile(join(dir, file), text.replace('"round":2', '"round":7'));
    const results = await checkJournal(dir, { minFreeBytes: Number.MAX_SAFE_INTEGER });
    const chain = results.find((result) => result.name === 'journal: chain')!;
    expect(chain.status).toBe('fail');
    expect(chain.advice).toContain('tableside journal verify');
    const space = results.find((result) => result.name === 'journal: disk space')!;
    expect(space.status).toBe('fail');
    expect(space.advice).toMatch(/archive/);
  });

  it('skips the chain of a journal not created yet but checks where it will be', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'tableside-diag-journal-'));
    dirs.push(parent);
    const results = await checkJournal(join(parent, 'not-yet', 'journal'), {
      minFreeBytes: 1,
      lowFreeBytes: 1,
    });
    expect(results[0]).toMatchObject({ name: 'journal: chain', status: 'skip' });
    expect(results[2]).toMatchObject({ name: 'journal: writable', status: 'pass' });
    expect(results[2]!.detail).toContain(parent);
  });
});
