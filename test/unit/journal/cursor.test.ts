import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CursorStore, isJournalError } from '../../../firmware-host/journal/index.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';
import { until } from '../../helpers/until.ts';

const tempPath = () => join(makeTempDir('tableside-cursor-'), 'state', 'mqtt.cursor.json');

describe('cursor store', () => {
  it('starts at 0, persists what it is advanced to and reads it back', async () => {
    const path = tempPath();
    const cursor = await CursorStore.open(path);
    expect(cursor.current).toBe(0);
    await cursor.advance(7);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ seq: 7 });
    expect((await CursorStore.open(path)).current).toBe(7);
  });

  it('never moves back and coalesces concurrent writes to the latest value', async () => {
    const path = tempPath();
    const cursor = await CursorStore.open(path);
    await Promise.all([cursor.advance(3), cursor.advance(9), cursor.advance(5), cursor.advance(8)]);
    expect(cursor.durable).toBe(9);
    await cursor.advance(2);
    expect((await CursorStore.open(path)).current).toBe(9);
    // Only the cursor itself is left in the folder: temp files are renamed over it.
    expect(readdirSync(join(path, '..'))).toEqual(['mqtt.cursor.json']);
  });

  it('refuses a damaged cursor file rather than restarting from 0', async () => {
    const path = tempPath();
    const cursor = await CursorStore.open(path);
    await cursor.advance(1);
    writeFileSync(path, '{"seq":');
    const error = await CursorStore.open(path).catch((caught: unknown) => caught);
    expect(isJournalError(error) && error.code).toBe('corrupt');
  });

  it('deferred: an advance does not touch the disk until the delay has passed', async () => {
    const path = tempPath();
    const cursor = await CursorStore.open(path, { defer: { ms: 150, count: 1000 } });
    await cursor.advance(4);
    await cursor.advance(6);
    expect(cursor.current).toBe(6);
    expect(cursor.durable).toBe(0);
    expect(existsSync(path)).toBe(false);
    await waitUntil(() => cursor.durable === 6);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ seq: 6 });
  });

  it('deferred: written at once when the count is reached, and flush writes the rest', async () => {
    const path = tempPath();
    const cursor = await CursorStore.open(path, { defer: { ms: 60_000, count: 10 } });
    for (let seq = 1; seq <= 9; seq++) await cursor.advance(seq);
    expect(existsSync(path)).toBe(false);
    await cursor.advance(10);
    await waitUntil(() => cursor.durable === 10);
    await cursor.advance(13);
    expect(cursor.durable).toBe(10);
    await cursor.flush();
    expect(cursor.durable).toBe(13);
    expect((await CursorStore.open(path)).current).toBe(13);
  });

  it('deferred: a failed write is thrown by the next advance, naming the file', async () => {
    const dir = makeTempDir('tableside-cursor-');
    const path = join(dir, 'mqtt.cursor.json');
    const cursor = await CursorStore.open(path, { defer: { ms: 60_000, count: 1 } });
    // The folder gone: the deferred write fails.
    rmSync(dir, { recursive: true, force: true });
    await cursor.advance(1);
    await waitUntil(async () => {
      const error = await cursor.advance(2).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      return isJournalError(error) && error.code === 'io_failed' && error.message.includes(path);
    });
  });
});

const waitUntil = (check: () => boolean | Promise<boolean>) => until(check, 'the cursor', 5_000);
