import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CursorStore, isJournalError } from '../../../firmware-host/journal/index.ts';
import { tempDir as makeTempDir } from '../../helpers/temp.ts';

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
});
