/**
 * Issue 34, item 11: `tableside config check` printed the schema library's
 * wording ("Too big: expected number to be <=65535", "expected number,
 * received string") beside the project's own sentences. Every message now
 * says, after the setting's path, what was wrong and what is allowed.
 */
import { describe, expect, it } from 'vitest';
import { isConfigError, resolveConfig } from '../../../firmware-host/config/index.ts';

function problems(raw: unknown): string[] {
  try {
    resolveConfig(raw);
  } catch (error) {
    if (isConfigError(error)) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('tableside config check says in its own words what is wrong and what is allowed', () => {
  it.each([
    [{ mqtt: { port: 70000 } }, 'mqtt.port: 70000 is too large: expected at most 65535'],
    [{ mqtt: { port: 0 } }, 'mqtt.port: 0 is too small: expected at least 1'],
    [{ mqtt: { port: '1883' } }, 'mqtt.port: expected a number, got "1883"'],
    [{ mqtt: { port: 18.83 } }, 'mqtt.port: expected a whole number, got 18.83'],
    [
      { simulation: { cardIntervalMs: -5 } },
      'simulation.cardIntervalMs: -5 is too small: expected at least 0',
    ],
    [{ session: { autoRound: 'yes' } }, 'session.autoRound: expected true or false, got "yes"'],
    [{ devices: ['shoe'] }, 'devices: expected a mapping of names to settings, got a list'],
    [
      { devices: { shoe: { kind: 'toaster', transport: 'simulate' } } },
      'devices.shoe.kind: expected one of "shoe", "shuffler", "reader", "wheel", got "toaster"',
    ],
  ])('%j: %s', (raw, message) => {
    expect(problems(raw)).toEqual([message]);
  });

  it('never words a problem as the schema library does', () => {
    const all = [
      { mqtt: { port: 70000, keepaliveSeconds: 'x' } },
      { web: { port: -1 } },
      { journal: { dir: 5 } },
      { devices: { shoe: { kind: 'shoe', transport: 5 } } },
    ].flatMap(problems);
    expect(all.length).toBeGreaterThanOrEqual(4);
    for (const line of all) {
      expect(line).not.toMatch(/Too big|Too small|Invalid input|Invalid option|received|<=|>=/);
    }
  });
});
