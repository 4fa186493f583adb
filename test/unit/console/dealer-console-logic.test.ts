import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DealerConsoleLogic } from '../../../firmware-host/console/dealer-console.ts';
import { cardGames } from '../../../firmware-host/games/cards/plugin.ts';
import type { DomainEvent } from '../../../firmware-host/table/events.ts';
import { tableLogRecord } from '../../../firmware-host/table/log.ts';

/** At a card table: the card games' plug-in says what the buttons make. */
const behaviour = {
  debounceMs: 30,
  longPressMs: 1500,
  source: 'console',
  press: cardGames.consolePress,
};

function press(
  logic: DealerConsoleLogic,
  button: 'newRound' | 'voidHand' | 'confirm',
  at: number,
  ms: number,
) {
  const down = logic.buttonDown(button, at);
  const up = logic.buttonUp(button, at + ms);
  return { records: [...down.records, ...up.records], buzz: [...down.buzz, ...up.buzz] };
}

describe('dealer console buttons', () => {
  it('turns a new-round press into a round record stamped with time and source', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const out = press(logic, 'newRound', 1000, 120);
    expect(out.records).toEqual([{ t: 'round', ts: 1120, src: 'console' }]);
    expect(out.buzz).toEqual(['ack']);
    expect(tableLogRecord.safeParse(out.records[0]).success).toBe(true);
  });

  it('turns a confirm press into the dealer\'s "next" action', () => {
    const logic = new DealerConsoleLogic(behaviour);
    expect(press(logic, 'confirm', 0, 80).records).toEqual([
      { t: 'action', action: 'next', ts: 80, src: 'console' },
    ]);
  });

  it('voids a hand only on a long press, and says "hold to void" on a short one', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const short = press(logic, 'voidHand', 0, 400);
    expect(short.records).toEqual([]);
    expect(short.buzz).toEqual(['refuse']);
    const long = press(logic, 'voidHand', 5000, 1600);
    expect(long.records).toMatchObject([{ t: 'void', src: 'console', ts: 6600 }]);
    expect(tableLogRecord.safeParse(long.records[0]).success).toBe(true);
  });

  it('fires the void while the button is still held, once, and not again on release', () => {
    const logic = new DealerConsoleLogic(behaviour);
    logic.buttonDown('voidHand', 0);
    expect(logic.tick(1000).records).toEqual([]);
    expect(logic.tick(1500).records).toMatchObject([{ t: 'void', ts: 1500 }]);
    expect(logic.tick(1600).records).toEqual([]);
    expect(logic.buttonUp('voidHand', 2500).records).toEqual([]);
  });

  it('ignores contact bounce: blips shorter than the debounce and re-presses right after a release', () => {
    const logic = new DealerConsoleLogic(behaviour);
    expect(press(logic, 'newRound', 0, 5).records).toEqual([]);
    expect(press(logic, 'newRound', 100, 100).records).toHaveLength(1);
    // Bounce 10 ms after the release of that press.
    expect(press(logic, 'newRound', 210, 40).records).toEqual([]);
    expect(press(logic, 'newRound', 400, 40).records).toHaveLength(1);
  });

  it('makes one record per accepted press, whatever the edge sequence', () => {
    const edge = fc.record({
      button: fc.constantFrom('newRound' as const, 'confirm' as const),
      down: fc.boolean(),
      gap: fc.integer({ min: 0, max: 200 }),
    });
    fc.assert(
      fc.property(fc.array(edge, { maxLength: 60 }), (edges) => {
        const logic = new DealerConsoleLogic(behaviour);
        let now = 0;
        let records = 0;
        let releasesAfterLongEnoughPress = 0;
        const downAt = new Map<string, number>();
        for (const { button, down, gap } of edges) {
          now += gap;
          if (down) {
            const before = downAt.has(button);
            logic.buttonDown(button, now);
            if (!before && !downAt.has(button)) downAt.set(button, now);
          } else {
            const out = logic.buttonUp(button, now);
            records += out.records.length;
            const at = downAt.get(button);
            if (at !== undefined && now - at >= behaviour.debounceMs)
              releasesAfterLongEnoughPress++;
            downAt.delete(button);
            for (const record of out.records)
              expect(tableLogRecord.safeParse(record).success).toBe(true);
          }
        }
        // Never more records than real presses (bounce never doubles one).
        expect(records).toBeLessThanOrEqual(releasesAfterLongEnoughPress);
      }),
    );
  });
});

