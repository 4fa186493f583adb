import { describe, expect, it } from 'vitest';
import { SpinParts, spinPartMeta } from '../../../firmware-host/daemon/spin-parts.ts';

const rotor = { type: 'ROTOR', direction: 'cw', rpm: 27 } as const;
const ball = { type: 'BALL', direction: 'ccw' } as const;

describe('the spin parts of each wheel', () => {
  it('keeps each wheel’s ROTOR and BALL until its spin or no-spin record', () => {
    const parts = new SpinParts();
    parts.add('wheel', rotor);
    parts.add('wheel', ball);
    parts.add('wheel-2', rotor);
    expect(parts.of('wheel')).toEqual([rotor, ball]);
    parts.ended({ t: 'no_more_bets', src: 'wheel' });
    expect(parts.of('wheel')).toHaveLength(2);
    parts.ended({ t: 'spin', number: 3, src: 'wheel' });
    expect(parts.of('wheel')).toEqual([]);
    expect(parts.of('wheel-2')).toEqual([rotor]);
    parts.ended({ t: 'no_spin', reason: 'foreign_object', src: 'wheel-2' });
    expect(parts.export()).toBeUndefined();
  });

  it('goes through a checkpoint as JSON and drops what is not a spin part', () => {
    const parts = new SpinParts();
    parts.add('wheel', rotor);
    parts.add('wheel', { type: 'RESULT', number: 3 });
    parts.add('wheel', { type: 'BALL', direction: 'left' });
    const copy = SpinParts.from(JSON.parse(JSON.stringify(parts.export())));
    expect(copy.of('wheel')).toEqual([rotor]);
    expect(SpinParts.from({ wheel: [rotor, 'junk', null] }).of('wheel')).toEqual([rotor]);
    expect(SpinParts.from('junk').export()).toBeUndefined();
    expect(spinPartMeta('wheel', ball)).toEqual({
      type: 'spin_part',
      device: 'wheel',
      message: ball,
    });
  });
});
