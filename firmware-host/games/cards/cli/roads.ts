import type { Command } from 'commander';
import type { Roads } from '../baccarat/roads.ts';

interface RoadsOptions {
  results: string;
  json?: boolean;
}

/** The CLI's JSON: exactly the roads and the next indicators, in the documented order. */
export function roadsJson(
  roads: Roads,
): Pick<
  Roads,
  'big_road' | 'big_eye_boy' | 'small_road' | 'cockroach_pig' | 'bead_plate' | 'next'
> {
  return {
    big_road: roads.big_road,
    big_eye_boy: roads.big_eye_boy,
    small_road: roads.small_road,
    cockroach_pig: roads.cockroach_pig,
    bead_plate: roads.bead_plate,
    next: roads.next,
  };
}

/** A road as six text rows: one character per cell, `.` for an empty one. */
function grid(
  cells: ReadonlyArray<{ col: number; row: number }>,
  mark: (index: number) => string,
): string {
  if (cells.length === 0) return '  (not started)';
  const width = Math.max(...cells.map((cell) => cell.col + 1));
  const rows = Array.from({ length: 6 }, () => Array.from({ length: width }, () => '.'));
  for (const [index, cell] of cells.entries()) rows[cell.row]![cell.col] = mark(index);
  return rows.map((row) => `  ${row.join('')}`).join('\n');
}

export function roadsText(roads: Roads): string {
  const colour = (c: string) => (c === 'red' ? 'R' : 'b');
  const next = (side: 'B' | 'P') =>
    Object.entries(roads.next[side])
      .map(([name, value]) => `${name} ${value ?? '-'}`)
      .join(', ');
  const { counts } = roads;
  return [
    `coups ${counts.coups}: banker ${counts.B}, player ${counts.P}, tie ${counts.T}`,
    'bead plate:',
    grid(roads.bead_plate, (i) => roads.bead_plate[i]!.result),
    'big road (lower case: ties counted on the cell):',
    grid(roads.big_road, (i) => {
      const cell = roads.big_road[i]!;
      return cell.ties > 0 ? cell.result.toLowerCase() : cell.result;
    }),
    'big eye boy (R red, b blue):',
    grid(roads.big_eye_boy, (i) => colour(roads.big_eye_boy[i]!.colour)),
    'small road:',
    grid(roads.small_road, (i) => colour(roads.small_road[i]!.colour)),
    'cockroach pig:',
    grid(roads.cockroach_pig, (i) => colour(roads.cockroach_pig[i]!.colour)),
    `if banker next: ${next('B')}`,
    `if player next: ${next('P')}`,
  ].join('\n');
}

/**
 * `tableside roads`: the baccarat scoreboard of a sequence of results, for a
 * supervisor checking a scoreboard display and for tests. Results only, so
 * no pair dots (those need the cards; the web console has them).
 */
export function register(program: Command): void {
  program
    .command('roads')
    .description('draw the baccarat scoreboard roads of a sequence of results (B, P, T per coup)')
    .requiredOption('--results <coups>', 'one letter per coup in order: B banker, P player, T tie')
    .option('--json', 'print the roads as JSON (cells in display coordinates, six rows)')
    .action(async (options: RoadsOptions) => {
      const { computeRoads, parseResults } = await import('../baccarat/roads.ts');
      let results: ReturnType<typeof parseResults>;
      try {
        results = parseResults(options.results);
      } catch (error) {
        process.stderr.write(`tableside roads: ${(error as Error).message}\n`);
        process.exitCode = 2;
        return;
      }
      const roads = computeRoads(results.map((result) => ({ result })));
      process.stdout.write(
        options.json ? `${JSON.stringify(roadsJson(roads))}\n` : `${roadsText(roads)}\n`,
      );
    });
}
