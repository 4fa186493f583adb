import { afterEach, describe, expect, it } from 'vitest';
import { skipReason, socatMissing, until } from './helpers/environment.ts';
import { E2eTable } from './helpers/table.ts';

const missing = skipReason(socatMissing());

interface BadRequest {
  what: string;
  op: string;
  body: Record<string, unknown> | { raw: string };
  code: string;
  /** Part of the error text: it names what was wrong. */
  names: RegExp;
}

const BAD_REQUESTS: BadRequest[] = [
  {
    what: 'a payload that is not JSON',
    op: 'new_round',
    body: { raw: '{"transaction": "tx-json", "boxes": [1' },
    code: 'bad_request',
    names: /not valid JSON/,
  },
  {
    what: 'a payload that is not an object',
    op: 'new_round',
    body: { raw: '[1, 2, 3]' },
    code: 'bad_request',
    names: /JSON object/,
  },
  {
    what: 'an unknown op',
    op: 'deal_faster',
    body: { transaction: 'tx-unknown-op' },
    code: 'bad_request',
    names: /unknown request "deal_faster"/,
  },
  {
    what: 'a box out of range',
    op: 'new_round',
    body: { transaction: 'tx-box', boxes: [9] },
    code: 'bad_request',
    names: /boxes\.0/,
  },
  {
    what: 'an unknown field',
    op: 'void_hand',
    body: { transaction: 42, reason: 'spilled drink', colour: 'blue' },
    code: 'bad_request',
    names: /unknown field\(s\) colour/,
  },
  {
    what: 'a missing field',
    op: 'set_ruleset',
    body: { transaction: 'tx-missing' },
    code: 'bad_request',
    names: /ruleset/,
  },
  {
    what: 'a field of the wrong type',
    op: 'new_shoe',
    body: { transaction: 'tx-type', reason: 42 },
    code: 'bad_request',
    names: /reason/,
  },
  {
    what: 'an action Punto Banco has no place for',
    op: 'player_action',
    body: { transaction: 'tx-illegal', box: 1, action: 'double' },
    code: 'refused',
    names: /./,
  },
  {
    what: 'a new round while a coup is being dealt (it would void the coup)',
    op: 'new_round',
    body: { transaction: 'tx-coup' },
    code: 'refused',
    names: /expecting: banker card/,
  },
  {
    what: 'an unknown ruleset',
    op: 'set_ruleset',
    body: { transaction: 'tx-ruleset', ruleset: 'no-such-game' },
    code: 'unknown_ruleset',
    names: /no-such-game/,
  },
  {
    what: 'a ruleset change while a shoe is in play',
    op: 'set_ruleset',
    body: { transaction: 'tx-in-play', ruleset: 'bulgaria-punto-banco' },
    code: 'shoe_in_play',
    names: /between shoes/,
  },
];

describe.skipIf(missing !== undefined)(
  'malformed MQTT requests get error responses and change nothing',
  () => {
    let table: E2eTable | undefined;
    afterEach(async () => {
      await table?.close();
      table = undefined;
    });

    it('answers each bad request with an error naming the problem and the caller transaction, and journals nothing', async () => {
      table = await E2eTable.create('bad-requests');
      const t = table;
      await t.startDaemon();
      const consumer = t.consumer;

      // No shoe yet: a round is refused, and says why.
      const early = await consumer.request('new_round', { transaction: 'tx-early' });
      expect(early).toMatchObject({ status: 'error', code: 'refused', transaction: 'tx-early' });
      expect(String(early.error)).toMatch(/no shoe in play/);

      // A shoe in play (started over MQTT), dealt by hand up to the first card of a coup.
      const started = await consumer.request('new_shoe', { transaction: 'tx-shoe', reason: 'e2e' });
      expect(started).toMatchObject({ status: 'ok', transaction: 'tx-shoe' });
      await until(() => consumer.ofType('shoe_start').length === 1, 'the shoe_start event');
      const shoe = t.startShoe({ seed: 99, rate: 0, steps: '  - shuffle\n  - deal: 30\n' });
      await shoe.whenReady();
      while (!consumer.ofType('card').some((card) => card.to === 'player')) {
        const dealtBefore = consumer.ofType('card').length;
        await shoe.step();
        await until(() => consumer.ofType('card').length > dealtBefore, 'the card just dealt');
      }
      const health = await consumer.request('health_check', { transaction: 'before' });
      const before = (health.data as { journal: { lastSeq: number } }).journal.lastSeq;
      const stateBefore = consumer.value('state');
      const journalBefore = (await t.journal()).length;
      const eventsBefore = consumer.events.length;

      for (const bad of BAD_REQUESTS) {
        const response = await consumer.request(bad.op, bad.body);
        expect(response.status, bad.what).toBe('error');
        expect(response.code, bad.what).toBe(bad.code);
        expect(String(response.error), bad.what).toMatch(bad.names);
        const sent = 'raw' in bad.body ? undefined : bad.body.transaction;
        expect(response.transaction, bad.what).toEqual(sent);
      }

      const after = await consumer.request('health_check', { transaction: 'after' });
      expect(after).toMatchObject({ status: 'ok', transaction: 'after' });
      expect((after.data as { journal: { lastSeq: number } }).journal.lastSeq).toBe(before);
      expect(consumer.value('state')).toBe(stateBefore);
      expect((await t.journal()).length).toBe(journalBefore);
      expect(consumer.events.length).toBe(eventsBefore);
      expect(t.daemon?.running).toBe(true);
    });
  },
);
