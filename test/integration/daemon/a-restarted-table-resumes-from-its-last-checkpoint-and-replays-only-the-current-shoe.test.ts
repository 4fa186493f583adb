/**
 * Start time bounded by the current shoe, not the table's history: each
 * journal file (one per shoe) opens with a checkpoint of the session, and a
 * restarted daemon seeds its session from the newest one and replays only
 * the inputs after it. It then deals on exactly as a table that never
 * stopped; a checkpoint that does not read back falls back to an older one;
 * a journal with none replays from seq 1; no checkpoint reaches MQTT.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import type { Observation } from '../../../firmware-host/drivers/driver.ts';
import type { SessionState } from '../../../firmware-host/games/cards/table/index.ts';
import {
  dealLegalSession,
  seededRandom,
} from '../../../firmware-host/games/cards/table/legal-deal.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';
import { sessionConfig, TableSession } from '../../../firmware-host/games/table-session.ts';
import { isCheckpoint, readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { verifyJournalDir } from '../../../firmware-host/journal/verify.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { freePort } from '../../helpers/ports.ts';
import { until } from '../../helpers/until.ts';

const RULESET = 'bulgaria-punto-banco';
const SHOES = 4;

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** A legal deal of several shoes; cards come from the shoe with its frame seq, as a driver delivers them. */
function legalShoes(): TableLogRecord[] {
  const ruleset = getRuleset(RULESET);
  const { records } = dealLegalSession({
    ruleset,
    engine: createEngine(ruleset),
    random: seededRandom(42),
    shoes: SHOES,
    maxRoundsPerShoe: 5,
  });
  let dseq = 0;
  return records.map((record) =>
    record.t === 'card' ? { ...record, src: 'shoe', dseq: dseq++ } : { ...record, src: 'console' },
  );
}

const RECORDS = legalShoes();
const SHUFFLES = RECORDS.flatMap((record, i) => (record.t === 'shuffle' ? [i] : []));

async function journalDir(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'tableside-checkpoint-'));
  cleanup.push(() => rm(folder, { recursive: true, force: true }));
  // The journal in a folder of its own: the table's host key is made beside it, in this test's folder.
  return join(folder, 'journal');
}

async function startDaemon(dir: string, notices: string[] = []): Promise<TableDaemon> {
  const { config } = resolveConfig(
    {
      table: 'bench',
      ruleset: RULESET,
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir, rotateDaily: false },
    },
    { env: {} },
  );
  const daemon = new TableDaemon({ config, simulate: false });
  daemon.on('notice', (_level, message) => notices.push(message));
  await daemon.start();
  cleanup.push(() => daemon.stop());
  return daemon;
}

async function ingestAll(
  daemon: TableDaemon,
  records: readonly TableLogRecord[],
): Promise<DomainEvent[]> {
  const events: DomainEvent[] = [];
  for (const record of records) {
    const journaled = await daemon.ingest(record);
    for (const entry of journaled) if (entry.kind === 'event') events.push(entry.data);
  }
  return events;
}

/** The uninterrupted table: events per record range, and its state. */
function uninterrupted(cut: number) {
  const session = new TableSession(sessionConfig(RULESET));
  const before = RECORDS.slice(0, cut).flatMap((record) => session.apply(record));
  const state = session.state;
  const snapshot = session.snapshot();
  const after = RECORDS.slice(cut).flatMap((record) => session.apply(record));
  return { before, state, snapshot, after, final: session.state };
}

function sessionState(daemon: TableDaemon): SessionState {
  return (daemon as unknown as { core: { session: TableSession } }).core.session.state;
}

function replayedCount(notices: readonly string[]): number | undefined {
  for (const notice of notices) {
    const match = /^resumed from the journal: (\d+) inputs replayed/.exec(notice);
    if (match) return Number(match[1]);
  }
  return undefined;
}

async function journal(dir: string): Promise<JournalRecord[]> {
  const records: JournalRecord[] = [];
  for await (const record of readJournalRecords(dir)) records.push(record);
  return records;
}

