/** `tableside roads`, run as a child process the way a supervisor runs it. */
import { describe, expect, it } from 'vitest';
import { computeRoads, parseResults } from '../../../firmware-host/games/cards/baccarat/roads.ts';
import { runCliSync } from '../../helpers/cli.ts';

const cli = (...args: string[]) => runCliSync(args, { timeout: 20_000 });

describe('tableside roads prints the scoreboard of a results sequence', () => {
  it('prints exactly the documented JSON shape, the same as the library computes', () => {
    const { status, stdout, stderr } = cli('roads', '--results', 'TBBPPPBTP', '--json');
    expect(status, stderr).toBe(0);
    const json = JSON.parse(stdout);
    expect(Object.keys(json)).toEqual([
      'big_road',
      'big_eye_boy',
      'small_road',
      'cockroach_pig',
      'bead_plate',
      'next',
    ]);
    expect(json.big_road[0]).toEqual({ col: 0, row: 0, result: 'B', ties: 1 });
    expect(json.big_road.at(-2)).toEqual({ col: 2, row: 0, result: 'B', ties: 1 });
    expect(json.big_eye_boy[0]).toEqual({ col: 0, row: 0, colour: 'red' });
    expect(json.bead_plate).toHaveLength(9);
    expect(Object.keys(json.next)).toEqual(['B', 'P']);
    const roads = computeRoads(parseResults('TBBPPPBTP').map((result) => ({ result })));
    expect(json.small_road).toEqual(roads.small_road);
    expect(json.next).toEqual(roads.next);
  });

  it('draws the roads as text', () => {
    const { status, stdout } = cli('roads', '--results', 'BBPPPB');
    expect(status).toBe(0);
    expect(stdout).toContain('big road');
    expect(stdout.split('\n')).toContain('  BPB');
    expect(stdout).toContain('if banker next: big_eye_boy red, small_road red, cockroach_pig -');
  });

  it('rejects a sequence with a letter that is not a result, exit 2, naming it', () => {
    const { status, stderr, stdout } = cli('roads', '--results', 'BPQ');
    expect(status).toBe(2);
    expect(stderr).toContain('character 3 is "Q"');
    expect(stdout).toBe('');
  });
});
