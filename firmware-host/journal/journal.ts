/**
 * The table's journal: append-only, one JSON record per line, hash-chained,
 * durable before acknowledged.
 *
 * - `append()` resolves only after the records' bytes are fdatasync'ed. While
 *   one write+fsync is in flight, further appends queue up and go out
 *   together in the next single write+fsync (group commit); order is the
 *   order of the append calls, and seq/prev are assigned at call time. The
 *   file is opened O_DSYNC where the platform has it, so that write+fsync
 *   is one system call and one trip through the thread pool per commit.
 * - An I/O failure is fatal for this instance (fail-stop): after a failed
 *   fsync nobody knows what reached the disk, so every queued and later
 *   append rejects; restarting recovers from the file.
 * - On open, a torn last line (no newline, bad JSON, broken chain) is cut
 *   off and reported. A newest file unreadable from some line on, more than
 *   its last line, is set aside whole (renamed, never deleted) and the open
 *   is refused (`damaged`) until an operator restores it or runs `journal
 *   repair`; anything else wrong is `corrupt` (run verify).
 * - `rotate(reason)` starts a new file whose first record (a `file` meta
 *   record) chains to the last record of the previous file; the daemon calls
 *   it on `shoe_start`; with `rotateDaily` a change of day rotates too.
 * - With a `checkpoint` provider, every rotation writes a second record
 *   right after the file's first: a `checkpoint` meta record describing
 *   everything appended before it (the daemon's session state), so that a
 *   restart reads the newest files only (`checkpoints()`), not the history.
 */
import { constants } from 'node:fs';
import {
  type FileHandle,
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  truncate,
} from 'node:fs/promises';
import { join } from 'node:path';
import { JournalError } from './errors.ts';
import {
  decodeLine,
  encodeRecord,
  GENESIS_HASH,
  hashLine,
  type JournalEntry,
  type JournalRecord,
  journalFileIndex,
  journalFileName,
  SET_ASIDE_PATTERN,
  seqAfter,
  setAsideFileName,
  splitLines,
  utcDay,
} from './record.ts';

export interface JournalOptions {
  dir: string;
  /** Milliseconds since the epoch; injected so tests and replays control time. */
  clock: () => number;
  /** Start a new file when `dayOf(ts)` changes. Default true. */
  rotateDaily?: boolean;
  /** The rotation day of a timestamp. Default: the UTC date. */
  dayOf?: (ts: number) => string;
  /** Recorded in each file's first record. */
  table?: string;
  /** More to record in each file's first record (the ruleset in force), asked when it is made. */
  fileDetails?: () => Record<string, unknown>;
  /** Durable records kept in memory for readers that follow the tail (the MQTT bridge). Default 4096. */
  recentCapacity?: number;
  /**
   * Called (synchronously) at each rotation, after every append so far: the
   * meta record to write right after the new file's first record, describing
   * those appends (`type: 'checkpoint'`), or undefined for none. It must not
   * throw; a checkpoint that cannot be made is simply not written.
   */
  checkpoint?: (reason: string) => MetaData | undefined;
  /**
   * Called (synchronously) at each rotation after the checkpoint, and by
   * `seal()`: the meta record sealing the chain head (the last record's seq
   * and line hash), e.g. signed with the table's key; undefined for none.
   * It must not throw.
   */
  seal?: (head: ChainHead) => MetaData | undefined;
}

/** The head of the chain: the last record appended and the SHA-256 of its line. */
export interface ChainHead {
  seq: number;
  hash: string;
  /** When the seal is made (the clock's time). */
  ts: number;
}

/** The data of a meta record. */
export type MetaData = { type: string; [detail: string]: unknown };

/** A checkpoint found at the head of a journal file. */
export interface FoundCheckpoint {
  file: string;
  seq: number;
  data: MetaData;
}

export interface RecoveryWarning {
  file: string;
  /** Byte offset where the file was cut. */
  offset: number;
  /** Bytes removed. */
  bytes: number;
  reason: string;
}

type DurableListener = (records: readonly JournalRecord[]) => void;

interface PendingWrite {
  type: 'write';
  lines: string[];
  records: JournalRecord[];
  resolve: (records: JournalRecord[]) => void;
  reject: (error: unknown) => void;
}

