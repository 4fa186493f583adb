import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyColour, parseCalibration } from '../../../hardware/firmware/colour.ts';
import { SURFACES, type Surface } from '../../emulators/tcs34725.ts';
import { cliEntryArgs } from '../../helpers/built-cli.ts';
import { socatMissing } from '../devices/pty.ts';
import { ShoeRig } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

const ROOT = join(import.meta.dirname, '../../..');
const TSX = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** A green back and a red back, which the built-in defaults would not both know. */
const GREEN_BACK: Surface = { c: 60, r: 10, g: 40, b: 10 };

/**
 * Runs `tableside firmware calibrate` against the emulated board, laying the
 * surface each prompt asks for over the emulated sensor and pressing Enter.
 */
async function calibrate(rig: ShoeRig, out: string, backs: Record<string, Surface>) {
  const child = spawn(
    process.execPath,
    [
      ...cliEntryArgs(TSX),
      'firmware',
      'calibrate',
      '--board',
      rig.pty.a,
      '--out',
      out,
      '--backs',
      Object.keys(backs).join(','),
    ],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] },
  );
  let stderr = '';
  let answered = 0;
  const prompts: Array<[RegExp, Surface]> = [
    ...Object.entries(backs).map(
      ([name, surface]) => [new RegExp(`a ${name} back`), surface] as [RegExp, Surface],
    ),
    [/face up/, SURFACES.face],
    [/cut card/, SURFACES.cutCard],
  ];
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    const next = prompts[answered];
    if (!next) return;
    if (next[0].test(stderr.split('press Enter').at(-2) ?? '')) {
      answered++;
      rig.tcs.place(next[1], rig.board.now());
      child.stdin.write('\n');
    }
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe.skipIf(skip)(
  'tableside firmware calibrate walks through each back, a face and the cut card and saves what the shoe uses',
  () => {
    let rig: ShoeRig | undefined;
    afterEach(async () => {
      await rig?.stop();
    });

    it('saves references that tell a green back, a red back, a face and the cut card apart', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const out = join(rig.directory, 'shoe-calibration.json');
      const { code, stderr } = await calibrate(rig, out, {
        green: GREEN_BACK,
        red: SURFACES.redBack,
      });
      expect(code, stderr).toBe(0);
      const calibration = parseCalibration(readFileSync(out, 'utf8'), out);
      expect(Object.keys(calibration.references).sort()).toEqual(['cut', 'face', 'green', 'red']);
      const scale = (surface: Surface) => ({
        c: surface.c * 16,
        r: surface.r * 16,
        g: surface.g * 16,
        b: surface.b * 16,
      });
      expect(classifyColour(scale(GREEN_BACK), calibration, 4096)).toEqual({
        kind: 'back',
        back: 'green',
      });
      expect(classifyColour(scale(SURFACES.blueBack), calibration, 4096)).toMatchObject({
        kind: 'unmatched',
      });
    }, 60_000);

    it('says which beam setting to change when the beam reads broken at rest', async () => {
      // An LM393 slot module: LOW while clear, which the listed receiver means broken.
      rig = new ShoeRig('firmata', 57_600, 'high');
      await rig.startBoard();
      const out = join(rig.directory, 'shoe-calibration.json');
      const { code, stderr } = await calibrate(rig, out, { red: SURFACES.redBack });
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(
        /IR beam reads broken at rest \(D2 LOW, --beam-broken low\): set --beam-broken high/,
      );
    }, 60_000);

    it('refuses two backs that read alike, and writes nothing', async () => {
      rig = new ShoeRig();
      await rig.startBoard();
      const out = join(rig.directory, 'shoe-calibration.json');
      const { code, stderr } = await calibrate(rig, out, {
        red: SURFACES.redBack,
        blue: SURFACES.redBack,
      });
      expect(code).toBe(1);
      expect(stderr).toMatch(/does not read apart/);
      expect(() => readFileSync(out)).toThrow(/ENOENT/);
    }, 60_000);
  },
);
