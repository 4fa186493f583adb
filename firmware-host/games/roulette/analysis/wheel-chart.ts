/**
 * The wheel-bias report drawn for a surveillance officer: the spins per
 * number in wheel order (neighbours side by side, so a biased sector shows
 * as a hump), the fair expectation and its 3-sigma band, the pockets a
 * finding points at, and the split by rotor direction. As terminal text or
 * as a standalone SVG. Pure: strings out.
 */
import type { WheelReport } from './wheel-bias.ts';

export interface ChartWheel {
  /** Pockets clockwise from zero. */
  readonly order: readonly number[];
  readonly red: readonly number[];
}

const POCKETS = 37;

function expectation(report: WheelReport) {
  const mean = report.spins / POCKETS;
  const sigma = Math.sqrt(report.spins * (1 / POCKETS) * (1 - 1 / POCKETS));
  return { mean, sigma };
}

function flagged(report: WheelReport): Set<number> {
  const out = new Set<number>();
  for (const test of report.tests) if (test.alarm) for (const n of test.numbers ?? []) out.add(n);
  return out;
}

function colourLetter(wheel: ChartWheel, n: number): string {
  if (n === 0) return 'G';
  return wheel.red.includes(n) ? 'R' : 'B';
}

/** The terminal chart: one line per pocket in wheel order, bars scaled to `width` columns. */
export function wheelChartText(report: WheelReport, wheel: ChartWheel, width = 50): string {
  const { mean, sigma } = expectation(report);
  const top = Math.max(1, mean + 3 * sigma, ...report.counts);
  const scale = (value: number) => Math.round((value / top) * width);
  const marks = flagged(report);
  const lines = [
    `spins per number in wheel order (${report.spins} spins; expected ${mean.toFixed(1)}, 3-sigma band ${Math.max(0, mean - 3 * sigma).toFixed(1)}..${(mean + 3 * sigma).toFixed(1)}; | marks the expectation)`,
    `${'no'.padStart(3)} c  ${'bar'.padEnd(width)}  ${'count'.padStart(5)}  ${'sigma'.padStart(6)}  ${'cw'.padStart(5)} ${'ccw'.padStart(5)}`,
  ];
  const at = scale(mean);
  for (const n of wheel.order) {
    const count = report.counts[n] as number;
    const cells: string[] = Array.from({ length: width }, (_, i) => (i < scale(count) ? '█' : ' '));
    if (at < width && cells[at] === ' ') cells[at] = '|';
    else if (at < width) cells[at] = '▓';
    const z = sigma === 0 ? 0 : (count - mean) / sigma;
    const flag = marks.has(n) ? '  ◀ flagged' : Math.abs(z) >= 3 ? '  ! 3 sigma' : '';
    lines.push(
      `${String(n).padStart(3)} ${colourLetter(wheel, n)}  ${cells.join('')}  ${String(count).padStart(5)}  ${`${z >= 0 ? '+' : ''}${z.toFixed(1)}`.padStart(6)}  ${String(report.byRotor.cw[n]).padStart(5)} ${String(report.byRotor.ccw[n]).padStart(5)}${flag}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

function xmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A standalone SVG of the same chart, bars coloured as the pockets, flagged pockets outlined. */
export function wheelChartSvg(
  report: WheelReport,
  wheel: ChartWheel,
  title = 'Wheel bias watch',
): string {
  const { mean, sigma } = expectation(report);
  const barWidth = 22;
  const left = 50;
  const plotHeight = 300;
  const topMargin = 60;
  const width = left + POCKETS * barWidth + 20;
  const height = topMargin + plotHeight + 50 + report.tests.length * 13;
  const top = Math.max(1, mean + 3 * sigma, ...report.counts);
  const y = (value: number) => topMargin + plotHeight - (value / top) * plotHeight;
  const marks = flagged(report);
  const fill = (n: number) => (n === 0 ? '#1a7f37' : wheel.red.includes(n) ? '#c8102e' : '#222222');
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<title>${xmlText(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="20" font-size="15" font-weight="bold">${xmlText(title)}</text>`,
    `<text x="${left}" y="38">${report.spins} spins; expected ${mean.toFixed(1)} per number; shaded band: 3 sigma; ${report.alarms} alarm(s)</text>`,
    `<rect x="${left}" y="${y(mean + 3 * sigma).toFixed(1)}" width="${POCKETS * barWidth}" height="${(y(Math.max(0, mean - 3 * sigma)) - y(mean + 3 * sigma)).toFixed(1)}" fill="#fff3c4"/>`,
  ];
  wheel.order.forEach((n, i) => {
    const count = report.counts[n] as number;
    const x = left + i * barWidth;
    const outline = marks.has(n) ? ' stroke="#ff8c00" stroke-width="3"' : '';
    parts.push(
      `<rect x="${x + 2}" y="${y(count).toFixed(1)}" width="${barWidth - 4}" height="${(topMargin + plotHeight - y(count)).toFixed(1)}" fill="${fill(n)}"${outline}><title>${n}: ${count} spins (cw ${report.byRotor.cw[n]}, ccw ${report.byRotor.ccw[n]})</title></rect>`,
      `<text x="${x + barWidth / 2}" y="${topMargin + plotHeight + 14}" text-anchor="middle">${n}</text>`,
    );
  });
  parts.push(
    `<line x1="${left}" x2="${left + POCKETS * barWidth}" y1="${y(mean).toFixed(1)}" y2="${y(mean).toFixed(1)}" stroke="#0050b3" stroke-dasharray="6 3"/>`,
    `<line x1="${left}" x2="${left}" y1="${topMargin}" y2="${topMargin + plotHeight}" stroke="#000"/>`,
    `<text x="${left - 6}" y="${y(top).toFixed(1)}" text-anchor="end">${Math.round(top)}</text>`,
    `<text x="${left - 6}" y="${topMargin + plotHeight}" text-anchor="end">0</text>`,
  );
  report.tests.forEach((test, i) => {
    const status = test.ran ? (test.alarm ? 'ALARM' : 'ok') : 'not run';
    parts.push(
      `<text x="${left}" y="${topMargin + plotHeight + 34 + i * 13}" fill="${test.alarm ? '#c8102e' : '#333'}">${xmlText(`${test.test}: ${status} — ${test.detail}`)}</text>`,
    );
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
