/**
 * `journal verify --events FILE`: the consumers' capture of the published
 * events against the journal (mqtt/published-events.ts), for both verify
 * modes.
 */
import { readFile } from 'node:fs/promises';
import { decodeJournalFiles, type JournalFileBytes } from '../journal/verify.ts';
import {
  type CaptureReading,
  checkPublishedEvents,
  type PublishedReport,
  readCapture,
} from '../mqtt/published-events.ts';

export interface EventsCheck {
  report: PublishedReport;
  skipped: CaptureReading['skipped'];
  /** The report's lines for people. */
  lines: string[];
}

/** Checks the capture at `path`; a string when the file cannot be read or holds no event. */
export async function checkEventsFile(
  path: string,
  files: readonly JournalFileBytes[],
): Promise<EventsCheck | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    return `--events ${path}: ${(error as Error).message}`;
  }
  const capture = readCapture(text);
  if (capture.events.length === 0) {
    const first = capture.skipped[0];
    return `--events ${path}: no published event in it${first ? ` (line ${first.line}: ${first.reason})` : ''}; capture with mosquitto_sub -v -t '<base>/<table>/events/#'`;
  }
  const report = checkPublishedEvents(decodeJournalFiles(files), capture.events);
  const lines = [
    `published events (${path}): ${report.checked} checked, seq ${report.firstSeq}..${report.lastSeq}; ${report.findings.length === 0 ? 'each one is in the journal as published' : `${report.findings.length} differ from the journal or are missing`}${capture.skipped.length > 0 ? `; ${capture.skipped.length} line(s) skipped (first: line ${capture.skipped[0]!.line}, ${capture.skipped[0]!.reason})` : ''}`,
    ...report.findings.map(
      (finding) =>
        `${`published_${finding.problem}`.padEnd(19)} seq ${finding.seq} (${path}:${finding.line}): ${finding.message}`,
    ),
  ];
  return { report, skipped: capture.skipped, lines };
}
