/**
 * How the `analyze` verbs print: JSON, percentages, aligned tables, progress
 * bars on a terminal. Its own module so every game's analyses share it
 * without importing one another.
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

/** A bar of hands counted, on a terminal only. */
export async function progressBar(
  total: number,
): Promise<{ update: (done: number) => void; stop: () => void }> {
  // Not a terminal (a pipe, a log file): no progress line to draw or erase.
  if (process.stderr.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: 'hands {bar} {percentage}% | {value}/{total} | eta {eta}s',
      fps: 5,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return { update: (done) => bar.update(done), stop: () => bar.stop() };
}

/** A bar per stage (a label in front), on a terminal only. */
export async function stagedProgressBar(): Promise<{
  update: (stage: string, done: number, total: number) => void;
  stop: () => void;
}> {
  // Not a terminal (a pipe, a log file): no progress line to draw or erase.
  if (process.stderr.isTTY !== true) return { update: () => undefined, stop: () => undefined };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    { stream: process.stderr, format: '{stage} {bar} {percentage}% | eta {eta}s', fps: 5 },
    Presets.shades_classic,
  );
  let current = '';
  return {
    update: (stage, done, total) => {
      if (stage !== current) {
        if (current !== '') bar.stop();
        current = stage;
        bar.start(total, done, { stage });
      } else bar.update(done);
    },
    stop: () => {
      if (current !== '') bar.stop();
    },
  };
}
