#!/usr/bin/env node
/**
 * The `tableside` command (package.json "bin"), working right after
 * `npm ci` on a fresh clone: it runs the built CLI when `npm run build` made
 * one, else the TypeScript source through tsx (a dev dependency), in this
 * process so that signals and exit codes are the CLI's own.
 */
import { existsSync } from 'node:fs';

const built = new URL('../../dist/firmware-host/cli.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write(
      'tableside: no built CLI (dist/) and no tsx to run the source: run `npm ci` (with dev dependencies) or `npm run build`\n',
    );
    process.exit(1);
  }
  register();
  await import(new URL('../cli.ts', import.meta.url).href);
}
