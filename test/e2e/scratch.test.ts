import { it } from 'vitest';
import { E2eTable } from './helpers/table.ts';
it('scratch', async () => {
  const t = await E2eTable.create('scratch');
  try {
    await t.startDaemon();
    const c = t.consumer;
    const show = async (op: string, body: Record<string, unknown>) => {
      const r = await c.request(op, body);
      const h = await c.request('health_check', { transaction: 'h' + Math.random() });
      console.log(op, JSON.stringify(body), '=>', JSON.stringify(r).slice(0, 300), 'lastSeq', (h.data as any).journal.lastSeq);
    };
    await show('new_round', { transaction: 1 });
    await show('void_hand', { transaction: 2, reason: 'x' });
    await show('player_action', { transaction: 3, action: 'stand' });
    await show('new_shoe', { transaction: 4 });
    await show('player_action', { transaction: 5, action: 'stand' });
    await show('new_round', { transaction: 6 });
    await show('new_round', { transaction: 7 });
    await show('new_round', { transaction: 8, boxes: [1, 2] });
    await show('void_hand', { transaction: 9, reason: 'x' });
    await show('void_hand', { transaction: 10, reason: 'y' });
    await show('new_shoe', { transaction: 11 });
    await show('set_ruleset', { transaction: 12, ruleset: 'tdc-blackjack' });
    console.log(JSON.stringify(c.events.map(e => [e.seq, e.type, e.kind ?? ''])));
  } finally { await t.close(); }
}, 120000);
