/**
 * Issue 24, item 7: a full disk cut a write in the middle, after a card's
 * input line and inside its event line. The restart cut the torn line but
 * kept the input, took the shoe's resend of that card as already
 * journaled, and never wrote its event: MQTT missed that index for good
 * while `journal verify` said OK. The tear is injected at the fs layer, at
 * the same place every run (the first write past the budget that holds an
 * input and its events).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../firmware-host/journal/record.ts';
import { startDaemon } from './helpers/daemon.ts';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { fullDiskEnv } from './helpers/full-disk.ts';
import { E2eTable, publishedCards } from './helpers/table.ts';

const missing = skipReason(socatMissing());
const CARDS = 40;

const isCard = (record: JournalRecord, kind: 'input' | 'event') =>
  record.kind === kind &&
  (kind === 'input'
    ? (record.data as { t?: string }).t === 'card'
    : (record.data as { type?: string }).type === 'card');

describe.skipIf(missing !== undefined)(
  'a full disk that cuts a write between a card and its event',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('loses no event: the restart journals the resent card with its event and MQTT gets its index', async () => {
      table = await E2eTable.create('torn-unit');
      const t = table;
      const full = startDaemon(t.configFile, { env: fullDiskEnv(t.dir, 4_000, 'tear-unit') });
      t.daemon = full;
      await until(
        () =>
          t.consumer.messages.some(
            (m) => m.topic.endsWith('/bridge/state') && m.payload === 'online',
          ),
        'the daemon online',
        30_000,
        () => full.describe(),
      );
      const shoe = t.startShoe({
        seed: 2424,
        rate: 20,
        steps: `  - shuffle\n  - lid: closed\n  - deal: ${CARDS}\n`,
      });
      expect((await full.exited).code, full.describe()).toBe(1);
      t.daemon = undefined;

      // Space freed: the next run recovers from the journal; the shoe resends what was not ACKed.
      await t.startDaemon();
      await shoe.whenDone();
      const dealt = t.dealtCards();
      expect(dealt).toHaveLength(CARDS);
      await until(
        () => t.consumer.ofType('card').length >= dealt.length,
        `${dealt.length} card events`,
        30_000,
        () => t.describe(),
      );
      const cards = publishedCards(t.consumer);
      expect(cards.map((card) => card.index)).toEqual(dealt.map((_, position) => position));

      await t.killDaemon('SIGTERM');
      const records = await t.journal();
      // The tear really happened where it should: the input and its cut event were removed.
      const recovered = records.filter(
        (record) => record.kind === 'meta' && record.data.type === 'recovered',
      );
      expect(recovered).toEqual([
        expect.objectContaining({
          data: expect.objectContaining({ reason: expect.stringMatching(/states 1 event/) }),
        }),
      ]);
      const inputs = records.filter((record) => isCard(record, 'input'));
      const events = records.filter((record) => isCard(record, 'event'));
      expect(inputs).toHaveLength(CARDS);
      expect(events).toHaveLength(CARDS);
      const verified = await t.verifyJournal();
      expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    }, 120_000);
  },
);
