/**
 * Issue 36 item 3: a deferred cursor (the MQTT bridge's) no longer fsyncs its
 * folder after each rename. Its file operations are recorded, and the crash
 * at every point of two writes is played on a model of the disk: what a
 * folder fsync has not made durable (the temp file's creation, a rename)
 * survives as any prefix of those changes, in order (a journaling file
 * system), and what a file fsync has not made durable is lost, kept or torn.
 * Every state a crash can leave must reopen at a whole value the cursor held
 * (a lower one only sends events again, deduplicated by seq), and the cursor
 * must write on from it (a temp file left behind is overwritten).
 */
import { constants, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { CursorStore } from '../../../firmware-host/journal/index.ts';
import { tempDir } from '../../helpers/temp.ts';

type FileOp =
  | { kind: 'create'; name: string }
  | { kind: 'write'; name: string; text: string }
  | { kind: 'sync'; name: string }
  | { kind: 'rename'; from: string; to: string }
  | { kind: 'syncFolder' };

const { recorded } = vi.hoisted(() => ({ recorded: [] as FileOp[] }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const open = async (path: string, flags: number, mode?: number) => {
    const handle = await real.open(path, flags, mode);
    const name = basename(path);
    const folder = (await handle.stat()).isDirectory();
    if (!folder && (flags & constants.O_CREAT) !== 0) recorded.push({ kind: 'create', name });
    return new Proxy(handle, {
      get(target, property) {
        if (property === 'writeFile') {
          return async (data: string) => {
            await target.writeFile(data);
            recorded.push({ kind: 'write', name, text: String(data) });
          };
        }
        if (property === 'sync') {
          return async () => {
            await target.sync();
            recorded.push(folder ? { kind: 'syncFolder' } : { kind: 'sync', name });
          };
        }
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  const rename = async (from: string, to: string) => {
    await real.rename(from, to);
    recorded.push({ kind: 'rename', from: basename(from), to: basename(to) });
  };
  return { ...real, open, rename, default: { ...real, open, rename } };
});

/** A folder's names and what each file holds. */
type Folder = Map<string, string>;

/** Every folder a crash after some of `ops` can leave, starting from `start` (all durable). */
function crashStates(start: Folder, ops: readonly FileOp[]): Folder[] {
  let nextInode = 0;
  const inodeOf = new Map<string, number>();
  const durable = new Map<number, string>();
  const latest = new Map<number, string>();
  for (const [name, text] of start) {
    const inode = nextInode++;
    inodeOf.set(name, inode);
    durable.set(inode, text);
    latest.set(inode, text);
  }
  let durableNames = new Map(inodeOf);
  let pending: Array<(names: Map<string, number>) => void> = [];
  const states: Folder[] = [];
  const crashNow = () => {
    for (let applied = 0; applied <= pending.length; applied++) {
      const names = new Map(durableNames);
      for (const change of pending.slice(0, applied)) change(names);
      // Each file's unsynced data lost, kept, or torn halfway.
      let folders: Folder[] = [new Map()];
      for (const [name, inode] of names) {
        const kept = latest.get(inode)!;
        const synced = durable.get(inode)!;
        const choices = kept === synced ? [kept] : [synced, kept, kept.slice(0, kept.length >> 1)];
        folders = folders.flatMap((folder) =>
          choices.map((text) => new Map([...folder, [name, text]])),
        );
      }
      states.push(...folders);
    }
  };
  crashNow();
  for (const op of ops) {
    switch (op.kind) {
      case 'create': {
        const existing = inodeOf.get(op.name);
        if (existing !== undefined) {
          latest.set(existing, '');
          break;
        }
        const inode = nextInode++;
        inodeOf.set(op.name, inode);
        durable.set(inode, '');
        latest.set(inode, '');
        pending.push((names) => names.set(op.name, inode));
        break;
      }
      case 'write':
        latest.set(inodeOf.get(op.name)!, op.text);
        break;
      case 'sync': {
        const inode = inodeOf.get(op.name)!;
        durable.set(inode, latest.get(inode)!);
        break;
      }
      case 'rename': {
        const inode = inodeOf.get(op.from)!;
        inodeOf.delete(op.from);
        inodeOf.set(op.to, inode);
        pending.push((names) => {
          names.delete(op.from);
          names.set(op.to, inode);
        });
        break;
      }
      case 'syncFolder':
        for (const change of pending) change(durableNames);
        durableNames = new Map(durableNames);
        pending = [];
        break;
    }
    crashNow();
  }
  return states;
}

const DEFER = { ms: 60_000, count: 1_000_000 };

it('writes a deferred cursor without a folder fsync, and a write-through one with it', async () => {
  const path = join(tempDir('tableside-cursor-crash-'), 'mqtt-cursor.json');
  recorded.length = 0;
  const deferred = await CursorStore.open(path, { defer: DEFER });
  await deferred.advance(12);
  await deferred.flush();
  expect(recorded.map((op) => op.kind)).toEqual(['create', 'write', 'sync', 'rename']);

  recorded.length = 0;
  const writeThrough = await CursorStore.open(path);
  await writeThrough.advance(13);
  expect(recorded.map((op) => op.kind)).toEqual([
    'create',
    'write',
    'sync',
    'rename',
    'syncFolder',
  ]);
});

it('reopens at a whole value it held after a crash at any point of two deferred writes, and writes on', async () => {
  const dir = tempDir('tableside-cursor-crash-');
  const path = join(dir, 'mqtt-cursor.json');
  const name = basename(path);
  writeFileSync(path, `${JSON.stringify({ seq: 7 })}\n`);
  recorded.length = 0;
  const cursor = await CursorStore.open(path, { defer: DEFER });
  await cursor.advance(12);
  await cursor.flush();
  await cursor.advance(20);
  await cursor.flush();
  const ops = [...recorded];
  expect(ops.filter((op) => op.kind === 'rename')).toHaveLength(2);

  const states = crashStates(new Map([[name, `${JSON.stringify({ seq: 7 })}\n`]]), ops);
  const reopened = new Set<number>();
  for (const [index, state] of states.entries()) {
    const folder = join(dir, `crash-${index}`);
    mkdirSync(folder);
    for (const [file, text] of state) writeFileSync(join(folder, file), text);
    const after = await CursorStore.open(join(folder, name), { defer: DEFER });
    expect([7, 12, 20]).toContain(after.current);
    reopened.add(after.current);
    // It writes on from there, over a temp file the crash may have left.
    const next = after.current + 100;
    await after.advance(next);
    await after.flush();
    expect((await CursorStore.open(join(folder, name))).current).toBe(next);
  }
  // The model reaches every value: the old one where a rename was lost, each new one where it held.
  expect([...reopened].sort((a, b) => a - b)).toEqual([7, 12, 20]);
});