interface PendingRotate {
  type: 'rotate';
  fileIndex: number;
  /** The file's first record, then its checkpoint if any. */
  lines: string[];
  records: JournalRecord[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

const LOCK_FILE = 'journal.lock';

export class Journal {
  /** Torn tails cut off while opening. */
  readonly recovery: readonly RecoveryWarning[];
  private readonly clock: () => number;
  private readonly rotateDaily: boolean;
  private readonly dayOf: (ts: number) => string;
  private readonly table: string | undefined;
  private readonly fileDetails: JournalOptions['fileDetails'];
  private readonly recentCapacity: number;
  private readonly checkpoint: JournalOptions['checkpoint'];
  private readonly sealer: JournalOptions['seal'];
  private handle: FileHandle | undefined;
  /** Index of the file appends go to once the queue drains. */
  private queuedFileIndex: number;
  private nextSeq: number;
  private lastHash: string;
  private currentDay: string | undefined;
  private durableSeq: number;
  private readonly queue: (PendingWrite | PendingRotate)[] = [];
  private draining = false;
  /** The seq of the last seal record appended by `seal()` (nothing new after it: no new seal). */
  private lastSealed = 0;
  private failure: JournalError | undefined;
  private closed = false;
  private readonly listeners = new Set<DurableListener>();
  private readonly recent: JournalRecord[] = [];
  /** First seq of each file, for readers that start mid-journal; filled as files are looked at. */
  private readonly fileFirstSeq = new Map<number, number>();

  private constructor(
    readonly dir: string,
    options: JournalOptions,
    state: {
      handle: FileHandle;
      fileIndex: number;
      nextSeq: number;
      lastHash: string;
      currentDay: string | undefined;
      recovery: RecoveryWarning[];
      fileFirstSeq: Map<number, number>;
    },
  ) {
    this.clock = options.clock;
    this.rotateDaily = options.rotateDaily ?? true;
    this.dayOf = options.dayOf ?? utcDay;
    this.table = options.table;
    this.fileDetails = options.fileDetails;
    this.recentCapacity = options.recentCapacity ?? 4096;
    this.checkpoint = options.checkpoint;
    this.sealer = options.seal;
    this.handle = state.handle;
    this.queuedFileIndex = state.fileIndex;
    this.nextSeq = state.nextSeq;
    this.lastHash = state.lastHash;
    this.currentDay = state.currentDay;
    this.durableSeq = state.nextSeq - 1;
    this.recovery = state.recovery;
    this.fileFirstSeq = state.fileFirstSeq;
  }

  /** Opens (creating if needed) the journal in `options.dir`, recovering a torn tail. */
  static async open(options: JournalOptions): Promise<Journal> {
    const dir = options.dir;
    await mkdir(dir, { recursive: true });
    await acquireLock(dir);
    try {
      return await Journal.openLocked(options);
    } catch (error) {
      await rm(join(dir, LOCK_FILE), { force: true });
      throw error;
    }
  }

  private static async openLocked(options: JournalOptions): Promise<Journal> {
    const dir = options.dir;
    const dayOf = options.dayOf ?? utcDay;
    const indexes = (await readdir(dir))
      .map((name) => journalFileIndex(name))
      .filter((index): index is number => index !== undefined)
      .sort((a, b) => a - b);
    // Files' first seqs are read when a reader needs them (a binary search),
    // not here: opening must not cost a read of every file of the history.
    const fileFirstSeq = new Map<number, number>();
    await refuseUndecidedSetAside(dir, indexes);
    if (options.table !== undefined) await refuseOtherTable(dir, indexes, options.table);
    const recovery: RecoveryWarning[] = [];
    const fileIndex = indexes[indexes.length - 1] ?? 1;
    let chain = { seq: 0, hash: GENESIS_HASH };
    // The chain enters the last file from the last record of the file before.
    for (let position = indexes.length - 2; position >= 0; position--) {
      const tail = await readLastRecord(join(dir, journalFileName(indexes[position]!)));
      if (tail) {
        chain = tail;
        break;
      }
    }
    const path = join(dir, journalFileName(fileIndex));
    let records: { record: JournalRecord; hash: string }[] = [];
    if (indexes.length > 0) {
      const bytes = await readFile(path);
      const scanned = scanForRecovery(bytes, chain, journalFileName(fileIndex));
      if (scanned.damaged) {
        await setAside(dir, journalFileName(fileIndex), bytes.length, scanned.damaged, chain.seq);
      }
      records = scanned.records;
      if (scanned.cutAt !== undefined) {
        await truncate(path, scanned.cutAt);
        recovery.push({
          file: journalFileName(fileIndex),
          offset: scanned.cutAt,
          bytes: bytes.length - scanned.cutAt,
          reason: scanned.reason,
        });
      }
    }
    const handle = await open(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | DATA_SYNC,
      0o640,
    );
    try {
      await handle.datasync();
      await fsyncDir(dir);
      const last = records[records.length - 1];
      if (last) chain = { seq: last.record.seq, hash: last.hash };
      const firstTs = records[0]?.record.ts;
      const journal = new Journal(dir, options, {
        handle,
        fileIndex,
        nextSeq: chain.seq + 1,
        lastHash: chain.hash,
        currentDay: firstTs === undefined ? undefined : dayOf(firstTs),
        recovery,
        fileFirstSeq,
      });
      if (records[0]) fileFirstSeq.set(fileIndex, records[0].record.seq);
      for (const { record } of records.slice(-journal.recentCapacity)) journal.recent.push(record);
      if (records.length === 0) {
        // A new journal, or a file created by a rotation that crashed before its first record.
        await journal.append([
          {
            kind: 'meta',
            data: journal.fileMeta(
              journalFileName(fileIndex),
              indexes.length === 0 ? 'new' : 'recovered',
            ),
          },
        ]);
      }
      for (const warning of recovery) {
        await journal.append([{ kind: 'meta', data: { type: 'recovered', ...warning } }]);
      }
      return journal;
    } catch (error) {
      // The open failure is the one thrown below; the close only releases the handle.
      await handle.close().catch(() => undefined);
      throw error;
    }
  }

  /** The seq of the last durable record (0 for an empty journal). */
  get lastSeq(): number {
    return this.durableSeq;
  }

  /**
   * Appends records; resolves with them (seq, ts, prev filled in) once they
   * are on disk. Rejects with JournalError('io_failed') if they may not be.
   */
  append(entries: readonly JournalEntry[]): Promise<JournalRecord[]> {
    return this.appendAt(entries, undefined);
  }

  /** `append`, stamped `at` (a seal's record carries the time its head signs). */
  private appendAt(
    entries: readonly JournalEntry[],
    at: number | undefined,
  ): Promise<JournalRecord[]> {
    const unusable = this.unusable();
    if (unusable) return Promise.reject(unusable);
    if (entries.length === 0) return Promise.resolve([]);
    const ts = at ?? this.clock();
    if (this.rotateDaily && this.currentDay !== undefined && this.dayOf(ts) !== this.currentDay) {
      // A failed rotation fails the journal: this append and the next ones reject with it.
      void this.rotate('day').catch(() => undefined);
    }
    if (this.currentDay === undefined) this.currentDay = this.dayOf(ts);
    const records: JournalRecord[] = [];
    const lines: string[] = [];
    for (const entry of entries) {
      if (entry.kind !== 'input' && entry.kind !== 'event' && entry.kind !== 'meta') {
        return Promise.reject(
          new JournalError(
            'bad_record',
            `unknown record kind ${String((entry as { kind: unknown }).kind)}`,
          ),
        );
      }
      const record = {
        ...entry,
        seq: this.nextSeq + records.length,
        ts,
        prev: '',
      } as JournalRecord;
      records.push(record);
    }
    // An input states how many events it made (those appended right after it): recovery and
    // verify can then tell an input whose events were cut off by a failed write.
    for (const [index, record] of records.entries()) {
      if (record.kind !== 'input') continue;
      let events = 0;
      while (records[index + 1 + events]?.kind === 'event') events++;
      record.events = events;
    }
    // Encode before committing seq/hash, so a non-serialisable record changes nothing.
    let prev = this.lastHash;
    try {
      for (const record of records) {
        record.prev = prev;
        const line = encodeRecord(record);
        if (line.includes('\n')) throw new Error('encoded record contains a newline');
        lines.push(line);
        prev = hashLine(line);
      }
    } catch (error) {
      return Promise.reject(
        new JournalError('bad_record', `record is not JSON-serialisable: ${String(error)}`, {
          cause: error,
        }),
      );
    }
    this.nextSeq += records.length;
    this.lastHash = prev;
    return new Promise((resolve, reject) => {
      this.queue.push({ type: 'write', lines, records, resolve, reject });
      this.kick();
    });
  }

  /** Starts a new file (per shoe, per day); resolves once the new file's first record is durable. */
  rotate(reason: string): Promise<void> {
    const unusable = this.unusable();
    if (unusable) return Promise.reject(unusable);
    const ts = this.clock();
    const fileIndex = this.queuedFileIndex + 1;
    const first: JournalRecord = {
      kind: 'meta',
      data: this.fileMeta(journalFileName(fileIndex), reason),
      seq: this.nextSeq,
      ts,
      prev: this.lastHash,
    };
    const lines = [encodeRecord(first)];
    const records: JournalRecord[] = [first];
    const checkpoint = this.makeCheckpoint(reason, first.seq + 1, ts, hashLine(lines[0]!));
    if (checkpoint) {
      lines.push(checkpoint.line);
      records.push(checkpoint.record);
    }
    const last = records[records.length - 1]!;
    const sealed = this.makeSeal({ seq: last.seq, hash: hashLine(lines[lines.length - 1]!), ts });
    if (sealed) {
      lines.push(sealed.line);
      records.push(sealed.record);
      this.lastSealed = sealed.record.seq;
    }
    this.queuedFileIndex = fileIndex;
    this.nextSeq += records.length;
    this.lastHash = hashLine(lines[lines.length - 1]!);
    this.currentDay = this.dayOf(ts);
    return new Promise((resolve, reject) => {
      this.queue.push({ type: 'rotate', fileIndex, lines, records, resolve, reject });
      this.kick();
    });
  }

  private makeCheckpoint(
    reason: string,
    seq: number,
    ts: number,
    prev: string,
  ): { line: string; record: JournalRecord } | undefined {
    if (!this.checkpoint) return undefined;
    try {
      const data = this.checkpoint(reason);
      if (!data) return undefined;
      const record: JournalRecord = { kind: 'meta', data, seq, ts, prev };
      const line = encodeRecord(record);
      if (line.includes('\n')) return undefined;
      return { line, record };
    } catch {
      return undefined; // no checkpoint: a restart replays from an older one
    }
  }

  /** The seal of a rotation: a record right after the checkpoint, chained to it. */
  private makeSeal(head: ChainHead): { line: string; record: JournalRecord } | undefined {
    if (!this.sealer) return undefined;
    try {
      const data = this.sealer(head);
      if (!data) return undefined;
      const record: JournalRecord = {
        kind: 'meta',
        data,
        seq: head.seq + 1,
        ts: head.ts,
        prev: head.hash,
      };
      const line = encodeRecord(record);
      return line.includes('\n') ? undefined : { line, record };
    } catch {
      return undefined;
    }
  }

  /**
   * Appends a seal of the chain head as it stands now (every record
   * appended so far); resolves once durable, with nothing when there is no
   * sealer or nothing new to seal.
   */
  seal(): Promise<JournalRecord[]> {
    const unusable = this.unusable();
    if (unusable) return Promise.reject(unusable);
    const seq = this.nextSeq - 1;
    if (!this.sealer || seq < 1 || seq === this.lastSealed) return Promise.resolve([]);
    const ts = this.clock();
    const data = this.sealer({ seq, hash: this.lastHash, ts });
    if (!data) return Promise.resolve([]);
    this.lastSealed = seq + 1;
    return this.appendAt([{ kind: 'meta', data }], ts);
  }

  /**
   * Checkpoints at the heads of the journal's files, the newest first. Reads
   * only the first records of each file, and only as far as the caller
   * iterates: a restart stops at the first usable one.
   */
  async *checkpoints(): AsyncGenerator<FoundCheckpoint> {
    const indexes = await journalFileIndexes(this.dir);
    for (const index of indexes.reverse()) {
      const file = journalFileName(index);
      const [head, second] = await readLeadingRecords(join(this.dir, file), 2);
      if (head) this.fileFirstSeq.set(index, head.seq);
      if (second && second.seq <= this.durableSeq && isCheckpoint(second)) {
        yield { file, seq: second.seq, data: second.data };
      }
    }
  }

  /** Called with each batch of records once durable, in seq order. Returns an unsubscribe function. */
  onDurable(listener: DurableListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every durable record, checking the chain as it reads. */
  async readAll(): Promise<JournalRecord[]> {
    const records: JournalRecord[] = [];
    for await (const record of this.read(1)) records.push(record);
    return records;
  }

  /**
   * Durable records from `fromSeq` on, in order, checking the chain. Served
   * from memory when the range is recent, else from the files.
   */
  async *read(fromSeq = 1): AsyncGenerator<JournalRecord> {
    const recent = this.recentRange(fromSeq, Number.POSITIVE_INFINITY);
    if (recent) {
      yield* recent;
      return;
    }
    const until = this.durableSeq;
    yield* readJournalRecords(this.dir, fromSeq, until, (index) => this.firstSeqOf(index));
  }

  /** The first seq of a file (cached: files never change their head). */
  private async firstSeqOf(index: number): Promise<number | undefined> {
    const known = this.fileFirstSeq.get(index);
    if (known !== undefined) return known;
    const [first] = await readLeadingRecords(join(this.dir, journalFileName(index)), 1);
    if (first) this.fileFirstSeq.set(index, first.seq);
    return first?.seq;
  }

  /**
   * Up to `max` durable records from `fromSeq` on when memory still holds
   * them all, at once (no await): the bridge publishes a card in the turn
   * that made it durable. Undefined when the range reaches back to the files.
   */
  recentRange(fromSeq: number, max: number): JournalRecord[] | undefined {
    const oldestRecent = this.recent[0]?.seq;
    if (oldestRecent === undefined || fromSeq < oldestRecent) return undefined;
    const records: JournalRecord[] = [];
    for (let index = fromSeq - oldestRecent; index < this.recent.length; index++) {
      const record = this.recent[index]!;
      if (record.seq > this.durableSeq || records.length >= max) break;
      records.push(record);
    }
    return records;
  }

  /** Up to `max` durable records from `fromSeq` on. */
  async readRange(fromSeq: number, max: number): Promise<JournalRecord[]> {
    const records: JournalRecord[] = [];
    if (max <= 0) return records;
    const recent = this.recentRange(fromSeq, max);
    if (recent) return recent;
    for await (const record of this.read(fromSeq)) {
      records.push(record);
      if (records.length >= max) break;
    }
    return records;
  }

  /** Waits for queued records, then closes the file and releases the lock. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.draining || this.queue.length > 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!this.draining && this.queue.length > 0) this.kick();
    }
    // Every record is fsynced before this: a failing close loses nothing.
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await rm(join(this.dir, LOCK_FILE), { force: true });
  }

  private fileMeta(file: string, reason: string): { type: string; [detail: string]: unknown } {
    return {
      type: 'file',
      file,
      reason,
      ...(this.table ? { table: this.table } : {}),
      ...this.fileDetails?.(),
    };
  }

  private unusable(): JournalError | undefined {
    if (this.failure) return this.failure;
    if (this.closed) return new JournalError('closed', 'the journal is closed');
    return undefined;
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = true;
    void this.drain();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (head.type === 'rotate') {
        this.queue.shift();
        try {
          await this.switchFile(head);
          this.delivered(head.records);
          head.resolve();
        } catch (error) {
          this.fail(error, [head]);
          break;
        }
        continue;
      }
      // Group commit: every write queued up to the next rotation goes out in one write+fsync.
      const batch: PendingWrite[] = [];
      while (this.queue[0]?.type === 'write') batch.push(this.queue.shift() as PendingWrite);
      try {
        const text = `${batch.flatMap((write) => write.lines).join('\n')}\n`;
        await writeDurably(this.handle!, Buffer.from(text, 'utf8'));
      } catch (error) {
        this.fail(error, batch);
        break;
      }
      this.delivered(batch.flatMap((write) => write.records));
      for (const write of batch) write.resolve(write.records);
    }
    this.draining = false;
  }

  private async switchFile(rotation: PendingRotate): Promise<void> {
    const path = join(this.dir, journalFileName(rotation.fileIndex));
    const next = await open(
      path,
      constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | DATA_SYNC,
      0o640,
    );
    try {
      await writeFully(next, Buffer.from(`${rotation.lines.join('\n')}\n`, 'utf8'));
      await next.datasync();
      await fsyncDir(this.dir);
    } catch (error) {
      // The rotation failure is the one thrown below; the close only releases the new file.
      await next.close().catch(() => undefined);
      throw error;
    }
    const previous = this.handle;
    this.handle = next;
    this.fileFirstSeq.set(rotation.fileIndex, rotation.records[0]!.seq);
    // The old file is fsynced and the new one is in use: a failing close of the old loses nothing.
    await previous?.close().catch(() => undefined);
  }

  private delivered(records: JournalRecord[]): void {
    const last = records[records.length - 1];
    if (!last) return;
    this.durableSeq = last.seq;
    for (const record of records) this.recent.push(record);
    if (this.recent.length > this.recentCapacity) {
      this.recent.splice(0, this.recent.length - this.recentCapacity);
    }
    for (const listener of this.listeners) listener(records);
  }

  private fail(error: unknown, current: (PendingWrite | PendingRotate)[]): void {
    this.failure = new JournalError('io_failed', `journal write failed: ${String(error)}`, {
      cause: error,
    });
    for (const pending of [...current, ...this.queue.splice(0)]) pending.reject(this.failure);
  }
}

/**
 * A journal folder belongs to one table: the table id its files' first
 * records name (the newest file that has one) must be `table`. Two tables
 * in one folder would continue each other's shoes.
 */
async function refuseOtherTable(dir: string, indexes: readonly number[], table: string) {
  for (let position = indexes.length - 1; position >= 0; position--) {
    const file = journalFileName(indexes[position]!);
    const [first] = await readLeadingRecords(join(dir, file), 1);
    if (!first) continue; // empty, or unreadable: an older file says whose folder it is
    const owner =
      first.kind === 'meta' && first.data.type === 'file' ? first.data.table : undefined;
    if (typeof owner !== 'string' || owner === table) return;
    throw new JournalError(
      'other_table',
      `the journal folder ${dir} belongs to table ${JSON.stringify(owner)} (${file}), not to ${JSON.stringify(table)}, the table this config names: a journal folder keeps one table. Give ${JSON.stringify(table)} its own folder (journal.dir in its config, or TABLESIDE_JOURNAL_DIR), or run this folder as table ${JSON.stringify(owner)}`,
    );
  }
}

/**
 * O_DSYNC: each write returns once its data is as durable as after
 * fdatasync. 0 where the platform lacks it (writeDurably then syncs itself).
 */
const DATA_SYNC: number = constants.O_DSYNC ?? 0;

/** The whole buffer, durable: one O_DSYNC write, or a write and an fdatasync. */
async function writeDurably(handle: FileHandle, buffer: Buffer): Promise<void> {
  await writeFully(handle, buffer);
  if (DATA_SYNC === 0) await handle.datasync();
}

async function writeFully(handle: FileHandle, buffer: Buffer): Promise<void> {
  let written = 0;
  while (written < buffer.length) {
    const { bytesWritten } = await handle.write(buffer, written, buffer.length - written);
    written += bytesWritten;
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Refuses to open while a file set aside by an earlier start is undecided:
 * it is newer than every journal file (neither restored nor repaired).
 */
async function refuseUndecidedSetAside(dir: string, indexes: readonly number[]): Promise<void> {
  const newest = indexes[indexes.length - 1] ?? 0;
  for (const name of await readdir(dir)) {
    const match = SET_ASIDE_PATTERN.exec(name);
    if (!match || Number(match[2]) <= newest) continue;
    const file = match[1]!;
    throw new JournalError(
      'damaged',
      `journal: ${file} could not be read from line ${match[3]} on; it was set aside whole as ${join(dir, name)} (nothing is deleted), and the table will not start until you decide: ${choicesText(dir, file)}`,
    );
  }
}

function choicesText(dir: string, file: string): string {
  return `either (1) put a good copy of ${file} (a backup) back in ${dir} and start again, or (2) run \`tableside journal repair ${dir}\` to continue the journal in a new ${file} (what the set-aside file held is then missing from the journal; \`journal verify\` names it)`;
}

/** Moves a damaged newest file aside whole (its name says from which line it is unreadable) and refuses the open. */
async function setAside(
  dir: string,
  file: string,
  bytes: number,
  damaged: { line: number; problem: string },
  lastSeqBefore: number,
): Promise<never> {
  const existing = new Set(await readdir(dir));
  let name = setAsideFileName(file, damaged.line);
  for (let copy = 2; existing.has(name); copy++) {
    name = `${setAsideFileName(file, damaged.line)}.${copy}`;
  }
  await rename(join(dir, file), join(dir, name));
  await fsyncDir(dir);
  throw new JournalError(
    'damaged',
    `journal: ${file} cannot be read from line ${damaged.line} on (${damaged.problem}), more than a torn last line; it is set aside whole as ${join(dir, name)} (${bytes} bytes, nothing deleted; the journal before it ends at seq ${lastSeqBefore}), and the table will not start until you decide: ${choicesText(dir, file)}`,
  );
}

/** Takes the journal folder's lock (one writer per folder); `releaseJournalLock` gives it back. */
export async function acquireJournalLock(dir: string): Promise<void> {
  await acquireLock(dir);
}

export async function releaseJournalLock(dir: string): Promise<void> {
  await rm(join(dir, LOCK_FILE), { force: true });
}

async function acquireLock(dir: string): Promise<void> {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (
        Number.isSafeInteger(holder) &&
        holder > 0 &&
        holder !== process.pid &&
        (await isOurs(holder))
      ) {
        throw new JournalError(
          'locked',
          `journal ${dir} is in use by process ${holder} (another tableside for the same table?)`,
        );
      }
      if (holder === process.pid) {
        throw new JournalError('locked', `journal ${dir} is already open in this process`);
      }
      await rm(path, { force: true }); // stale: its process is gone
    }
  }
  throw new JournalError('locked', `cannot take the lock ${path}`);
}

/** Whether `pid` is a live node process (a reused pid of another program after a reboot is not). */
async function isOurs(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  try {
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return /node|tableside|tsx/.test(cmdline);
  } catch {
    return true; // no /proc (macOS): trust the pid
  }
}

/**
 * Finds the valid prefix of the last file. Only the last line may be torn
 * (cut silently); more bad lines at the end, none of them a record, are
 * `damaged` (the caller sets the file aside, deleting nothing); a good
 * record after a bad one means the middle was damaged: corrupt.
 * An input and its events are one unit: when the prefix ends inside one
 * (the input states more events than follow it: a write that failed
 * part-way, e.g. on a full disk), the cut moves back to the input, so the
 * device's resend of that unacknowledged input is journaled anew with all
 * its events instead of being taken as already journaled.
 */
export function scanForRecovery(
  bytes: Uint8Array,
  chain: { seq: number; hash: string },
  file: string,
): {
  records: { record: JournalRecord; hash: string }[];
  cutAt?: number;
  reason: string;
  /** Set when more than the last line is bad: the first bad line and why. */
  damaged?: { line: number; problem: string };
} {
  const lines = splitLines(bytes);
  const records: { record: JournalRecord; hash: string; offset: number }[] = [];
  let { seq, hash } = chain;
  let torn: { cutAt: number; reason: string } | undefined;
  let damaged: { line: number; problem: string } | undefined;
  for (const [position, raw] of lines.entries()) {
    const problem = lineProblem(raw, seq, hash);
    if (problem === undefined) {
      const record = (decodeLine(raw.text) as { ok: true; record: JournalRecord }).record;
      seq = record.seq;
      hash = hashLine(raw.text);
      records.push({ record, hash, offset: raw.offset });
      continue;
    }
    const later = lines.slice(position + 1);
    const damagedMiddle = later.find((line) => line.terminated && decodeLine(line.text).ok);
    if (damagedMiddle) {
      throw new JournalError(
        'corrupt',
        `${file}: line ${raw.line} (byte ${raw.offset}) is bad (${problem}) but line ${damagedMiddle.line} after it is a record: not a torn write; run \`tableside journal verify\``,
      );
    }
    torn =
      later.length > 0
        ? { cutAt: raw.offset, reason: `unreadable from line ${raw.line}: ${problem}` }
        : { cutAt: raw.offset, reason: `torn last record at line ${raw.line}: ${problem}` };
    if (later.length > 0) damaged = { line: raw.line, problem };
    break;
  }
  const unit = unfinishedUnit(records.map((entry) => entry.record));
  if (unit !== undefined) {
    const input = records[unit.index]!;
    const reason = `input seq ${input.record.seq} states ${unit.stated} event(s) but ${unit.found} follow: its write was cut, the input is removed with them`;
    return {
      records: records.slice(0, unit.index),
      cutAt: input.offset,
      reason: torn ? `${torn.reason}; ${reason}` : reason,
      ...(damaged ? { damaged } : {}),
    };
  }
  return torn ? { records, ...torn, ...(damaged ? { damaged } : {}) } : { records, reason: '' };
}

/**
 * The last input of `records` when fewer events follow it than it states
 * (its unit was cut at the end), with the counts; undefined when complete.
 */
function unfinishedUnit(
  records: readonly JournalRecord[],
): { index: number; stated: number; found: number } | undefined {
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index]!;
    if (record.kind !== 'input') continue;
    if (record.events === undefined) return undefined;
    let found = 0;
    while (found < record.events && records[index + 1 + found]?.kind === 'event') found++;
    return found < record.events && index + 1 + found === records.length
      ? { index, stated: record.events, found }
      : undefined;
  }
  return undefined;
}

function lineProblem(
  raw: { text: string; terminated: boolean },
  previousSeq: number,
  previousHash: string,
): string | undefined {
  if (!raw.terminated) return 'no newline';
  const decoded = decodeLine(raw.text);
  if (!decoded.ok) return decoded.reason;
  const expected = seqAfter(previousSeq, decoded.record);
  if (decoded.record.seq !== expected) {
    return `seq ${decoded.record.seq} where ${expected} was expected`;
  }
  if (decoded.record.prev !== previousHash) return 'prev does not match the previous record';
  return undefined;
}

/** Whether a record is a checkpoint (a `meta` record of type `checkpoint`). */
export function isCheckpoint(
  record: JournalRecord,
): record is JournalRecord & { kind: 'meta'; data: MetaData } {
  return record.kind === 'meta' && record.data.type === 'checkpoint';
}

async function journalFileIndexes(dir: string): Promise<number[]> {
  return (await readdir(dir))
    .map((name) => journalFileIndex(name))
    .filter((index): index is number => index !== undefined)
    .sort((a, b) => a - b);
}

/**
 * The first `count` complete records of a file, reading only as far as
 * they go (a file holds a whole shoe or day; its head is what is wanted).
 * Stops at the first line that is not a record.
 */
export async function readLeadingRecords(path: string, count: number): Promise<JournalRecord[]> {
  const handle = await open(path, constants.O_RDONLY);
  try {
    const records: JournalRecord[] = [];
    let pending = Buffer.alloc(0);
    let position = 0;
    const chunk = Buffer.alloc(64 * 1024);
    while (records.length < count) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      pending = Buffer.concat([pending, chunk.subarray(0, bytesRead)]);
      let newline = pending.indexOf(0x0a);
      while (newline >= 0 && records.length < count) {
        const decoded = decodeLine(pending.subarray(0, newline).toString('utf8'));
        if (!decoded.ok) return records;
        records.push(decoded.record);
        pending = pending.subarray(newline + 1);
        newline = pending.indexOf(0x0a);
      }
    }
    return records;
  } finally {
    await handle.close();
  }
}

async function readLastRecord(path: string): Promise<{ seq: number; hash: string } | undefined> {
  const lines = splitLines(await readFile(path)).filter((line) => line.terminated);
  const last = lines[lines.length - 1];
  if (!last) return undefined;
  const decoded = decodeLine(last.text);
  if (!decoded.ok) {
    throw new JournalError(
      'corrupt',
      `${path}: last line is damaged (${decoded.reason}); run \`tableside journal verify\``,
    );
  }
  return { seq: decoded.record.seq, hash: hashLine(last.text) };
}

/**
 * Records `fromSeq`..`untilSeq` from the journal files in `dir`, checking the
 * chain (a break throws JournalError('corrupt')). Used for replay.
 */
export async function* readJournalRecords(
  dir: string,
  fromSeq = 1,
  untilSeq = Number.POSITIVE_INFINITY,
  firstSeqOf: (index: number) => Promise<number | undefined> = async (index) =>
    (await readLeadingRecords(join(dir, journalFileName(index)), 1))[0]?.seq,
): AsyncGenerator<JournalRecord> {
  const indexes = await journalFileIndexes(dir);
  // Skip files that end before fromSeq (a file ends where the next one
  // starts), found by a binary search on the files' first seqs. Reading
  // starts one file before the one holding fromSeq, so that the chain into
  // it is checked too.
  let start = 0;
  if (fromSeq > 1) {
    let low = 1;
    let high = indexes.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const first = await firstSeqOf(indexes[middle]!);
      if (first !== undefined && first <= fromSeq) {
        start = middle - 1;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
  }
  let expected: { seq: number; hash: string } | undefined;
  for (const index of indexes.slice(start)) {
    const file = journalFileName(index);
    for (const raw of splitLines(await readFile(join(dir, file)))) {
      if (!raw.terminated) return; // a torn tail is not durable
      const decoded = decodeLine(raw.text);
      if (!decoded.ok) {
        throw new JournalError(
          'corrupt',
          `${file}:${raw.line}: ${decoded.reason}; run \`tableside journal verify\``,
        );
      }
      const record = decoded.record;
      if (
        expected &&
        (record.seq !== seqAfter(expected.seq, record) || record.prev !== expected.hash)
      ) {
        throw new JournalError(
          'corrupt',
          `${file}:${raw.line}: the chain breaks at seq ${record.seq}; run \`tableside journal verify\``,
        );
      }
      expected = { seq: record.seq, hash: hashLine(raw.text) };
      if (record.seq > untilSeq) return;
      if (record.seq >= fromSeq) yield record;
    }
  }
}
