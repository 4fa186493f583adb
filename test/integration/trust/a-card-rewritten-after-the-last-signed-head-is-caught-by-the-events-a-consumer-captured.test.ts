/**
 * Issue 24, items 4 and 5: after a power cut, records followed the last
 * signed head; an insider changed a card among them and recomputed the
 * chain, and `verify --key` said OK (the head the daemon signs at the next
 * start then covers the change). Now `verify --key` names the records after
 * the last head as not proven, and `verify --events` checks them against
 * the events the casino already holds: a consumer's capture in the format
 * of `mosquitto_sub -v -t 'tableside/+/events/#'` (`<topic> <payload>` per
 * line; written here by an MQTT.js subscriber, mosquitto-clients being
 * optional).
 */
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import {
  decodeLine,
  encodeRecord,
  hashLine,
  type JournalRecord,
} from '../../../firmware-host/journal/record.ts';
import { readJournalFiles } from '../../../firmware-host/journal/verify.ts';
import { runCliSync } from '../../helpers/cli.ts';
import { freePort } from '../../helpers/ports.ts';
import { BASE, Cleanup, Client, startTable, tempDir, waitFor } from './support.ts';

const cleanup = new Cleanup();
afterEach(() => cleanup.run());

const cli = (args: string[]) =>
  runCliSync(args, { env: { TABLESIDE_LOG_LEVEL: 'warn' }, timeout: 60_000 });

/** The insider's tool: change records in place and recompute every prev (no head follows them). */
async function rewrite(dir: string, change: (record: JournalRecord) => void) {
  let prev: string | undefined;
  for (const file of await readJournalFiles(dir)) {
    const out: string[] = [];
    for (const line of file.bytes.toString().split('\n').filter(Boolean)) {
      const decoded = decodeLine(line);
      if (!decoded.ok) throw new Error('damaged test journal');
      const record = decoded.record;
      change(record);
      if (prev !== undefined) record.prev = prev;
      const text = encodeRecord(record);
      prev = hashLine(text);
      out.push(text);
    }
    await writeFile(join(dir, file.name), `${out.join('\n')}\n`);
  }
}

describe('a card rewritten after the last signed head', () => {
  it('is named as not proven by verify --key, and caught by verify --events with the published events', async () => {
    const dir = tempDir(cleanup);
    const keyPath = join(dir, 'keys', 'table.pem');
    await mkdir(join(dir, 'keys'), { mode: 0o700 });
    const generated = cli(['key', 'generate', '--out', keyPath]);
    expect(generated.status, generated.stderr).toBe(0);
    const publicKey = /public key:\s+(ed25519:\S+)/.exec(generated.stdout)![1]!;

    const journalDir = join(dir, 'journal');
    const port = await freePort();
    // A long interval: no head comes between the first card and the power cut.
    const daemon = await startTable(cleanup, {
      table: 't1',
      mqtt: { url: 'embedded', port },
      journal: {
        dir: journalDir,
        rotateDaily: false,
        signingKey: keyPath,
        sealIntervalSeconds: 600,
      },
    });
    const capture = await Client.connect(
      cleanup,
      `mqtt://127.0.0.1:${port}`,
      {},
      `${BASE}/+/events/#`,
    );
    const ruleset = getRuleset('bulgaria-punto-banco');
    const { records } = dealLegalSession({
      ruleset,
      engine: createEngine(ruleset),
      random: seededRandom(11),
      shoes: 1,
      maxRoundsPerShoe: 3,
    });
    for (const { ts: _ts, ...record } of records)
      await daemon.ingest({ ...record, src: 'console' });

    // The power cut: the journal as it is now, before the stop would seal it.
    const cut = join(dir, 'after-power-cut');
    await cp(journalDir, cut, { recursive: true });
    const journaled = (await readJournalFiles(cut))
      .flatMap((file) => file.bytes.toString().split('\n').filter(Boolean))
      .map((line) => (decodeLine(line) as { ok: true; record: JournalRecord }).record);
    const events = journaled.filter((record) => record.kind === 'event');
    await waitFor(() => capture.messages.length >= events.length, 'every event published');
    const captureFile = join(dir, 'events.txt');
    await writeFile(captureFile, capture.messages.map((m) => `${m.topic} ${m.text}\n`).join(''));

    const lastHead = journaled.filter((r) => r.kind === 'meta' && r.data.type === 'head').at(-1)!;
    const lastCard = journaled.findLast(
      (record) => record.kind === 'event' && (record.data as { type?: string }).type === 'card',
    )!;
    expect(lastCard.seq).toBeGreaterThan(lastHead.seq);
    const original = (lastCard.data as { card: string }).card;
    const forged = original === 'KS' ? 'QS' : 'KS';
    await rewrite(cut, (record) => {
      const data = record.data as { card?: string };
      // The card's input and its event, as an insider would change both.
      if (
        record.seq === lastCard.seq ||
        (record.kind === 'input' && record.seq === lastCard.seq - 1)
      ) {
        if (data.card === original) data.card = forged;
      }
    });

    const keyOnly = cli(['journal', 'verify', cut, '--key', publicKey]);
    expect(keyOnly.status, keyOnly.stdout + keyOnly.stderr).toBe(0);
    const lastSeq = journaled.at(-1)!.seq;
    expect(keyOnly.stdout).toContain(
      `not proven: seq ${lastHead.seq + 1}..${lastSeq} after the last signed head`,
    );

    const withEvents = cli(['journal', 'verify', cut, '--key', publicKey, '--events', captureFile]);
    expect(withEvents.status, withEvents.stdout + withEvents.stderr).toBe(1);
    expect(withEvents.stdout).toMatch(/^BROKEN: /);
    expect(withEvents.stdout).toMatch(
      new RegExp(
        `published_differs +seq ${lastCard.seq} .*card: published "${original}", journal "${forged}"`,
      ),
    );
    // Without the key too: the capture alone decides.
    const plain = cli(['journal', 'verify', cut, '--events', captureFile, '--json']);
    expect(plain.status).toBe(1);
    expect(JSON.parse(plain.stdout).events.findings).toEqual([
      expect.objectContaining({ problem: 'differs', seq: lastCard.seq }),
    ]);
    // The journal the daemon kept agrees with everything it published.
    const intact = cli(['journal', 'verify', journalDir, '--events', captureFile]);
    expect(intact.status, intact.stdout + intact.stderr).toBe(0);
  });
});
