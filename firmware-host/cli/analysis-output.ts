/**
 * How the `analyze` verbs print: JSON, percentages, aligned tables. Its own
 * module so every game's analyses share it without importing one another.
 */
export function seconds(start: number): number {
  return Math.round(performance.now() - start) / 1000;
}

export function print(json: unknown): void {
  process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
}

export function percent(value: number, digits = 4): string {
  return `${(value * 100).toFixed(digits)} %`;
}

/** The first `leftColumns` columns left-aligned, the rest right-aligned. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  leftColumns = 1,
): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) =>
    Math.max(...all.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]): string =>
    row
      .map((cell, column) =>
        column < leftColumns ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!),
      )
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)]
    .map((row) => `${row}\n`)
    .join('');
}
