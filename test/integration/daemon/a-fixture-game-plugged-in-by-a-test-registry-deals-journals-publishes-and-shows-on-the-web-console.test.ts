/**
 * Adding a game is its folder and a line in a registry (issue 35 item 1):
 * high card, a fixture game no shipped file names
 * (test/fixtures/games/high-card/), plugged in by a registry this test
 * builds, plays a table through the daemon: its rounds are journaled,
 * published on a real MQTT broker (the embedded one), shown on the web
 * console's Table feed and History in its own words, resumed from the
 * journal after a restart, and a table configured for another game refuses
 * its journal and never deals.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { GAME_PLUGINS, useGameRegistry } from '../../../firmware-host/games/registry.ts';
import type { TableLogRecord } from '../../../firmware-host/table/log.ts';
import { withHighCard } from '../../fixtures/games/high-card/registry.ts';
import { freePort } from '../../helpers/ports.ts';
import { tempDir } from '../../helpers/temp.ts';
import { until } from '../../helpers/until.ts';
import { BASE, Recorder } from '../mqtt/support.ts';

const TABLE = 'high-1';
const cleanup: Array<() => Promise<void>> = [];
beforeAll(() => {
  useGameRegistry(withHighCard());
});
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function daemonIn(dir: string, ruleset: string, web = false): Promise<TableDaemon> {
  const { config } = resolveConfig(
    {
      table: TABLE,
      ruleset,
      mqtt: { url: 'embedded', port: await freePort() },
      journal: { dir },
      ...(web ? { web: { host: '127.0.0.1', port: await freePort() } } : {}),
    },
    { env: {} },
  );
  return new TableDaemon({ config, simulate: false });
}

const DEAL: readonly TableLogRecord[] = [
  { t: 'shuffle', decks: 1, backs: ['green'] },
  { t: 'round' },
  { t: 'card', card: 'KS', back: 'green', face: 'up' },
  { t: 'card', card: '9H', back: 'green', face: 'up' },
  { t: 'round' },
  { t: 'card', card: '4D', back: 'green', face: 'up' },
  { t: 'card', card: '4C', back: 'green', face: 'up' },
];

function journaledEvents(dir: string): Record<string, unknown>[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean))
    .map((line) => JSON.parse(line) as { kind: string; data: Record<string, unknown> })
    .filter((record) => record.kind === 'event')
    .map((record) => record.data);
}

/** The console's live feed from the start of the journal, until `enough` of it has come. */
async function streamFrames(address: string, enough: (text: string) => boolean): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${address}/api/stream?since=0`, { signal: controller.signal });
  const reader = response.body?.getReader();
  let text = '';
  const decoder = new TextDecoder();
  while (reader && !enough(text)) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return text;
}

describe('a fixture game plugged in by a test registry', () => {
  // The journal in a folder of its own: the table's host key goes beside it, in the temporary folder.
  const dir = join(tempDir('fixture-high-card-'), 'journal');

  it('deals, journals, publishes and shows its rounds in its own words, and resumes after a restart', async () => {
    const daemon = await daemonIn(dir, 'fixture-high-card', true);
    await daemon.start();
    cleanup.push(() => daemon.stop());
    const consumer = await Recorder.connect(daemon.brokerAddress, {}, `${BASE}/${TABLE}/#`);
    cleanup.push(() => consumer.close());

    for (const record of DEAL) await daemon.ingest(record);

    // The journal: every card to its place, each round's result, no alarm.
    const journaled = journaledEvents(dir);
    expect(journaled.filter((event) => event.type === 'alarm')).toEqual([]);
    expect(
      journaled.filter((event) => event.type === 'card').map((event) => [event.card, event.to]),
    ).toEqual([
      ['KS', 'player'],
      ['9H', 'banker'],
      ['4D', 'player'],
      ['4C', 'banker'],
    ]);
    const results = journaled.filter((event) => event.type === 'result');
    expect(results.map((event) => (event.outcome as { winner: string }).winner)).toEqual([
      'player',
      'tie',
    ]);

    // MQTT: the results reach a consumer, the outcome as the game exposed it.
    await until(
      () =>
        consumer.messages.filter((message) => message.topic === `${BASE}/${TABLE}/events/hand`)
          .length >= 4,
      'the two rounds on events/hand',
    );
    const published = consumer.messages
      .filter((message) => message.topic === `${BASE}/${TABLE}/events/hand`)
      .map((message) => JSON.parse(message.text) as Record<string, unknown>)
      .filter((event) => event.type === 'result')
      .map((event) => event.outcome);
    expect(published).toEqual([
      {
        game: 'high-card',
        player: 'KS',
        banker: '9H',
        winner: 'player',
        bets: { player: 1, banker: -1 },
      },
      {
        game: 'high-card',
        player: '4D',
        banker: '4C',
        winner: 'tie',
        bets: { player: 0, banker: 0 },
      },
    ]);

    // What the game publishes besides its state, by its name alone: retained on <table>/tally.
    await until(
      () =>
        consumer.messages.some(
          (m) => m.topic === `${BASE}/${TABLE}/tally` && m.text.includes('"tie":1'),
        ),
      'the tally retained on MQTT',
    );
    const tally = consumer.messages.filter((m) => m.topic === `${BASE}/${TABLE}/tally`).at(-1);
    expect(JSON.parse(tally?.text ?? '{}')).toEqual({
      seq: expect.any(Number),
      player: 1,
      banker: 0,
      tie: 1,
    });

    // The web console: the table's view, the Table page's feed and History, in the game's words.
    const address = daemon.webAddress ?? '';
    expect(await (await fetch(`${address}/api/me`)).json()).toMatchObject({
      table: TABLE,
      ruleset: 'fixture-high-card',
      game: 'high-card',
      view: 'cards',
    });
    const frames = await streamFrames(address, (text) => text.includes('both bets push'));
    expect(frames).toContain('"words":["Player KS, banker 9H.","The player wins."]');
    expect(frames).toContain('"words":["Player 4D, banker 4C.","A tie: both bets push."]');
    // The feed's frame of the same name.
    expect(frames).toMatch(/event: tally\ndata: \{"seq":\d+,"player":1,"banker":0,"tie":1\}/);
    const day = new Date().toISOString().slice(0, 10);
    const history = (await (await fetch(`${address}/api/history?day=${day}`)).json()) as {
      rounds: { round: number; words: string[] }[];
    };
    expect(history.rounds).toEqual([
      { round: 1, words: ['Player KS, banker 9H.', 'The player wins.'] },
      { round: 2, words: ['Player 4D, banker 4C.', 'A tie: both bets push.'] },
    ]);

    // A restart resumes the table from its journal: the next round is the third.
    await daemon.stop();
    const again = await daemonIn(dir, 'fixture-high-card');
    await again.start();
    cleanup.push(() => again.stop());
    expect(again.expecting()).toMatchObject({ kind: 'round' });
    await again.ingest({ t: 'round' });
    expect(again.snapshot()).toMatchObject({ round: 3 });
    await again.stop();
  });

  it('a table configured for another game refuses the journal of a high card table and never deals', async () => {
    const shipped = GAME_PLUGINS.map((plugin) => plugin.id);
    expect(shipped).not.toContain('high-card');
    const other = await daemonIn(dir, 'tdc-baccarat-no-commission');
    const refusal = await other.start().then(
      () => undefined,
      (error: Error) => error,
    );
    cleanup.push(() => other.stop());
    expect(refusal?.message).toMatch(
      /holds a high card table playing fixture-high-card \(high-card\), but the config names tdc-baccarat-no-commission \(a card table\)/,
    );
    expect(other.isRunning).toBe(false);
  });
});
