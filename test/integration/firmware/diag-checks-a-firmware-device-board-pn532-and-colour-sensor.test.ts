import { afterEach, describe, expect, it } from 'vitest';
import { deviceSchema } from '../../../firmware-host/config/schema.ts';
import { checkDevice } from '../../../firmware-host/diag/device-check.ts';
import { SURFACES } from '../../emulators/tcs34725.ts';
import { socatMissing } from '../devices/pty.ts';
import { ShoeRig } from './shoe-rig.ts';

const skip = socatMissing();
if (skip) console.log(skip);

describe.skipIf(skip)('diag checks a firmware device: board, PN532 and colour sensor', () => {
  let rig: ShoeRig | undefined;
  afterEach(async () => {
    await rig?.stop();
  });

  const shoeOn = (board: string, beamBroken?: 'low' | 'high') =>
    deviceSchema.parse({
      kind: 'shoe',
      transport: 'firmware',
      board,
      registry: 'decks.json',
      ...(beamBroken ? { beamBroken } : {}),
    });

  it('passes a board that answers, a PN532 with its version and a plausible reading', async () => {
    rig = new ShoeRig();
    await rig.startBoard();
    rig.tcs.place(SURFACES.redBack, rig.board.now());
    const outcomes = await checkDevice('shoe', shoeOn(rig.pty.a));
    expect(outcomes.map((outcome) => [outcome.name, outcome.status])).toEqual([
      ['device shoe board', 'pass'],
      ['device shoe pn532', 'pass'],
      ['device shoe beam', 'pass'],
      ['device shoe tcs34725', 'pass'],
    ]);
    expect(outcomes[0]!.detail).toMatch(/StandardFirmata/);
    expect(outcomes[1]!.detail).toMatch(/PN532 firmware \d+\.\d+/);
  });

  it('fails a silent PN532 and warns of a dark sensor, with advice', async () => {
    rig = new ShoeRig();
    rig.pn532.setFault('silent');
    await rig.startBoard();
    rig.tcs.place({ c: 0, r: 0, g: 0, b: 0 }, rig.board.now());
    const outcomes = await checkDevice('shoe', shoeOn(rig.pty.a));
    const byName = Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome]));
    expect(byName['device shoe pn532']).toMatchObject({ status: 'fail', advice: /I2C/ });
    expect(byName['device shoe tcs34725']).toMatchObject({ status: 'warn', detail: /dark/ });
  });

  it('fails a beam that reads broken at rest, naming the setting to change', async () => {
    // An LM393 slot module drives LOW while clear: the listed part's "broken".
    rig = new ShoeRig('firmata', 57_600, 'high');
    await rig.startBoard();
    rig.tcs.place(SURFACES.redBack, rig.board.now());
    const beamOf = (outcomes: Awaited<ReturnType<typeof checkDevice>>) =>
      outcomes.find((outcome) => outcome.name === 'device shoe beam');
    const asListed = beamOf(await checkDevice('shoe', shoeOn(rig.pty.a)));
    expect(asListed).toMatchObject({
      status: 'fail',
      detail: /IR beam reads broken at rest \(D2 LOW; beamBroken: low\)/,
      advice: /set beamBroken: high in this device's config if nothing is in it/,
    });
    const asFitted = beamOf(await checkDevice('shoe', shoeOn(rig.pty.a, 'high')));
    expect(asFitted).toMatchObject({
      status: 'pass',
      detail: /clear at rest \(D2 LOW; beamBroken: high\)/,
    });
  });
});
