/** A daemon's journal as a test reads it while the daemon may still be writing. */
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';

/** The journal's records so far: a line being written right now ends the read, not the test. */
export async function journalSoFar(dir: string): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  try {
    for await (const record of readJournalRecords(dir)) records.push(record);
  } catch {
    // A line being written right now: the records before it are what there is.
  }
  return records;
}
