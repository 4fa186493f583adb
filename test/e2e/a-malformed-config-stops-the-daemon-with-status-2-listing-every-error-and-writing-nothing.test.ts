import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/daemon.ts';

const BAD_CONFIG = `
table: "bad table!"
ruleset: no-such-game
devices:
  shoe:
    kind: shoe
    transport: "gopher://nowhere"
  reader:
    kind: reader
    transport: simulate
    model: TS-READER-SIM
    firmware: [nothex]
mqtt:
  port: 70000
journal:
  dir: ./journal
simulation:
  cardIntervalMs: -5
colour: blue
`;

describe('a malformed config stops the daemon with status 2, listing every error and writing nothing', () => {
  it('lists each bad key with its path and creates no journal', async () => {
    const dir = tempDir('bad-config');
    writeFileSync(join(dir, 'table.yaml'), BAD_CONFIG);
    const result = await runCli(['run', '--config', 'table.yaml', '--no-view'], { cwd: dir });
    expect(result.code, result.stderr).toBe(2);
    for (const path of [
      'table:',
      'ruleset:',
      'devices.shoe.transport:',
      'devices.reader.firmware[0]:',
      'mqtt.port:',
      'simulation.cardIntervalMs:',
      'colour:',
    ]) {
      expect(result.stderr).toContain(path);
    }
    expect(result.stderr).toMatch(/7 problems/);
    expect(existsSync(join(dir, 'journal'))).toBe(false);
    expect(readdirSync(dir)).toEqual(['table.yaml']);
  });

  it('reports a YAML syntax error with its line, and a missing file, the same way', async () => {
    const dir = tempDir('bad-yaml');
    writeFileSync(
      join(dir, 'table.yaml'),
      'table: t1\ndevices:\n  shoe: {kind: shoe\njournal: {dir: ./j}\n',
    );
    const syntax = await runCli(['run', '--config', 'table.yaml', '--no-view'], { cwd: dir });
    expect(syntax.code, syntax.stderr).toBe(2);
    expect(syntax.stderr).toMatch(/table\.yaml:\d+:\d+/);

    const absent = await runCli(['run', '--config', 'nowhere.yaml', '--no-view'], { cwd: dir });
    expect(absent.code, absent.stderr).toBe(2);
    expect(absent.stderr).toContain('no such file');
    expect(readdirSync(dir)).toEqual(['table.yaml']);
  });
});
