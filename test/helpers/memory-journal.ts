/** A journal held in memory, for the units that read one (the console's feed, its wheel watch). */
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import type { JournalSource } from '../../firmware-host/mqtt/bridge.ts';

export class MemoryJournal implements JournalSource {
  records: JournalRecord[] = [];
  private readonly listeners = new Set<(records: readonly JournalRecord[]) => void>();
  /** Called inside readRange before it answers: lets a test make records durable mid-read. */
  duringRead: (() => void) | undefined;
  get lastSeq(): number {
    return this.records.at(-1)?.seq ?? 0;
  }
  async readRange(fromSeq: number, max: number): Promise<JournalRecord[]> {
    const page = this.records.filter((r) => r.seq >= fromSeq).slice(0, max);
    await new Promise((resolve) => setImmediate(resolve));
    const hook = this.duringRead;
    this.duringRead = undefined;
    hook?.();
    return page;
  }
  onDurable(listener: (records: readonly JournalRecord[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  append(...records: JournalRecord[]): void {
    this.records.push(...records);
    for (const listener of this.listeners) listener(records);
  }
}
