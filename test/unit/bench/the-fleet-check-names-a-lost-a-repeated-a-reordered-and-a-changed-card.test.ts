import { describe, expect, it } from 'vitest';
import { checkDeliveries, type Delivery, type PlayedCard } from '../../bench/fleet-floor.ts';

const played: PlayedCard[] = [
  { card: 'AS', face: 'up', at: 0 },
  { card: 'KD', face: 'down', at: 10 },
  { card: '7C', face: 'up', at: 20 },
];

function delivery(consumer: number, seq: number, card: unknown, hidden = false): Delivery {
  return {
    consumer,
    table: 'table-01',
    seq,
    ts: 1000 + seq,
    type: 'card',
    card,
    hidden,
    receivedAt: 5 + seq * 10,
    receivedWall: 1003 + seq,
  };
}

const check = (deliveries: Delivery[]) =>
  checkDeliveries(['table-01'], new Map([['table-01', played]]), deliveries);

describe('the fleet check', () => {
  it('passes every card once, split between two consumers, the face-down one hidden', () => {
    const result = check([delivery(0, 1, 'AS'), delivery(1, 2, null, true), delivery(0, 3, '7C')]);
    expect(result.problems).toEqual([]);
    expect(result.journalLatencies).toEqual([3, 3, 3]);
    expect(result.frameLatencies).toEqual([15, 15, 15]);
  });

  it('names a lost card', () => {
    expect(check([delivery(0, 1, 'AS'), delivery(0, 3, '7C')]).problems).toContain(
      'table-01: 3 cards dealt, 2 received',
    );
  });

  it('counts a card delivered to both consumers', () => {
    const result = check([
      delivery(0, 1, 'AS'),
      delivery(1, 1, 'AS'),
      delivery(1, 2, null, true),
      delivery(0, 3, '7C'),
    ]);
    expect(result.duplicates).toBe(1);
    expect(result.problems).toEqual(['1 events delivered more than once']);
  });

  it('names a consumer that got a table out of order', () => {
    const result = check([delivery(0, 3, '7C'), delivery(0, 1, 'AS'), delivery(1, 2, null, true)]);
    expect(result.problems).toEqual(['table-01: consumer 1 got seq 1 after 3']);
  });

  it('names a card whose value is not the one dealt', () => {
    const result = check([delivery(0, 1, 'AS'), delivery(1, 2, null, true), delivery(0, 3, '8C')]);
    expect(result.problems).toEqual(['table-01: card 3 is 8C, the shoe dealt 7C']);
  });

  it('names a hidden card that still carries its value', () => {
    const result = check([delivery(0, 1, 'AS'), delivery(1, 2, 'KD', true), delivery(0, 3, '7C')]);
    expect(result.problems).toEqual(['table-01: card 2 is KD (hidden), the shoe dealt KD']);
  });

  it('leaves the warm-up cards out of the latencies', () => {
    const result = checkDeliveries(
      ['table-01'],
      new Map([['table-01', played]]),
      [delivery(0, 1, 'AS'), delivery(1, 2, null, true), delivery(0, 3, '7C')],
      2,
    );
    expect(result.journalLatencies).toHaveLength(1);
  });
});
