import { describe, expect, it } from 'vitest';
import { DealerConsoleLogic } from '../../../firmware-host/console/dealer-console.ts';
import { roulette } from '../../../firmware-host/games/roulette/plugin.ts';
import { tableLogRecord } from '../../../firmware-host/table/log.ts';

const behaviour = {
  debounceMs: 30,
  longPressMs: 1500,
  source: 'console',
  // The roulette plug-in says what the buttons make at its table.
  press: roulette.consolePress,
};

function press(
  logic: DealerConsoleLogic,
  button: 'newRound' | 'voidHand' | 'confirm',
  at: number,
  ms: number,
) {
  const down = logic.buttonDown(button, at);
  const held = ms >= behaviour.longPressMs ? logic.tick(at + ms - 1) : { records: [], buzz: [] };
  const up = logic.buttonUp(button, at + ms);
  return {
    records: [...down.records, ...held.records, ...up.records],
    buzz: [...down.buzz, ...held.buzz, ...up.buzz],
  };
}

describe('the dealer console at a roulette table', () => {
  it('turns the new-round button into "no more bets" (003 § 11(2))', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const out = press(logic, 'newRound', 1000, 120);
    expect(out.records).toEqual([{ t: 'no_more_bets', ts: 1120, src: 'console' }]);
    expect(out.buzz).toEqual(['ack']);
    expect(tableLogRecord.safeParse(out.records[0]).success).toBe(true);
  });

  it('announces closing time only when the void button is held, once', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const short = press(logic, 'voidHand', 0, 300);
    expect(short.records).toEqual([]);
    expect(short.buzz).toEqual(['refuse']);
    const held = press(logic, 'voidHand', 5000, 1800);
    expect(held.records).toEqual([expect.objectContaining({ t: 'closing', src: 'console' })]);
    expect(held.records).toHaveLength(1);
  });

  it('refuses the confirm button: the wheel reports the spin itself', () => {
    const logic = new DealerConsoleLogic(behaviour);
    expect(press(logic, 'confirm', 0, 80)).toEqual({ records: [], buzz: ['refuse'] });
  });
});
