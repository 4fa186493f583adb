/**
 * The sources the architecture checks read: every `.ts` file of the checked
 * folders, and the web console's browser scripts (`firmware-host/web/public/*.js`),
 * which no TypeScript rule sees but a branch on a game can hide in.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { CHECKED_FOLDERS } from './rules.ts';

/** The browser scripts' folder: checked for branches and ownership, not for the import rules. */
export const BROWSER_SCRIPTS = 'firmware-host/web/public/';

function filesUnder(root: string, dir: string, extension: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return filesUnder(root, path, extension);
    return name.endsWith(extension) ? [relative(root, join(root, path))] : [];
  });
}

/** Every checked `.ts` file, path from the root → text. */
export function readSourceTree(root: string): Map<string, string> {
  return new Map(
    CHECKED_FOLDERS.flatMap((dir) => filesUnder(root, dir, '.ts')).map((file) => [
      file,
      readFileSync(join(root, file), 'utf8'),
    ]),
  );
}

/** The browser scripts, path from the root → text. */
export function readBrowserScripts(root: string): Map<string, string> {
  return new Map(
    filesUnder(root, BROWSER_SCRIPTS, '.js').map((file) => [
      file,
      readFileSync(join(root, file), 'utf8'),
    ]),
  );
}
