#!/usr/bin/env node
/**
 * The `tableside` command (package.json "bin"), working right after
 * `npm ci` on a fresh clone. Where tsx (a dev dependency) is installed, it
 * runs the TypeScript source, so a checkout never runs a `dist/` older than
 * its code; an install without dev dependencies (the Pi's) runs the built
 * CLI. Either way in this process, so signals and exit codes are the CLI's.
 */
import { existsSync } from 'node:fs';

let register;
try {
  ({ register } = await import('tsx/esm/api'));
} catch {
  register = undefined;
}
const built = new URL('../../dist/firmware-host/cli.js', import.meta.url);
if (register) {
  register();
  await import(new URL('../cli.ts', import.meta.url).href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write(
    'tableside: no tsx to run the source and no built CLI (dist/): run `npm ci` (with dev dependencies) or `npm run build`\n',
  );
  process.exit(1);
}
