/**
 * Issue 26: an error dropped without a word hides the one failure someone
 * needed to see. Every place that swallows an error (`.catch(() => undefined)`
 * and its kin, an empty `catch {}`) says why dropping it is safe, in a comment
 * on the same line or the line above. Biome's noEmptyBlockStatements covers
 * empty blocks; no Biome rule sees a promise's catch, hence this check.
 */

/** A catch that drops the error: `.catch(() => undefined | null | void 0 | {})`, `catch {}`, `catch (e) {}`. */
const SILENT =
  /\.catch\(\s*\(\)\s*=>\s*(?:undefined|null|void 0|\{\s*\})\s*\)|\bcatch\s*(?:\(\s*\w*\s*\)\s*)?\{\s*\}/;

const COMMENT = /\/\/|\/\*/;

/** The line above is (the end of) a comment. */
function isCommentLine(line: string | undefined): boolean {
  const trimmed = line?.trim() ?? '';
  return trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*');
}

/** Every silent catch without a comment saying why, as `file:line: code`. */
export function unexplainedSilentCatches(tree: ReadonlyMap<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of tree) {
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const match = SILENT.exec(line);
      if (!match) return;
      if (COMMENT.test(line.slice(match.index + match[0].length))) return;
      if (isCommentLine(lines[index - 1])) return;
      found.push(`${file}:${index + 1}: ${line.trim()}`);
    });
  }
  return found;
}

/** How many silent catches the tree holds, explained or not. */
export function countSilentCatches(tree: ReadonlyMap<string, string>): number {
  let count = 0;
  for (const text of tree.values()) {
    for (const line of text.split('\n')) if (SILENT.test(line)) count++;
  }
  return count;
}
