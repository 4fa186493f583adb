import { describe, expect, it } from 'vitest';
import { describeEvent, renderView, type ViewModel } from '../../../firmware-host/daemon/view.ts';

function model(overrides: Partial<ViewModel> = {}): ViewModel {
  return {
    table: 'bac-7',
    ruleset: 'tdc-baccarat-no-commission',
    broker: { url: 'mqtt://127.0.0.1:1883', connected: true, detail: '' },
    devices: { shoe: { availability: 'online', reason: 'HELLO' } },
    snapshot: {
      shoe: { number: 2, cards: 416, dealt: 104, remaining: 312, lastHand: false, ended: null },
      round: {
        number: 9,
        table: {
          player: { cards: ['9H', '2C'], total: 1 },
          banker: { cards: ['TD', '7S'], total: 7 },
        },
      },
    },
    expecting: 'player draws',
    lastSeq: 311,
    recentCards: ['9H→player'],
    results: ['round 8: TIE — banker 3S 2C (5), player 4H QC AH (5)'],
    alarms: [],
    notices: [],
    subscribe: "mosquitto_sub -h 127.0.0.1 -p 1883 -t 'tableside/bac-7/#' -v",
    ...overrides,
  };
}

describe('the terminal view', () => {
  it('shows the table, the shoe progress, the hand in play, results and how to subscribe', () => {
    const text = renderView(model()).join('\n');
    expect(text).toContain('table bac-7 — tdc-baccarat-no-commission');
    expect(text).toContain('● connected');
    expect(text).toContain('● shoe');
    expect(text).toMatch(/shoe 2 █+░+ 104\/416 dealt/);
    expect(text).toContain('player   9H 2C  (1)');
    expect(text).toContain('next: player draws');
    expect(text).toContain('round 8: TIE');
    expect(text).toContain('alarms\n  none');
    expect(text).toContain("mosquitto_sub -h 127.0.0.1 -p 1883 -t 'tableside/bac-7/#' -v");
  });

  it('lists alarms and says when the last hand is announced', () => {
    const snapshot = model().snapshot;
    const text = renderView(
      model({
        alarms: ['face_up_card: #1 6H was found face up'],
        snapshot: { ...snapshot, shoe: { ...(snapshot.shoe as object), lastHand: true } },
      }),
    ).join('\n');
    expect(text).toContain('! face_up_card');
    expect(text).toContain('LAST HAND');
  });

  it('never names a card dealt face down', () => {
    expect(describeEvent({ type: 'card', card: 'KD', to: 'dealer', face: 'down' })).toBe(
      '▒▒ → dealer',
    );
    expect(describeEvent({ type: 'card', card: 'KD', to: 'player', face: 'up' })).toBe(
      'KD → player',
    );
    const text = renderView(
      model({
        snapshot: {
          shoe: null,
          round: { number: 1, table: { dealer: { cards: [{ hidden: true }, '6D'] } } },
        },
      }),
    ).join('\n');
    expect(text).toContain('dealer   ▒▒ 6D');
  });

  it('describes results, voids and shoe events in a line each', () => {
    expect(
      describeEvent({
        type: 'result',
        round: 3,
        outcome: {
          game: 'punto-banco',
          winner: 'banker',
          banker: { cards: ['6S', 'KD'], total: 6 },
          player: { cards: ['3C', '8H', '3C'], total: 4 },
          bets: { banker: 1, player: -1, tie: -1 },
          announcement: 'Banker 6, Player 4: banker wins',
        },
      }),
    ).toBe('round 3: Banker 6, Player 4: banker wins.');
    // Every game's result in its own words, as the web console has them (not raw bet keys).
    expect(
      describeEvent({
        type: 'result',
        round: 4,
        outcome: {
          game: 'blackjack',
          dealer: { cards: ['TH', '9C'], total: 19, blackjack: false, bust: false },
          boxes: [
            {
              box: 2,
              insurance: null,
              hands: [{ cards: ['TS', 'QD'], total: 20, blackjack: false, bust: false, result: 1 }],
            },
          ],
          bets: { 'box:2.main': 1 },
        },
      }),
    ).toBe('round 4: Dealer has 19 (TH 9C). Box 2 has 20 (TS QD): wins 1 to 1.');
    expect(describeEvent({ type: 'hand_voided', reason: 'two face-up cards', boxes: 'all' })).toBe(
      'hand voided (all): two face-up cards',
    );
    expect(describeEvent({ type: 'shoe_end', reason: 'shoe exhausted' })).toBe(
      'shoe ended: shoe exhausted',
    );
  });
});
