import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import { isEngineError } from '../../../firmware-host/engine/errors.ts';
import { parseDecisions } from '../../../firmware-host/engine/round.ts';
import type { TripleShotRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { createTripleShotEngine } from '../../../firmware-host/games/cards/triple-shot/engine.ts';
import { createEngine } from '../../../firmware-host/games/engines.ts';
import {
  getRuleset,
  listRulesets,
  parseRuleset,
  rulesetNames,
} from '../../../firmware-host/games/rulesets.ts';

const SHIPPED = [
  'monaco-punto-2000',
  'bulgaria-punto-banco',
  'tdc-baccarat-no-commission',
  'bulgaria-blackjack',
  'tdc-blackjack',
  'peru-triple-shot',
];

/** Every `source` string anywhere in a ruleset, with its path. */
function sources(value: unknown, path = ''): [string, string][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => sources(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const here = path ? `${path}.${key}` : key;
    if ((key === 'source' || key.endsWith('Source')) && typeof item === 'string')
      return [[here, item]];
    if (key === 'sources' && typeof item === 'object' && item !== null) {
      return Object.entries(item).map(
        ([name, cite]) => [`${here}.${name}`, String(cite)] as [string, string],
      );
    }
    return sources(item, here);
  });
}

describe('rulesets', () => {
  it('ships the six rulesets of this issue, each valid', () => {
    for (const name of SHIPPED) expect(rulesetNames()).toContain(name);
    for (const ruleset of listRulesets()) expect(parseRuleset(ruleset)).toEqual(ruleset);
  });

  it('names the known rulesets when asked for an unknown one', () => {
    try {
      getRuleset('vegas-strip');
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('unknown_ruleset');
      expect((error as Error).message).toContain('"vegas-strip"');
      for (const name of SHIPPED) expect((error as Error).message).toContain(name);
    }
  });

  it('cites a seed article, or says it is practice, for every policy and pay table', () => {
    for (const ruleset of listRulesets()) {
      const cited = sources(ruleset);
      const paths = cited.map(([path]) => path);
      for (const required of [
        'decks.source',
        'backs.source',
        'burn.source',
        'shoeEnd.source',
        'misdeal.faceUpInShoe.source',
        'misdeal.unexposedCardInError.source',
        'misdeal.wrongCardCount.source',
        'misdeal.dealerCardExposedEarly.source',
      ]) {
        expect(paths, `${ruleset.name} ${required}`).toContain(required);
      }
      for (const [path, cite] of cited) {
        expect(cite, `${ruleset.name} ${path}`).toMatch(/^(00[0-4] |practice: )/);
      }
    }
  });

  it('rejects a ruleset with a bad field, naming the field', () => {
    const base = getRuleset('tdc-blackjack');
    expect(() => parseRuleset({ ...base, maxBoxes: 9 })).toThrow(/maxBoxes/);
    expect(() =>
      parseRuleset({ ...base, decks: { allowed: [6], default: 8, source: '004 (x)' } }),
    ).toThrow(/default deck count/);
    expect(() => parseRuleset({ ...base, sources: { deal: 'because' } })).toThrow(/citation/);
    expect(() => parseRuleset({ ...base, surplus: true })).toThrow(/surplus/);
    expect(() => parseRuleset({ ...base, game: 'roulette' })).toThrow(/game/);
  });

  it('makes the shoe-end marker and the coups after it configurable, default 1 (003 § 24 item 5)', () => {
    const bulgaria = getRuleset('bulgaria-punto-banco');
    expect(bulgaria.shoeEnd).toMatchObject({
      kind: 'last_hand_marker',
      marker: 'joker',
      cardsBehind: 7,
      coupsAfter: 1,
    });
    const { coupsAfter: _omitted, ...withoutCoups } = bulgaria.shoeEnd as Record<string, unknown>;
    const defaulted = parseRuleset({ ...bulgaria, name: 'x', shoeEnd: withoutCoups });
    expect(defaulted.shoeEnd).toMatchObject({ coupsAfter: 1 });
    const two = parseRuleset({
      ...bulgaria,
      name: 'y',
      shoeEnd: { ...bulgaria.shoeEnd, coupsAfter: 2 },
    });
    expect(two.shoeEnd).toMatchObject({ coupsAfter: 2 });
  });

  it('creates the engine of every ruleset through the registry', () => {
    for (const name of SHIPPED)
      expect(createEngine(getRuleset(name)).game).toBe(getRuleset(name).game);
  });

  it('rejects a card dealt twice in one Triple Shot round (000 § 2.c)', () => {
    const engine = createTripleShotEngine(getRuleset('peru-triple-shot') as TripleShotRuleset);
    const state = engine.deal(engine.start({ boxes: [1] }), 'KH');
    try {
      engine.deal(state, 'KH' as StandardCard);
      expect.unreachable();
    } catch (error) {
      expect(isEngineError(error) && error.code).toBe('duplicate_card');
    }
  });

  it('parses decisions SEAT:ACTION, with clear errors', () => {
    expect(parseDecisions('box1:hit b2:stand box:3:split dealer:next box4:exchange:0,3')).toEqual([
      { seat: 'box:1', action: 'hit' },
      { seat: 'box:2', action: 'stand' },
      { seat: 'box:3', action: 'split' },
      { seat: 'dealer', action: 'next' },
      { seat: 'box:4', action: 'exchange', cards: [0, 3] },
    ]);
    expect(() => parseDecisions('box1:jump')).toThrow(/unknown action "jump"/);
    expect(() => parseDecisions('hit')).toThrow(/SEAT:ACTION/);
    expect(() => parseDecisions('box0:hit')).toThrow(/from 1/);
  });
});