describe('a restarted table', () => {
  it('deals several shoes into one file each, each file opening with a checkpoint', async () => {
    const dir = await journalDir();
    const daemon = await startDaemon(dir);
    await ingestAll(daemon, RECORDS);
    await daemon.stop();
    const files = (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();
    expect(files).toHaveLength(SHOES + 1);
    const records = await journal(dir);
    const checkpoints = records.filter(isCheckpoint);
    expect(checkpoints).toHaveLength(SHOES);
    for (const checkpoint of checkpoints) {
      // Right after the file's first record, right before the shuffle it precedes.
      const at = records.indexOf(checkpoint);
      expect(records[at - 1]?.data).toMatchObject({ type: 'file', reason: 'new shoe' });
      expect(records[at + 1]?.data).toMatchObject({ t: 'shuffle' });
      expect(checkpoint.data.ruleset).toBe(RULESET);
    }
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });

  it('replays only the inputs since the last checkpoint and deals on at the exact card', async () => {
    const dir = await journalDir();
    const lastShuffle = SHUFFLES.at(-1)!;
    const cut = lastShuffle + Math.floor((RECORDS.length - lastShuffle) / 2);
    const first = await startDaemon(dir);
    await ingestAll(first, RECORDS.slice(0, cut));
    await first.stop();

    const notices: string[] = [];
    const second = await startDaemon(dir, notices);
    expect(replayedCount(notices)).toBe(cut - lastShuffle);
    expect(notices.join('\n')).toMatch(/after the checkpoint at journal-\d{6}\.jsonl seq \d+/);
    const expected = uninterrupted(cut);
    expect(sessionState(second)).toStrictEqual(expected.state);
    expect(second.snapshot()).toStrictEqual(expected.snapshot);
    expect(await ingestAll(second, RECORDS.slice(cut))).toStrictEqual(expected.after);
    expect(sessionState(second)).toStrictEqual(expected.final);
    expect((await verifyJournalDir(dir)).ok).toBe(true);
  });

  it('recognises a retransmission of the card journaled just before the checkpoint', async () => {
    const dir = await journalDir();
    const lastShuffle = SHUFFLES.at(-1)!;
    const lastCard = RECORDS.slice(0, lastShuffle).findLast((record) => record.t === 'card')!;
    const first = await startDaemon(dir);
    await ingestAll(first, RECORDS.slice(0, lastShuffle + 1));
    await first.stop();

    const notices: string[] = [];
    const second = await startDaemon(dir, notices);
    expect(replayedCount(notices)).toBe(1);
    const before = second.lastSeq;
    let acked = false;
    const { src: _src, dseq, ts: _ts, ...record } = lastCard;
    const observation = {
      device: 'shoe',
      seq: dseq!,
      record,
      ack: () => {
        acked = true;
      },
    } as unknown as Observation;
    await (
      second as unknown as { devices: { onObservation(o: Observation): Promise<void> } }
    ).devices.onObservation(observation);
    expect(acked).toBe(true);
    expect(second.lastSeq).toBe(before);
    const expected = uninterrupted(lastShuffle + 1);
    expect(await ingestAll(second, RECORDS.slice(lastShuffle + 1))).toStrictEqual(expected.after);
  });

  it('falls back to an older checkpoint when the newest does not read back, naming it', async () => {
    const dir = await journalDir();
    const lastShuffle = SHUFFLES.at(-1)!;
    const previousShuffle = SHUFFLES.at(-2)!;
    const cut = lastShuffle + 10;
    const first = await startDaemon(dir);
    await ingestAll(first, RECORDS.slice(0, lastShuffle));
    // The build that wrote the last checkpoint had another state format.
    (first as unknown as { core: { checkpointData: () => unknown } }).core.checkpointData = () => ({
      type: 'checkpoint',
      ruleset: RULESET,
      session: { format: 999, state: {} },
      dedupe: [],
    });
    await ingestAll(first, RECORDS.slice(lastShuffle, cut));
    await first.stop();

    const notices: string[] = [];
    const second = await startDaemon(dir, notices);
    expect(notices.join('\n')).toMatch(
      /checkpoint at journal-\d{6}\.jsonl seq \d+ not used \(.*format 999.*\); trying an older one/,
    );
    expect(replayedCount(notices)).toBe(cut - previousShuffle);
    const expected = uninterrupted(cut);
    expect(sessionState(second)).toStrictEqual(expected.state);
    expect(await ingestAll(second, RECORDS.slice(cut))).toStrictEqual(expected.after);
  });

  it('replays a journal without checkpoints (an older build) from seq 1', async () => {
    const dir = await journalDir();
    const cut = SHUFFLES.at(-1)! + 7;
    const first = await startDaemon(dir);
    (first as unknown as { core: { checkpointData: () => unknown } }).core.checkpointData = () =>
      undefined;
    await ingestAll(first, RECORDS.slice(0, cut));
    await first.stop();
    expect((await journal(dir)).filter(isCheckpoint)).toEqual([]);

    const notices: string[] = [];
    const second = await startDaemon(dir, notices);
    expect(replayedCount(notices)).toBe(cut);
    expect(sessionState(second)).toStrictEqual(uninterrupted(cut).state);
  });

  it('publishes no checkpoint, nor anything of one, on MQTT', async () => {
    const dir = await journalDir();
    const daemon = await startDaemon(dir);
    const client = await connectAsync(daemon.brokerAddress, {
      clientId: `checkpoint-${process.pid}`,
    });
    cleanup.push(() => client.endAsync());
    const payloads: string[] = [];
    client.on('message', (_topic, payload) => payloads.push(payload.toString('utf8')));
    await client.subscribeAsync('#', { qos: 1 });
    await ingestAll(daemon, RECORDS);
    const checkpointSeqs = (await journal(dir)).filter(isCheckpoint).map((record) => record.seq);
    expect(checkpointSeqs.length).toBeGreaterThan(0);
    await until(
      () => daemon.health().mqtt.acknowledgedSeq >= daemon.lastSeq,
      'the broker to acknowledge the whole journal',
    );
    expect(daemon.health().mqtt.acknowledgedSeq).toBe(daemon.lastSeq);
    // Availability topics carry plain words; everything else is a JSON object.
    const published = payloads
      .filter((payload) => payload.startsWith('{'))
      .map((payload) => JSON.parse(payload) as Record<string, unknown>);
    expect(published.some((message) => message.type === 'card')).toBe(true);
    for (const message of published) {
      expect(checkpointSeqs).not.toContain(message.seq);
      expect(message.type).not.toBe('checkpoint');
    }
    // The encoded state (tagged Maps: the undealt cards' counts), the dedupe memory, an order.
    expect(payloads.join('\n')).not.toMatch(/checkpoint|"\$":|dedupe|"order"/);
  });
});
