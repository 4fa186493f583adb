/**
 * The scoreboard roads against sequences worked out by hand on squared
 * paper (the comments show the working), plus the properties every
 * scoreboard has.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type CoupResult,
  computeRoads,
  coupFromOutcome,
  parseResults,
  placeRuns,
} from '../../../firmware-host/games/cards/baccarat/roads.ts';

const roadsOf = (text: string) => computeRoads(parseResults(text).map((result) => ({ result })));
const cells = (road: ReadonlyArray<{ col: number; row: number }>) =>
  road.map((cell) => `${cell.col},${cell.row}`);
const colours = (road: ReadonlyArray<{ col: number; row: number; colour: string }>) =>
  road.map((cell) => `${cell.col},${cell.row}${cell.colour === 'red' ? 'R' : 'b'}`);

describe('parseResults', () => {
  it('reads B, P, T in either case and ignores spaces and commas', () => {
    expect(parseResults('b P, t')).toEqual(['B', 'P', 'T']);
  });
  it('names the first character that is not a result', () => {
    expect(() => parseResults('BPX')).toThrow(/character 3 is "X"/);
  });
});

describe('bead plate', () => {
  it('fills each column top to bottom with every coup, ties included, six rows', () => {
    const roads = roadsOf('BPTBBPP');
    expect(roads.bead_plate.map((c) => `${c.col},${c.row}${c.result}`)).toEqual([
      '0,0B',
      '0,1P',
      '0,2T',
      '0,3B',
      '0,4B',
      '0,5P',
      '1,0P',
    ]);
  });
  it('carries the pair dots of full coups', () => {
    const roads = computeRoads([
      { result: 'B', bankerPair: true },
      { result: 'T', playerPair: true },
    ]);
    expect(roads.bead_plate).toEqual([
      { col: 0, row: 0, result: 'B', banker_pair: true },
      { col: 0, row: 1, result: 'T', player_pair: true },
    ]);
    expect(roads.big_road[0]).toMatchObject({ banker_pair: true, ties: 1 });
    expect(roads.counts).toMatchObject({ banker_pairs: 1, player_pairs: 1, T: 1 });
  });
});

describe('big road', () => {
  it('draws a run down a column, a new winner in the next column, ties as a count on the last cell', () => {
    // T B T T P B: the opening tie goes on the first cell, the two ties after it too.
    const roads = roadsOf('TBTTPB');
    expect(roads.big_road).toEqual([
      { col: 0, row: 0, result: 'B', ties: 3 },
      { col: 1, row: 0, result: 'P', ties: 0 },
      { col: 2, row: 0, result: 'B', ties: 0 },
    ]);
  });

  it('turns a run longer than six rows to the right (the dragon tail)', () => {
    expect(cells(roadsOf('BBBBBBBB').big_road)).toEqual([
      '0,0',
      '0,1',
      '0,2',
      '0,3',
      '0,4',
      '0,5',
      '1,5',
      '2,5',
    ]);
  });

  it('turns a run right where it meets an earlier tail', () => {
    // 8 B: column 0 then the tail along row 5 to column 2. 7 P: down column 1
    // to row 4 (row 5 is the tail), then right along row 4.
    const roads = roadsOf('BBBBBBBBPPPPPPP');
    expect(cells(roads.big_road.slice(8))).toEqual([
      '1,0',
      '1,1',
      '1,2',
      '1,3',
      '1,4',
      '2,4',
      '3,4',
    ]);
  });

  it('starts a run to the right of a tail that took row 0', () => {
    // A run whose tail runs along row 0 (meeting row 1 taken) takes the next columns' first cells.
    const placed = placeRuns([[1, 1, 1, 1, 1, 1, 1], [2, 2], [3]]);
    // run 1: 0,0..0,5 then 1,5; run 2: 1,0 1,1; run 3: 2,0.
    expect(placed.map((p) => `${p.col},${p.row}`)).toEqual([
      '0,0',
      '0,1',
      '0,2',
      '0,3',
      '0,4',
      '0,5',
      '1,5',
      '1,0',
      '1,1',
      '2,0',
    ]);
  });
});

describe('derived roads', () => {
  it('BBPPPB: big eye boy red, blue, blue; small road and cockroach pig not started', () => {
    // Columns 2,3,1. P(1,1): column 0 has row 1 → red. P(1,2): column 0 ends at
    // row 1 → blue. B(2,0): columns 1 and 0 are 3 and 2 long → blue.
    const roads = roadsOf('BBPPPB');
    expect(colours(roads.big_eye_boy)).toEqual(['0,0R', '1,0b', '1,1b']);
    expect(roads.small_road).toEqual([]);
    expect(roads.cockroach_pig).toEqual([]);
    // If B: (2,1) vs column 1 (3 long) → red; small road (2,1) vs column 0 (2 long) → red.
    // If P: (3,0): columns 2 and 1 (1 vs 3) → blue; columns 2 and 0 (1 vs 2) → blue.
    expect(roads.next).toEqual({
      B: { big_eye_boy: 'red', small_road: 'red', cockroach_pig: null },
      P: { big_eye_boy: 'blue', small_road: 'blue', cockroach_pig: null },
    });
  });

  it('BPBPPBBBP with ties between: all three roads and the next indicators', () => {
    // Columns 1,1,1,2,3,1 (ties draw nothing on the derived roads).
    // Big eye boy from (2,0): R R b b R b b. Small road from (3,0): R b b b R b.
    // Cockroach pig from (3,1): b b b R b.
    const roads = roadsOf('BPTBPPTBBBTP');
    expect(colours(roads.big_eye_boy)).toEqual([
      '0,0R',
      '0,1R',
      '1,0b',
      '1,1b',
      '2,0R',
      '3,0b',
      '3,1b',
    ]);
    expect(colours(roads.small_road)).toEqual(['0,0R', '1,0b', '1,1b', '1,2b', '2,0R', '3,0b']);
    expect(colours(roads.cockroach_pig)).toEqual(['0,0b', '0,1b', '0,2b', '1,0R', '2,0b']);
    expect(roads.next).toEqual({
      // The last column is P (one long). If P: (5,1) against columns 4, 3, 2 (3, 2, 1 long)
      // → red, red, blue. If B: (6,0), column 5 (1 long) against 4, 3, 2 → blue, blue, red.
      B: { big_eye_boy: 'blue', small_road: 'blue', cockroach_pig: 'red' },
      P: { big_eye_boy: 'red', small_road: 'red', cockroach_pig: 'blue' },
    });
    expect(roads.counts).toMatchObject({ coups: 12, B: 5, P: 4, T: 3 });
  });

  it('gives a derived road a dragon tail too', () => {
    // Alternating BPBP...: every column is one long, so every big-eye-boy cell is red.
    const roads = roadsOf('BPBPBPBPBP');
    expect(colours(roads.big_eye_boy)).toEqual([
      '0,0R',
      '0,1R',
      '0,2R',
      '0,3R',
      '0,4R',
      '0,5R',
      '1,5R',
      '2,5R',
    ]);
  });
});

const results = fc.array(fc.constantFrom<CoupResult>('B', 'P', 'T'), { maxLength: 90 });

describe('properties', () => {
  it('the what-if colours for Banker and Player are opposite in every started road', () => {
    fc.assert(
      fc.property(results, (seq) => {
        const { next } = computeRoads(seq.map((result) => ({ result })));
        for (const road of ['big_eye_boy', 'small_road', 'cockroach_pig'] as const) {
          expect(next.B[road] === null).toBe(next.P[road] === null);
          if (next.B[road] !== null) expect(next.B[road]).not.toBe(next.P[road]);
        }
      }),
    );
  });

  it('what-if B is the colour the road gets when B comes', () => {
    fc.assert(
      fc.property(results, fc.constantFrom<'B' | 'P'>('B', 'P'), (seq, next) => {
        const before = computeRoads(seq.map((result) => ({ result })));
        const after = computeRoads([...seq, next].map((result) => ({ result })));
        for (const road of ['big_eye_boy', 'small_road', 'cockroach_pig'] as const) {
          const predicted = before.next[next][road];
          if (predicted === null) expect(after[road].length).toBe(before[road].length);
          else {
            expect(after[road].length).toBe(before[road].length + 1);
            expect(after[road].at(-1)!.colour).toBe(predicted);
          }
        }
      }),
    );
  });

  it('every cell is on one of six rows, no two cells share a place, and ties are all counted', () => {
    fc.assert(
      fc.property(results, (seq) => {
        const roads = computeRoads(seq.map((result) => ({ result })));
        for (const road of [
          roads.bead_plate,
          roads.big_road,
          roads.big_eye_boy,
          roads.small_road,
          roads.cockroach_pig,
        ]) {
          const places = cells(road);
          expect(new Set(places).size).toBe(places.length);
          for (const cell of road) expect([0, 1, 2, 3, 4, 5]).toContain(cell.row);
        }
        const ties = roads.big_road.reduce((sum, cell) => sum + cell.ties, 0);
        const bigRoadCoups = seq.filter((r) => r !== 'T').length;
        expect(roads.big_road.length).toBe(bigRoadCoups);
        if (bigRoadCoups > 0) expect(ties).toBe(seq.length - bigRoadCoups);
      }),
    );
  });
});

describe('coupFromOutcome', () => {
  it('reads a Punto Banco outcome with its pairs and ignores other games', () => {
    expect(
      coupFromOutcome({
        game: 'punto-banco',
        winner: 'tie',
        player: { pair: true, natural: false },
        banker: { pair: false, natural: true },
      }),
    ).toEqual({ result: 'T', playerPair: true, bankerPair: false, natural: true });
    expect(coupFromOutcome({ game: 'blackjack' })).toBeUndefined();
  });
});
