/**
 * When the daemon seals the chain head between checkpoints: `intervalMs`
 * after the first record made durable since the last seal, so the records
 * a power cut can leave after the last signed head span at most that long.
 * A timer, not a step of the card's path (a card never waits for a
 * signature), armed only while records are being added: an idle table
 * neither wakes up nor grows its journal with heads.
 */
import type { Journal } from './journal.ts';
import type { JournalRecord } from './record.ts';

const isHead = (record: JournalRecord) => record.kind === 'meta' && record.data.type === 'head';

/** Starts sealing `journal` while records come in; returns the function that stops it. */
export function sealWhileAppending(
  journal: Pick<Journal, 'onDurable' | 'seal'>,
  intervalMs: number,
  onError: (error: unknown) => void,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  const unsubscribe = journal.onDurable((records) => {
    // A head alone is the seal itself: nothing new to seal.
    if (timer !== undefined || records.every(isHead)) return;
    timer = setTimeout(() => {
      timer = undefined;
      journal.seal().catch(onError);
    }, intervalMs);
    // The stop seals what is left; a pending seal never keeps the process alive.
    timer.unref();
  });
  return () => {
    clearTimeout(timer);
    timer = undefined;
    unsubscribe();
  };
}
