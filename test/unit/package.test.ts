import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../device-protocol/version.ts';

describe('package', () => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  it('keeps the CLI version in step with package.json', () => {
    expect(VERSION).toBe(pkg.version);
  });
  it('is an ESM package for node >= 20.19 named tableside', () => {
    expect(pkg.name).toBe('tableside');
    expect(pkg.type).toBe('module');
    expect(pkg.engines.node).toBe('>=20.19');
    // The launcher works before any build (the source through tsx) and after it.
    expect(pkg.bin.tableside).toBe('firmware-host/bin/tableside.js');
    expect(existsSync(new URL(`../../${pkg.bin.tableside}`, import.meta.url))).toBe(true);
  });
});
