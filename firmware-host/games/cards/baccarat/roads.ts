/**
 * The baccarat scoreboard roads, pure: the bead plate, the big road and its
 * three derived roads (big eye boy, small road, cockroach pig), with the
 * "what if Banker / what if Player" indicators, in display coordinates of a
 * six-row grid. The seeds regulate the game, not the scoreboard; every rule
 * here is `practice:` the convention every casino scoreboard follows.
 *
 * practice: the big road draws each run of one winner down a column; a tie
 * draws no cell but is counted on the last cell (a slash with its count);
 * ties before the first Banker or Player win are counted on the first cell.
 * A run longer than the six rows, or one that meets a cell already drawn,
 * turns right along its row (the dragon tail).
 *
 * practice: the derived roads look back at the big road's columns (runs):
 * big eye boy one column back, small road two, cockroach pig three. A new
 * column is red when the two columns before it are as long as each other
 * (the one before it and the one k+1 before it); a cell lower in a column is
 * red when column c−k has a cell at that row or has already ended one row
 * higher ("repeats or drops straight"), blue when column c−k ends exactly at
 * the row above. A road starts at the big road's cell (col k, row 1), or
 * (col k+1, row 0) when column k holds one cell.
 */

import type { Coup, CoupResult } from './coup.ts';

export { type Coup, type CoupResult, coupFromOutcome } from './coup.ts';
export type RoadColour = 'red' | 'blue';

export interface BeadCell {
  col: number;
  row: number;
  result: CoupResult;
  banker_pair?: boolean;
  player_pair?: boolean;
}

export interface BigRoadCell {
  col: number;
  row: number;
  result: 'B' | 'P';
  ties: number;
  banker_pair?: boolean;
  player_pair?: boolean;
}

export interface DerivedCell {
  col: number;
  row: number;
  colour: RoadColour;
}

export type DerivedRoadName = 'big_eye_boy' | 'small_road' | 'cockroach_pig';
export type NextIndicator = Record<DerivedRoadName, RoadColour | null>;

export interface Roads {
  bead_plate: BeadCell[];
  big_road: BigRoadCell[];
  big_eye_boy: DerivedCell[];
  small_road: DerivedCell[];
  cockroach_pig: DerivedCell[];
  next: { B: NextIndicator; P: NextIndicator };
  counts: {
    coups: number;
    B: number;
    P: number;
    T: number;
    banker_pairs: number;
    player_pairs: number;
  };
}

export const ROAD_ROWS = 6;

const DERIVED: ReadonlyArray<readonly [DerivedRoadName, number]> = [
  ['big_eye_boy', 1],
  ['small_road', 2],
  ['cockroach_pig', 3],
];

/** Parses `BPPT...` (case-insensitive; spaces and commas ignored). Throws naming the first bad character. */
export function parseResults(text: string): CoupResult[] {
  const results: CoupResult[] = [];
  for (const [index, char] of [...text].entries()) {
    if (char === ' ' || char === ',') continue;
    const upper = char.toUpperCase();
    if (upper !== 'B' && upper !== 'P' && upper !== 'T') {
      throw new RangeError(
        `results: character ${index + 1} is ${JSON.stringify(char)}; expected B (banker), P (player) or T (tie)`,
      );
    }
    results.push(upper);
  }
  return results;
}

/**
 * Places a sequence of runs (each a list of values, one per cell) on a
 * six-row grid: each run down its own column from row 0, turning right along
 * its row when it reaches the bottom or a cell already taken.
 */
export function placeRuns<T>(
  runs: readonly (readonly T[])[],
): Array<{ col: number; row: number; value: T }> {
  const taken = new Set<string>();
  const key = (col: number, row: number) => `${col},${row}`;
  const placed: Array<{ col: number; row: number; value: T }> = [];
  let startCol = -1;
  for (const run of runs) {
    startCol++;
    // A tail along row 0 may have taken this run's first cell: start further right.
    while (taken.has(key(startCol, 0))) startCol++;
    let col = startCol;
    let row = 0;
    for (const [index, value] of run.entries()) {
      if (index > 0) {
        const turned = col !== startCol;
        if (!turned && row + 1 < ROAD_ROWS && !taken.has(key(col, row + 1))) row++;
        else col++;
      }
      taken.add(key(col, row));
      placed.push({ col, row, value });
    }
  }
  return placed;
}

/** Runs of equal values, in order. */
function runsOf<T>(values: readonly T[]): T[][] {
  const runs: T[][] = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last && last[0] === value) last.push(value);
    else runs.push([value]);
  }
  return runs;
}

