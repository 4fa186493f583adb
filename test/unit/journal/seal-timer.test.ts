/**
 * Issue 24, item 4: after a power cut, the records after the last signed
 * head could be rewritten unseen, and heads came at most every 10 minutes.
 * The daemon now seals `sealIntervalSeconds` (default 5) after records come
 * in, on a timer, and not at all while the table is idle.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { journalSchema } from '../../../firmware-host/config/schema.ts';
import { Journal, type JournalRecord } from '../../../firmware-host/journal/index.ts';
import { signHead } from '../../../firmware-host/journal/seal.ts';
import { sealWhileAppending } from '../../../firmware-host/journal/seal-timer.ts';
import { generateKeyPair } from '../../../firmware-host/trust/keys.ts';
import { tempDir } from '../../helpers/temp.ts';

const table = generateKeyPair();
const opened: Journal[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.splice(0).map((journal) => journal.close()));
});

async function sealedJournal() {
  const journal = await Journal.open({
    dir: tempDir('tableside-seal-timer-'),
    clock: Date.now,
    rotateDaily: false,
    seal: (head) => ({ ...signHead(table.privateKey, 't1', head) }),
  });
  opened.push(journal);
  const seals: Promise<JournalRecord[]>[] = [];
  // The journal as the timer sees it, counting the seals it asks for.
  const watched = {
    onDurable: journal.onDurable.bind(journal),
    seal: () => {
      const sealed = journal.seal();
      seals.push(sealed);
      return sealed;
    },
  };
  return { journal, watched, seals };
}

const card = { kind: 'event', data: { type: 'card', card: 'AS', to: 'player' } } as const;

describe('the seal timer', () => {
  it('seals within the default interval of 5 s after a record, not before', async () => {
    const intervalMs = journalSchema.parse({}).sealIntervalSeconds * 1000;
    expect(intervalMs).toBe(5000);
    const { journal, watched, seals } = await sealedJournal();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stop = sealWhileAppending(watched, intervalMs, (error) => {
      throw error;
    });
    const [record] = await journal.append([card]);
    await journal.append([card]);
    vi.advanceTimersByTime(intervalMs - 1);
    expect(seals).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(seals).toHaveLength(1);
    const [head] = await seals[0]!;
    expect(head).toMatchObject({ kind: 'meta', data: { type: 'head', seq: record!.seq + 1 } });
    stop();
  });

  it('stays idle while nothing is appended: its own head does not arm it again', async () => {
    const { journal, watched, seals } = await sealedJournal();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stop = sealWhileAppending(watched, 5000, (error) => {
      throw error;
    });
    vi.advanceTimersByTime(60_000);
    expect(seals).toHaveLength(0);
    await journal.append([card]);
    vi.advanceTimersByTime(5000);
    await seals[0];
    vi.advanceTimersByTime(60_000);
    expect(seals).toHaveLength(1);
    stop();
    await journal.append([card]);
    vi.advanceTimersByTime(60_000);
    expect(seals).toHaveLength(1);
  });
});
