/**
 * Every `PROTOCOL.md § N` cited anywhere in the repository (comments, docs,
 * alarm and failure texts, the conformance checks' sections) names a section
 * of PROTOCOL.md that exists and is about what the citing line speaks of.
 * In the protocol's own folders a bare `§ N` is a PROTOCOL.md citation too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../firmware-host/conformance/checks.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SPEC = 'device-protocol/PROTOCOL.md';
const spec = readFileSync(join(ROOT, SPEC), 'utf8');

/** Folders where `§` alone means PROTOCOL.md (nothing else there is cited by section). */
const PROTOCOL_FOLDERS = [
  'device-protocol/',
  'firmware-host/conformance/',
  'firmware-host/drivers/',
  'docs/firmware-author/',
  'test/unit/conformance/',
  'test/integration/conformance/',
  'test/unit/protocol/',
];
const TEXT = /\.(ts|md|ya?ml|json|c|h|ino|js|html|sh)$/;

/** Section number -> its text (heading and body up to the next heading of any level). */
function sectionsOf(markdown: string): Map<string, string> {
  const sections = new Map<string, string>();
  const headings = [...markdown.matchAll(/^#{2,3} (\d+(?:\.\d+)?)\.? (.*)$/gm)];
  headings.forEach((heading, index) => {
    const end = headings[index + 1]?.index ?? markdown.length;
    sections.set(heading[1]!, markdown.slice(heading.index, end));
  });
  // A section's text includes its subsections', for citations of the whole.
  for (const [number, text] of sections) {
    if (number.includes('.')) continue;
    const whole = [...sections]
      .filter(([sub]) => sub.startsWith(`${number}.`))
      .map(([, body]) => body)
      .join('');
    sections.set(number, text + whole);
  }
  return sections;
}

interface Citation {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  /** What follows `§ `, up to the end of the reference: `3.8`, `7.2-7.4`, `4 item 9`. */
  readonly reference: string;
}

function repositoryFiles(): string[] {
  return readdirSync(ROOT, { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter(
      (path) =>
        TEXT.test(path) &&
        !/(^|\/)(node_modules|\.git|dist|coverage)\//.test(path) &&
        path !== SPEC &&
        // This file shows a broken citation on purpose.
        path !== 'test/unit/protocol/citations.test.ts',
    );
}

const REFERENCE =
  /§ ([0-9]+(?:\.[0-9]+)?(?:-[0-9]+(?:\.[0-9]+)?)?(?: items? [0-9]+(?: and [0-9]+)?| \(?defaults\)?)?|[A-Z][a-z]+)/g;

function citationsIn(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  const bare = PROTOCOL_FOLDERS.some((folder) => file.startsWith(folder));
  const lines = text.split('\n');
  const push = (index: number, chunk: string) => {
    for (const match of chunk.matchAll(REFERENCE)) {
      found.push({ file, line: index + 1, text: lines[index]!, reference: match[1]! });
    }
  };
  lines.forEach((line, index) => {
    if (bare) {
      // Other documents cited by section in these folders name themselves first.
      push(index, line.replace(/(DESIGN\.md|UM0701-02|RFC \d+|[0-9]{3}) § [^,;)]*/g, ''));
      return;
    }
    // `PROTOCOL.md § a, § b`, possibly with the `§` on the next line of a comment.
    const joined = `${line}\n${lines[index + 1] ?? ''}`;
    for (const match of joined.matchAll(/PROTOCOL\.md[\s*/#]*((?:§ [^§\n]*)+)/g)) {
      const start = match.index + match[0].indexOf('§');
      if (start > line.length) push(index + 1, match[1]!);
      else if (start < line.length) push(index, line.slice(start));
    }
  });
  return found;
}

const sections = sectionsOf(spec);
const citations = repositoryFiles().flatMap((file) =>
  citationsIn(file, readFileSync(join(ROOT, file), 'utf8')),
);

/** Words a citing line may speak of, and that its section must then speak of too. */
const TOPICS = [
  'window',
  'outbox',
  'HELLO',
  'CHALLENGE',
  'PROOF',
  'MAC',
  'NAK',
  'ACK',
  'CRC',
  'PING',
  'quarantin',
  'duplicate',
  'reconnect',
  'restart',
  'SHUFFLED',
  'ORDER',
  'ROTOR',
  'RESULT',
  'key',
  'seq',
];

function sectionNumbers(reference: string): string[] {
  const range = /^([0-9]+)\.([0-9]+)-([0-9]+)\.([0-9]+)$/.exec(reference);
  if (range === null) return [reference];
  const [, major, from, , to] = range;
  return Array.from(
    { length: Number(to) - Number(from) + 1 },
    (_, i) => `${major}.${Number(from) + i}`,
  );
}

describe('PROTOCOL.md citations across the repository', () => {
  it('are found where the protocol is cited (the walk itself works)', () => {
    expect(sections.get('3.8')).toContain('The in-order window');
    expect(citations.length).toBeGreaterThan(150);
    expect(citations.some((c) => c.file === 'ARCHITECTURE.md')).toBe(true);
    expect(citations.some((c) => c.file.startsWith('firmware-host/conformance/'))).toBe(true);
  });

  it('each name a numbered section that exists (no `item`, no named section)', () => {
    const broken = citations
      .filter((citation) => !sectionNumbers(citation.reference).every((n) => sections.has(n)))
      .map((citation) => `${citation.file}:${citation.line}: § ${citation.reference}`);
    expect(broken).toEqual([]);
  });

  it('each name a section about what the citing line speaks of', () => {
    const offTopic = citations.flatMap((citation) => {
      const numbers = sectionNumbers(citation.reference);
      if (!numbers.every((n) => sections.has(n))) return [];
      const topics = TOPICS.filter((topic) => citation.text.includes(topic));
      if (topics.length === 0) return [];
      const body = numbers.map((n) => sections.get(n)!).join('');
      // Several citations on one line share its topics: one of them must hold each topic.
      const lineBody = citations
        .filter((other) => other.file === citation.file && other.line === citation.line)
        .flatMap((other) => sectionNumbers(other.reference))
        .map((n) => sections.get(n) ?? '')
        .join('');
      const missing = topics.filter((topic) => !lineBody.includes(topic));
      if (missing.length === 0 || topics.some((topic) => body.includes(topic))) return [];
      return [
        `${citation.file}:${citation.line}: § ${citation.reference} says nothing of ${missing.join(', ')}`,
      ];
    });
    expect(offTopic).toEqual([]);
  });

  it('give every conformance check sections that exist', () => {
    for (const check of CHECKS) {
      const references = [...check.section.matchAll(REFERENCE)].map((match) => match[1]!);
      expect(references.length, check.id).toBeGreaterThan(0);
      for (const reference of references)
        for (const n of sectionNumbers(reference))
          expect(sections.has(n), `${check.id}: § ${n}`).toBe(true);
    }
  });

  it('would catch a citation of a section that does not exist', () => {
    const [found] = citationsIn('ARCHITECTURE.md', 'as PROTOCOL.md § 4 item 9 says');
    expect(found?.reference).toBe('4 item 9');
    expect(sectionNumbers(found!.reference).every((n) => sections.has(n))).toBe(false);
  });
});
