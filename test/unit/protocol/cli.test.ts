/**
 * `tableside decode` and `tableside encode` run as child processes, the way
 * a technician runs them (the run's build of the sources, test/helpers/built-cli.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliEntryArgs } from '../../helpers/built-cli.ts';

const root = new URL('../../../', import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), 'tableside-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], input?: string | Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...cliEntryArgs(), ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString('latin1'),
        stderr: Buffer.concat(stderr).toString('latin1'),
      }),
    );
    child.stdin.end(input ?? '');
  });
}

const jsonLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);

// A capture as a serial line gives it: noise, a card, a corrupted card, an
// unknown type, a card with a bad code, an over-long line, a cut-off tail.
const capture = Buffer.from(
  [
    'noise$SH,17,CARD,AS,red,down*BBE2\r\n',
    '$SH,17,CARD,KS,red,down*BBE2\r\n',
    '$SH,24,FOO,bar*0947\r\n',
    `$SH,1,${'x'.repeat(300)}\r\n`,
    '$SH,19,CUT*F482\r\n',
    '$SH,2',
  ].join(''),
  'latin1',
);
const expected = [
  { ok: false, reason: 'no_start', raw: 'noise' },
  {
    ok: true,
    talker: 'SH',
    seq: 17,
    type: 'CARD',
    fields: ['AS', 'red', 'down'],
    message: { type: 'CARD', card: 'AS', back: 'red', face: 'down' },
  },
  { ok: false, reason: 'bad_crc', raw: '$SH,17,CARD,KS,red,down*BBE2' },
  { ok: true, talker: 'SH', seq: 24, type: 'FOO', fields: ['bar'], unsupported: true },
  { ok: false, reason: 'too_long' },
  { ok: true, type: 'CUT', message: { type: 'CUT' } },
  { ok: false, reason: 'malformed', raw: '$SH,2' },
];

// Child processes on a busy CI machine can take a while to start.
const SLOW = { timeout: 120_000 };

describe('tableside decode', SLOW, () => {
  it('prints one JSON object per frame or discard of a capture file and exits 0', async () => {
    const file = join(scratch, 'capture.bin');
    writeFileSync(file, capture);
    const result = await cli(['decode', file, '--stats']);
    expect(result.status).toBe(0);
    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(expected.length);
    for (const [index, shape] of expected.entries()) expect(lines[index]).toMatchObject(shape);
    expect(result.stderr).toContain('"frames":3');
  });

  it('reads stdin without FILE, and an empty input is fine', async () => {
    const result = await cli(['decode'], capture);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout)).toHaveLength(expected.length);
    const empty = await cli(['decode'], '');
    expect(empty.status).toBe(0);
    expect(empty.stdout).toBe('');
  });

  it('exits 1 with a clear message when the file cannot be read', async () => {
    const result = await cli(['decode', join(scratch, 'missing.bin')]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/cannot read .*missing\.bin: no such file/);
    expect(result.stdout).toBe('');
  });
});

describe('tableside encode', SLOW, () => {
  it('prints the framed line with its CRC and CR LF', async () => {
    const result = await cli(['encode', 'SH', '17', 'CARD', 'AS', 'red', 'down']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('$SH,17,CARD,AS,red,down*BBE2\r\n');
  });

  it('takes fields that look like options, and frames unknown types with --raw', async () => {
    const count = await cli(['encode', 'SF', '10', 'COUNT', '102', '2', '0', '-AS', '-KH']);
    expect(count.stdout).toBe('$SF,10,COUNT,102,2,0,-AS,-KH*3241\r\n');
    const raw = await cli(['encode', '--raw', '--lf', 'SH', '24', 'FOO', 'bar']);
    expect(raw.stdout).toBe('$SH,24,FOO,bar*0947\n');
  });

  it('exits 2 naming the bad argument', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['XX', '1', 'CUT'], /bad talker "XX"/],
      [['SH', '65536', 'CUT'], /bad seq "65536"/],
      [['SH', '1', 'cut'], /bad type "cut"/],
      [['SH', '1', 'CARD', 'AS', 'red', 'sideways'], /face.*"sideways"/],
      [['HO', '1', 'CARD', 'AS', 'red', 'up'], /CARD may not come from HO/],
      [['SH', '1', 'FOO'], /unknown type FOO.*--raw/],
      [['--raw', 'SH', '1', 'FOO', 'a,b'], /bad field 1/],
      [['SH'], /missing required argument/],
    ];
    const results = await Promise.all(cases.map(([args]) => cli(['encode', ...args])));
    for (const [index, [args, pattern]] of cases.entries()) {
      const result = results[index]!;
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(pattern);
      expect(result.stdout).toBe('');
    }
  });
});
