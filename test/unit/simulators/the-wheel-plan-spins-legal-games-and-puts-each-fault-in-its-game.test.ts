import { describe, expect, it } from 'vitest';
import { createRandom } from '../../../simulators/random.ts';
import {
  type Direction,
  parseWheelFault,
  planWheelGame,
  type WheelFaultName,
  type WheelGame,
} from '../../../simulators/wheel-plan.ts';

function plan(seed: number, games: number, faults: Record<number, WheelFaultName> = {}, min = 4) {
  const random = createRandom(seed).fork('wheel/games');
  const out: WheelGame[] = [];
  let lastRotor: Direction | undefined;
  for (let game = 1; game <= games; game++) {
    const fault = faults[game];
    const planned = planWheelGame({
      game,
      lastRotor,
      faults: fault ? [fault] : [],
      minRevolutions: min,
      random,
    });
    lastRotor = planned.rotor ?? lastRotor;
    out.push(planned);
  }
  return out;
}

const kinds = (game: WheelGame) => game.steps.map((step) => step.kind);

describe('the wheel plan', () => {
  it('spins legal games: rotor alternating, ball against it, betting closed, enough revolutions', () => {
    const games = plan(3, 40, {}, 7);
    for (const [i, game] of games.entries()) {
      expect(kinds(game)).toEqual(['rotor', 'ball', 'no_more_bets', 'result']);
      const [rotor, ball, , result] = game.steps as [
        { direction: Direction; rpm: number },
        { direction: Direction },
        unknown,
        { number: number; revolutions: number },
      ];
      expect(ball.direction).not.toBe(rotor.direction);
      if (i > 0) expect(rotor.direction).not.toBe(games[i - 1]!.rotor);
      expect(result.revolutions).toBeGreaterThanOrEqual(7);
      expect(result.number).toBe(game.number);
      expect(result.number).toBeGreaterThanOrEqual(0);
      expect(result.number).toBeLessThanOrEqual(36);
      expect(rotor.rpm).toBeGreaterThan(0);
    }
    expect(new Set(games.map((game) => game.number)).size).toBeGreaterThan(10);
  });

  it('plays the same games for the same seed', () => {
    expect(plan(11, 20)).toEqual(plan(11, 20));
    expect(plan(11, 20)).not.toEqual(plan(12, 20));
  });

  it('puts each fault in its own game and leaves the others legal', () => {
    const games = plan(5, 9, {
      2: 'same-direction',
      3: 'ball-with-rotor',
      4: 'few-revolutions',
      5: 'chip',
      6: 'dropped-ball',
      7: 'misread',
      8: 'no-close',
      9: 'noise',
    });
    expect(games[1]!.rotor).toBe(games[0]!.rotor);
    const rotor3 = games[2]!.steps[0] as { direction: Direction };
    expect((games[2]!.steps[1] as { direction: Direction }).direction).toBe(rotor3.direction);
    expect((games[3]!.steps.at(-1) as { revolutions: number }).revolutions).toBeLessThan(4);
    expect(kinds(games[4]!)).toEqual(['rotor', 'ball', 'no_more_bets', 'no_spin']);
    expect(games[4]!.number).toBeUndefined();
    expect(kinds(games[5]!)).toEqual(['rotor', 'no_more_bets', 'result']);
    expect(kinds(games[6]!)).toEqual(['rotor', 'ball', 'no_more_bets', 'misread', 'result']);
    expect(kinds(games[7]!)).toEqual(['rotor', 'ball', 'result']);
    expect(kinds(games[8]!)).toEqual(['rotor', 'ball', 'no_more_bets', 'noise', 'result']);
  });

  it('refuses a fault it does not know or without its game, naming them', () => {
    expect(parseWheelFault('chip=3')).toEqual({ name: 'chip', game: 3 });
    expect(() => parseWheelFault('wobble=3')).toThrow(
      /unknown wheel fault "wobble": expected one of same-direction/,
    );
    expect(() => parseWheelFault('chip')).toThrow(
      /bad argument "" for chip: expected G, the 1-based game/,
    );
    expect(() => parseWheelFault('chip=0')).toThrow(/expected G/);
  });
});
