/**
 * The docs hold together: every relative link in every Markdown file of the
 * repository names a file (or folder) inside the repository, an anchor names
 * a heading of the page it points into, and every page under docs/ can be
 * reached from README.md by following links, so a reader who starts at the
 * front door finds every page.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.ts';

const SKIPPED_DIRS = new Set(['node_modules', '.git', 'dist', '.tableside']);

function markdownFiles(dir = ''): string[] {
  return readdirSync(join(REPO_ROOT, dir)).flatMap((name) => {
    if (SKIPPED_DIRS.has(name)) return [];
    const path = join(dir, name);
    if (statSync(join(REPO_ROOT, path)).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks and inline code, where a link is a link. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

interface Link {
  target: string;
  line: string;
}

function linksOf(markdown: string): Link[] {
  const links: Link[] = [];
  for (const line of prose(markdown).split('\n')) {
    for (const match of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ target: match[1]!, line: line.trim() });
    }
  }
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = match[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const match of markdown.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}

function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** Where a relative link of `from` lands, and its anchor. */
function resolveLink(from: string, target: string): { path: string; anchor: string | undefined } {
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path =
    pathPart === ''
      ? from
      : relative(REPO_ROOT, resolve(REPO_ROOT, dirname(from), decodeURI(pathPart)));
  return { path, anchor };
}

const files = markdownFiles();
const texts = new Map(files.map((file) => [file, readFileSync(join(REPO_ROOT, file), 'utf8')]));

describe('the links of the repository’s Markdown files', () => {
  it('finds the Markdown files (README.md and the docs pages among them)', () => {
    expect(files).toContain('README.md');
    expect(files.filter((file) => file.startsWith(`docs${sep}`)).length).toBeGreaterThan(10);
  });

  it.each(files)(
    '%s: every relative link resolves inside the repository, anchors included',
    (file) => {
      const broken: string[] = [];
      for (const { target, line } of linksOf(texts.get(file)!)) {
        if (isExternal(target)) continue;
        const { path, anchor } = resolveLink(file, target);
        if (path.startsWith('..') || resolve(REPO_ROOT, path) === resolve(REPO_ROOT, '..')) {
          broken.push(`${target}: outside the repository (${line})`);
          continue;
        }
        if (!existsSync(join(REPO_ROOT, path))) {
          broken.push(`${target}: no file ${path} (${line})`);
          continue;
        }
        if (anchor && path.endsWith('.md') && !anchorsOf(texts.get(path) ?? '').has(anchor)) {
          broken.push(`${target}: no heading #${anchor} in ${path} (${line})`);
        }
      }
      expect(broken).toEqual([]);
    },
  );

  it('reaches every page under docs/ from README.md', () => {
    const reached = new Set<string>(['README.md']);
    const queue = ['README.md'];
    while (queue.length > 0) {
      const file = queue.shift()!;
      for (const { target } of linksOf(texts.get(file) ?? '')) {
        if (isExternal(target)) continue;
        const { path } = resolveLink(file, target);
        const page = texts.has(path)
          ? path
          : texts.has(join(path, 'README.md'))
            ? join(path, 'README.md')
            : undefined;
        if (page && !reached.has(page)) {
          reached.add(page);
          queue.push(page);
        }
      }
    }
    const unreached = files.filter((file) => file.startsWith(`docs${sep}`) && !reached.has(file));
    expect(unreached).toEqual([]);
  });

  it('names the anchors of headings as GitHub does', () => {
    const anchors = anchorsOf(
      '# A `b` c: d\n## Running a table\n## Running a table\n```sh\n# no\n```\n',
    );
    expect([...anchors]).toEqual(['a-b-c-d', 'running-a-table', 'running-a-table-1']);
  });
});