describe('dealer console lights', () => {
  it('lights Player draws only for a card due to the Player after the first two', () => {
    const logic = new DealerConsoleLogic(behaviour);
    logic.event({ type: 'round_start', round: 1 });
    expect(logic.nextStep({ kind: 'card', to: 'player', face: 'up' }).lights.playerDraws).toBe(
      'off',
    );
    for (const to of ['player', 'banker', 'player', 'banker'] as const) {
      logic.event({ type: 'card', card: 'AS', to });
    }
    const out = logic.nextStep({ kind: 'card', to: 'player', face: 'up' });
    expect(out.lights).toMatchObject({ playerDraws: 'on', bankerDraws: 'off' });
    logic.event({ type: 'card', card: '4H', to: 'player' });
    const banker = logic.nextStep({ kind: 'card', to: 'banker', face: 'up' });
    expect(banker.lights).toMatchObject({ playerDraws: 'off', bankerDraws: 'on' });
    expect(logic.nextStep({ kind: 'complete' }).lights.bankerDraws).toBe('off');
  });

  it('keeps last hand lit from last_hand until the shoe ends', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const out = logic.event({ type: 'last_hand', reason: 'cut card' });
    expect(out.lights.lastHand).toBe('on');
    expect(out.buzz).toEqual(['ack']);
    expect(logic.event({ type: 'round_start', round: 9 }).lights.lastHand).toBe('on');
    expect(logic.event({ type: 'shoe_end', reason: 'cut card' }).lights.lastHand).toBe('off');
  });

  it('blinks the alarm and buzzes after a misdeal or an alarm, until the next round', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const voided = logic.event({ type: 'hand_voided', reason: 'face up', boxes: 'all' });
    expect(voided.lights.alarm).toBe('blink');
    expect(voided.buzz).toEqual(['alarm']);
    expect(logic.event({ type: 'round_start', round: 2 }).lights.alarm).toBe('off');
    const alarm = logic.event({ type: 'alarm', kind: 'foreign_card', message: 'tag 0xBEEF' });
    expect(alarm.lights).toMatchObject({ alarm: 'blink', deviceFault: 'off' });
  });

  it('lights device fault while a device is away or faulted, and clears it when it is back', () => {
    const logic = new DealerConsoleLogic(behaviour);
    expect(logic.deviceAvailability('shoe', false).lights.deviceFault).toBe('on');
    expect(logic.deviceAvailability('shoe', true).lights.deviceFault).toBe('off');
    const quarantined = logic.event({
      type: 'alarm',
      kind: 'device_quarantined',
      message: 'firmware not allowed',
      device: 'shuffler',
    });
    expect(quarantined.lights).toMatchObject({ deviceFault: 'on', alarm: 'off' });
    expect(logic.deviceAvailability('shuffler', true).lights.deviceFault).toBe('off');
  });

  it('lights device fault, not the alarm, while an unpaired device is refused', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const refused = logic.event({
      type: 'alarm',
      kind: 'device_unpaired',
      message: 'shoe: unpaired device refused, none of its cards is dealt',
      device: 'shoe',
      dealt: false,
    });
    expect(refused.lights).toMatchObject({ deviceFault: 'on', alarm: 'off' });
    expect(refused.buzz).toEqual(['alarm']);
    // It stays refused whatever the table does, until it is back as a device the table takes.
    expect(logic.event({ type: 'round_start', round: 3 }).lights.deviceFault).toBe('on');
    expect(logic.deviceAvailability('shoe', true).lights.deviceFault).toBe('off');
    // On a bench that allows it, its cards are dealt: an alarm, not a device fault.
    const bench = logic.event({
      type: 'alarm',
      kind: 'device_unpaired',
      message: 'shoe: unpaired device dealing unauthenticated cards',
      device: 'shoe',
      dealt: true,
    });
    expect(bench.lights).toMatchObject({ deviceFault: 'off', alarm: 'blink' });
  });

  it('puts device fault out, silently, when a quarantined device proves its key again', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const quarantined = logic.event({
      type: 'alarm',
      kind: 'device_quarantined',
      message: 'shoe quarantined: 16 frames in a row failed authentication',
      device: 'shoe',
    });
    expect(quarantined.lights).toMatchObject({ deviceFault: 'on', alarm: 'off' });
    const requalified = logic.event({
      type: 'alarm',
      kind: 'device_requalified',
      message: 'shoe proved its paired key again: quarantine lifted',
      device: 'shoe',
    });
    expect(requalified.lights).toMatchObject({ deviceFault: 'off', alarm: 'off' });
    expect(requalified.buzz).toEqual([]);
  });

  it('lights device fault while a device is stalled, and puts it out, silently, when it resumes', () => {
    const logic = new DealerConsoleLogic(behaviour);
    const stalled = logic.event({
      type: 'alarm',
      kind: 'link_stalled',
      message: 'shoe: no progress for 10 s',
      device: 'shoe',
    });
    expect(stalled.lights).toMatchObject({ deviceFault: 'on', alarm: 'off' });
    expect(stalled.buzz).toEqual(['alarm']);
    const resumed = logic.event({
      type: 'alarm',
      kind: 'link_resumed',
      message: 'shoe: events flow again',
      device: 'shoe',
    });
    expect(resumed.lights).toMatchObject({ deviceFault: 'off', alarm: 'off' });
    expect(resumed.buzz).toEqual([]);
  });

  it('never makes a record from table events', () => {
    const event = fc.constantFrom<DomainEvent>(
      { type: 'shoe_start', decks: 8, backs: ['red'], cards: 416 },
      { type: 'round_start', round: 1 },
      { type: 'card', card: 'KD', to: 'banker' },
      { type: 'result', round: 1, outcome: {} },
      { type: 'last_hand', reason: 'cut' },
      { type: 'shoe_end', reason: 'cut' },
      { type: 'hand_voided', reason: 'x', boxes: 'all' },
      { type: 'reshuffle_required', reason: 'x' },
      { type: 'alarm', kind: 'device_fault', message: 'jam' },
    );
    fc.assert(
      fc.property(fc.array(event), (events) => {
        const logic = new DealerConsoleLogic(behaviour);
        for (const e of events) expect(logic.event(e).records).toEqual([]);
      }),
    );
  });
});
