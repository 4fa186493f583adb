/**
 * Issue 24, item 1: an empty or blank request skipped the signature check
 * and was read as `{}`, so an empty `new_shoe` voided the hand in play, an
 * empty `health_check` was answered, an empty `closing` closed a roulette
 * table. Now, on every op of a card table and of a roulette table, on
 * mosquitto and on the embedded broker: a table that needs signatures
 * refuses each such request as `unsigned`, logs and alarms it; a bench
 * answers `bad_request`; neither journals anything of it.
 */
import { describe, expect, it } from 'vitest';
import { REQUEST_OPS } from '../../firmware-host/mqtt/topics.ts';
import { skipReason, socatMissing } from './helpers/environment.ts';
import { type BrokerKind, type Game, RequestTable } from './helpers/request-table.ts';

const missing = skipReason(socatMissing());
const BODIES = ['', ' ', '\n\t  '];

const cases: Array<{ broker: BrokerKind; game: Game; signed: boolean }> = [];
for (const broker of ['mosquitto', 'embedded'] as const)
  for (const game of ['cards', 'roulette'] as const)
    for (const signed of [true, false]) cases.push({ broker, game, signed });

// The cases share nothing (a broker, a daemon, a pty and a journal each) and mostly wait on
// round trips over MQTT: side by side, the file takes as long as its slowest few cases.
describe
  .skipIf(missing !== undefined)
  .concurrent('an empty or blank MQTT request is refused on every op and changes nothing', () => {
    it.for(cases)(
      'on a $game table on $broker (signed: $signed)',
      async ({ broker, game, signed }, { onTestFinished }) => {
        const t = await RequestTable.create(`blank-${broker}-${game}`, { broker, game, signed });
        onTestFinished(() => t.close());
        const consumer = await t.start();
        // A card table with a shoe in play: a new shoe would void what is dealt.
        if (game === 'cards') {
          const fields = { transaction: 'setup', reason: 'e2e' };
          const started = await consumer.request('new_shoe', {
            raw: signed ? t.signed('new_shoe', fields) : JSON.stringify(fields),
          });
          expect(started, t.describe()).toMatchObject({ status: 'ok', transaction: 'setup' });
        }
        const health = await consumer.request('health_check', {
          raw: signed ? t.signed('health_check', {}) : '{}',
        });
        expect(health.status, t.describe()).toBe('ok');
        const journalBefore = await t.journal();
        const stateBefore = consumer.value('state');

        let sent = 0;
        for (const op of REQUEST_OPS) {
          for (const body of BODIES) {
            const what = `${op} ${JSON.stringify(body)}`;
            const response = await consumer.request(op, { raw: body });
            sent++;
            expect(response.status, what).toBe('error');
            expect(response.code, what).toBe(signed ? 'unsigned' : 'bad_request');
            expect(String(response.error), what).toMatch(/^(empty|blank) payload/);
            if (signed) expect(String(response.error), what).toMatch(/unsigned request/);
            expect(response.transaction, what).toBeUndefined();
          }
        }

        const after = await consumer.request('health_check', {
          raw: signed
            ? t.signed('health_check', { transaction: 'after' })
            : '{"transaction":"after"}',
        });
        expect(after).toMatchObject({ status: 'ok', transaction: 'after' });
        expect(consumer.value('state')).toBe(stateBefore);
        const journalAfter = await t.journal();
        const added = journalAfter.slice(journalBefore.length);
        // Nothing of a blank request is journaled: no input, no event but refusal alarms.
        expect(added.filter((record) => record.kind === 'input')).toEqual([]);
        const events = added.filter((record) => record.kind === 'event').map((r) => r.data);
        for (const event of events) {
          expect(event).toMatchObject({ type: 'alarm', kind: 'request_refused', code: 'unsigned' });
        }
        const output = `${t.daemon?.stdout}\n${t.daemon?.stderr}`;
        const refusals = output.match(/"code":"unsigned"[^\n]*"msg":"request refused"/g) ?? [];
        if (signed) {
          // Each is refused and logged; the alarms go out one a second and count the rest.
          expect(refusals.length, t.describe()).toBe(sent);
          expect(events.length).toBeGreaterThan(0);
          const counted = events.reduce(
            (sum: number, event) =>
              sum + 1 + Number((event as { alsoRefused?: number }).alsoRefused ?? 0),
            0,
          );
          expect(counted).toBeLessThanOrEqual(sent);
        } else {
          expect(refusals).toEqual([]);
          expect(events).toEqual([]);
        }
        expect(t.daemon?.running).toBe(true);
      },
    );
  });
