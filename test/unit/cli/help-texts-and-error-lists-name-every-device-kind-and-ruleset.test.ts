/**
 * Issue 25, item 12: help texts and error lists omitted the wheel and the
 * roulette rulesets (hard-coded lists). They now come from the registries:
 * the simulators' device kinds plus the wheel, the card and the roulette
 * ruleset registries.
 */
import { describe, expect, it } from 'vitest';
import { rouletteRulesetNames, rulesetNames } from '../../../firmware-host/games/rulesets.ts';
import { DEVICE_KINDS } from '../../../simulators/steps.ts';
import { runCliSync } from '../../helpers/cli.ts';

const KINDS = [...DEVICE_KINDS, 'wheel'];

describe('help texts and error lists name every device kind and ruleset', () => {
  it('tableside --help and sim --help name the wheel beside the card devices', () => {
    expect(runCliSync(['--help']).stdout).toMatch(/roulette wheels/);
    const help = runCliSync(['sim', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(`(${KINDS.join(', ')})`);
    expect(help).toContain(KINDS.join(' | '));
  });

  it('an unknown simulator kind lists every kind', () => {
    const run = runCliSync(['sim', 'bogus']);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(`say which device to simulate: ${KINDS.join(', ')}`);
  });

  it('an unknown ruleset for tableside hand lists the card and the roulette rulesets', () => {
    const run = runCliSync(['hand', '--ruleset', 'nope', '--cards', 'AS']);
    expect(run.status).not.toBe(0);
    for (const name of [...rulesetNames(), ...rouletteRulesetNames()]) {
      expect(run.stderr).toContain(name);
    }
  });

  it('an unknown ruleset for a shoe lists the card rulesets and the roulette ones', () => {
    const run = runCliSync(['sim', 'shoe', '--ruleset', 'nope', '--link', '/nonexistent']);
    expect(run.status).not.toBe(0);
    for (const name of [...rulesetNames(), ...rouletteRulesetNames()]) {
      expect(run.stderr).toContain(name);
    }
    const roulette = runCliSync([
      'sim',
      'shoe',
      '--ruleset',
      rouletteRulesetNames()[0]!,
      '--link',
      '/nonexistent',
    ]);
    expect(roulette.stderr).toMatch(
      /is a roulette ruleset: a wheel spins it \(`tableside sim wheel`\)/,
    );
  });
});