/** The big road's logical columns: the length of each run of B or P. */
function columnLengths(winners: readonly ('B' | 'P')[]): number[] {
  return runsOf(winners).map((run) => run.length);
}

/**
 * The colour a derived road (looking `k` columns back) gives the big-road
 * entry at logical (col, row), given the columns' lengths up to and
 * including that entry; undefined before the road starts.
 */
function derivedColour(
  lengths: readonly number[],
  col: number,
  row: number,
  k: number,
): RoadColour | undefined {
  if (col < k || (col === k && row === 0)) return undefined;
  if (row === 0) {
    return lengths[col - 1] === lengths[col - 1 - k] ? 'red' : 'blue';
  }
  return lengths[col - k] === row ? 'blue' : 'red';
}

/** Each derived road's colours, one per big-road entry from its start. */
function derivedColours(winners: readonly ('B' | 'P')[]): Record<DerivedRoadName, RoadColour[]> {
  const colours: Record<DerivedRoadName, RoadColour[]> = {
    big_eye_boy: [],
    small_road: [],
    cockroach_pig: [],
  };
  const lengths: number[] = [];
  let previous: 'B' | 'P' | undefined;
  for (const winner of winners) {
    if (winner === previous) lengths[lengths.length - 1]!++;
    else lengths.push(1);
    previous = winner;
    const col = lengths.length - 1;
    const row = lengths[col]! - 1;
    for (const [name, k] of DERIVED) {
      const colour = derivedColour(lengths, col, row, k);
      if (colour) colours[name].push(colour);
    }
  }
  return colours;
}

function nextIndicator(winners: readonly ('B' | 'P')[], next: 'B' | 'P'): NextIndicator {
  const lengths = columnLengths([...winners, next]);
  const col = lengths.length - 1;
  const row = lengths[col]! - 1;
  return {
    big_eye_boy: derivedColour(lengths, col, row, 1) ?? null,
    small_road: derivedColour(lengths, col, row, 2) ?? null,
    cockroach_pig: derivedColour(lengths, col, row, 3) ?? null,
  };
}

export function computeRoads(coups: readonly Coup[]): Roads {
  const bead_plate: BeadCell[] = coups.map((coup, index) => ({
    col: Math.floor(index / ROAD_ROWS),
    row: index % ROAD_ROWS,
    result: coup.result,
    ...(coup.bankerPair ? { banker_pair: true } : {}),
    ...(coup.playerPair ? { player_pair: true } : {}),
  }));

  // The big road's entries: B/P coups, with the ties that followed each.
  const entries: Array<{ result: 'B' | 'P'; ties: number; coup: Coup }> = [];
  let leadingTies = 0;
  for (const coup of coups) {
    if (coup.result === 'T') {
      const last = entries.at(-1);
      if (last) last.ties++;
      else leadingTies++;
      continue;
    }
    entries.push({ result: coup.result, ties: entries.length === 0 ? leadingTies : 0, coup });
  }
  const winners = entries.map((entry) => entry.result);
  const runs: (typeof entries)[] = [];
  for (const entry of entries) {
    const last = runs.at(-1);
    if (last && last[0]!.result === entry.result) last.push(entry);
    else runs.push([entry]);
  }
  const big_road = placeRuns(runs).map(({ col, row, value }) => ({
    col,
    row,
    result: value.result,
    ties: value.ties,
    ...(value.coup.bankerPair ? { banker_pair: true } : {}),
    ...(value.coup.playerPair ? { player_pair: true } : {}),
  }));

  const colours = derivedColours(winners);
  const derived = (name: DerivedRoadName): DerivedCell[] =>
    placeRuns(runsOf(colours[name])).map(({ col, row, value }) => ({ col, row, colour: value }));

  const count = (result: CoupResult) => coups.filter((coup) => coup.result === result).length;
  return {
    bead_plate,
    big_road,
    big_eye_boy: derived('big_eye_boy'),
    small_road: derived('small_road'),
    cockroach_pig: derived('cockroach_pig'),
    next: { B: nextIndicator(winners, 'B'), P: nextIndicator(winners, 'P') },
    counts: {
      coups: coups.length,
      B: count('B'),
      P: count('P'),
      T: count('T'),
      banker_pairs: coups.filter((coup) => coup.bankerPair).length,
      player_pairs: coups.filter((coup) => coup.playerPair).length,
    },
  };
}
