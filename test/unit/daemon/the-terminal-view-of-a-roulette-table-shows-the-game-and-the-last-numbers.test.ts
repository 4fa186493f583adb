import { describe, expect, it } from 'vitest';
import { describeEvent, renderView, type ViewModel } from '../../../firmware-host/daemon/view.ts';
import { RouletteSession } from '../../../firmware-host/games/roulette/session.ts';

function model(snapshot: Record<string, unknown>): ViewModel {
  return {
    table: 'rou-1',
    ruleset: 'tdc-roulette',
    broker: { url: 'mqtt://127.0.0.1:1883', connected: true, detail: '' },
    devices: { wheel: { availability: 'online', reason: 'HELLO' } },
    snapshot,
    expecting: 'game 3: bets open',
    lastSeq: 12,
    recentCards: [],
    results: [],
    alarms: [],
    notices: [],
    subscribe: "mosquitto_sub -h 127.0.0.1 -p 1883 -t 'tableside/rou-1/#' -v",
  };
}

describe('the terminal view of a roulette table', () => {
  it('shows the game in play and the last numbers with their colours, no shoe', () => {
    const session = new RouletteSession('tdc-roulette');
    for (const [rotor, number] of [
      ['cw', 32],
      ['ccw', 0],
    ] as const) {
      session.apply({ t: 'no_more_bets' });
      session.apply({
        t: 'spin',
        rotor,
        ball: rotor === 'cw' ? 'ccw' : 'cw',
        number,
        revolutions: 9,
      });
    }
    const text = renderView(model(session.snapshot())).join('\n');
    expect(text).toContain('game 3 bets open · last: 0 32R');
    expect(text).not.toContain('no shoe in play');
    session.apply({ t: 'closing' });
    session.apply({ t: 'no_more_bets' });
    expect(renderView(model(session.snapshot())).join('\n')).toContain(
      'game 3 NO MORE BETS (closing: 3 left)',
    );
  });

  it('describes spins, voids and closing in one line each', () => {
    expect(
      describeEvent({
        type: 'spin',
        game: 4,
        number: 17,
        colour: 'black',
        rotor: 'cw',
        ball: 'ccw',
        revolutions: 11,
      }),
    ).toBe('game 4: 17 black (rotor cw, ball ccw, 11 revolutions)');
    expect(
      describeEvent({
        type: 'game_voided',
        game: 5,
        reason: 'no spin: foreign_object',
        rule: '003 § 11(5)',
      }),
    ).toBe('game 5 void: no spin: foreign_object [003 § 11(5)]');
    expect(describeEvent({ type: 'games_left', left: 2, rule: '003 § 13(2)' })).toContain(
      '2 game(s) left',
    );
  });
});
