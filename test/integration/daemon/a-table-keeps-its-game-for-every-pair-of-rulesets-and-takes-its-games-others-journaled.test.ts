/**
 * Issue 35 item 4: a table keeps its game, loudly. For every ordered pair of
 * the shipped rulesets, a journal folder made by a table of the first is
 * started with a config naming the second: another game's ruleset (between
 * plug-ins, or between the card games: baccarat, blackjack, the poker
 * games) is refused at start naming both and the folder, and writes
 * nothing; another ruleset of the same game is taken between shoes,
 * journaled (src `config`) and announced, never ignored. `set_ruleset`
 * follows the same rule.
 */

import { EventEmitter } from 'node:events';
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../../../firmware-host/config/loader.ts';
import type { DaemonBus } from '../../../firmware-host/daemon/bus.ts';
import { TableCore } from '../../../firmware-host/daemon/table-core.ts';
import {
  allRulesetNames,
  rulesetChangeRefusal,
  rulesetIdentity,
} from '../../../firmware-host/games/registry.ts';
import { logger } from '../../../firmware-host/log.ts';
import { tempDir } from '../../helpers/temp.ts';

function coreFor(dir: string, ruleset: string): { core: TableCore; notices: string[] } {
  const { config } = resolveConfig({ table: 't', ruleset, journal: { dir } }, { env: {} });
  const bus: DaemonBus = new EventEmitter();
  const notices: string[] = [];
  bus.on('notice', (_level, message) => notices.push(message));
  let now = Date.UTC(2026, 0, 5, 12);
  const core = new TableCore({ config, clock: () => now++, log: logger('test'), bus });
  return { core, notices };
}

function folderBytes(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

function records(dir: string): Array<{ kind: string; data: Record<string, unknown> }> {
  return Object.values(folderBytes(dir)).flatMap((text) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line)),
  );
}

const RULESETS = allRulesetNames();

describe('a table keeps its game', () => {
  it('ships the 13 rulesets the pairs are made of', () => {
    expect(RULESETS).toHaveLength(13);
  });

  it('at start, for every ordered pair of rulesets: another game is refused, another ruleset of its game is taken and journaled', async () => {
    const made = new Map<string, string>();
    for (const from of RULESETS) {
      const dir = tempDir(`tableside-keeps-game-${from}-`);
      const { core } = coreFor(dir, from);
      await core.open(undefined, () => undefined);
      await core.close();
      made.set(from, dir);
    }
    const outcomes: string[] = [];
    for (const from of RULESETS) {
      for (const to of RULESETS) {
        if (from === to) continue;
        const dir = tempDir(`tableside-keeps-game-${from}-to-${to}-`);
        cpSync(made.get(from)!, dir, { recursive: true });
        const before = folderBytes(dir);
        const { core, notices } = coreFor(dir, to);
        const sameGame = rulesetIdentity(from).game === rulesetIdentity(to).game;
        const opened = await core
          .open(undefined, () => undefined)
          .then(
            () => undefined,
            (error: Error & { code?: string }) => error,
          );
        if (!sameGame) {
          expect(opened?.code, `${from} → ${to}`).toBe('other_game');
          expect(opened?.message).toContain(`the journal folder ${dir} holds a`);
          expect(opened?.message).toContain(`playing ${from}`);
          expect(opened?.message).toContain(`the config names ${to}`);
          expect(opened?.message).toContain('new journal folder (journal.dir)');
          expect(folderBytes(dir), `${from} → ${to} wrote nothing`).toEqual(before);
          outcomes.push(`${from} → ${to}: refused`);
          continue;
        }
        expect(opened, `${from} → ${to}`).toBeUndefined();
        expect(core.ruleset).toBe(to);
        await core.close();
        expect(
          records(dir).filter((record) => record.data.type === 'ruleset'),
          `${from} → ${to}`,
        ).toEqual([
          expect.objectContaining({
            kind: 'meta',
            data: { type: 'ruleset', ruleset: to, previous: from, src: 'config' },
          }),
        ]);
        expect(notices).toContain(`ruleset: ${from} → ${to} (the config's), journaled`);
        outcomes.push(`${from} → ${to}: taken`);
      }
    }
    // 156 ordered pairs; taken only within punto-banco (3 rulesets), blackjack (2) and roulette (2).
    expect(outcomes.filter((outcome) => outcome.endsWith('taken'))).toHaveLength(6 + 2 + 2);
    expect(outcomes).toHaveLength(13 * 12);
  });

  it("takes the config's ruleset of its game at the next game when one is in play at start, journaled before its first record", async () => {
    const dir = tempDir('tableside-keeps-game-mid-game-');
    const first = coreFor(dir, 'tdc-roulette');
    await first.core.open(undefined, () => undefined);
    await first.core.ingest({ t: 'no_more_bets', src: 'test' });
    expect(first.core.session.mayChangeRuleset()).toBe(false);
    await first.core.close();

    const { core, notices } = coreFor(dir, 'bulgaria-roulette');
    await core.open(undefined, () => undefined);
    // The game in play ends under the ruleset it began with, and the table says what comes.
    expect(core.ruleset).toBe('tdc-roulette');
    expect(notices).toContainEqual(
      expect.stringContaining(
        'ruleset: the config names bulgaria-roulette; this table plays tdc-roulette until it may change',
      ),
    );
    expect(records(dir).filter((record) => record.data.type === 'ruleset')).toEqual([]);
    await core.ingest({ t: 'no_spin', reason: 'the ball left the wheel', src: 'test' });
    expect(core.ruleset).toBe('tdc-roulette');
    // The next game's first record is journaled after the change.
    await core.ingest({ t: 'no_more_bets', src: 'test' });
    expect(core.ruleset).toBe('bulgaria-roulette');
    await core.close();
    const kinds = records(dir)
      .filter((record) => record.kind === 'input' || record.data.type === 'ruleset')
      .map((record) => String(record.data.t ?? `${record.data.type}:${record.data.ruleset}`));
    expect(kinds).toEqual(['no_more_bets', 'no_spin', 'ruleset:bulgaria-roulette', 'no_more_bets']);
    expect(notices).toContain(
      "ruleset: tdc-roulette → bulgaria-roulette (the config's), journaled",
    );
    // A restart replays it so: the table plays bulgaria-roulette, with no change left to make.
    const again = coreFor(dir, 'bulgaria-roulette');
    await again.core.open(undefined, () => undefined);
    expect(again.core.ruleset).toBe('bulgaria-roulette');
    await again.core.close();
  });

  it('set_ruleset refuses by the same rule as the start', () => {
    for (const from of RULESETS) {
      for (const to of RULESETS) {
        const sameGame = rulesetIdentity(from).game === rulesetIdentity(to).game;
        expect(rulesetChangeRefusal(from, to) === undefined, `${from} → ${to}`).toBe(sameGame);
      }
    }
  });
});
