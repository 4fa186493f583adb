/**
 * Issue 24, item 5: under a flood the daemon's connection dropped and the
 * requests it held were never answered. The bridge now holds at most
 * REQUESTS_IN_HAND_MAX requests for the table and refuses the rest at once
 * (`busy`, with their transactions), and an answer the broker has not
 * acknowledged when the connection drops goes out after the reconnect.
 */
import { describe, expect, it } from 'vitest';
import { REQUESTS_IN_HAND_MAX } from '../../../firmware-host/mqtt/bridge.ts';
import {
  BASE,
  brokerFor,
  cleanupAfterEach,
  cuttableRelay,
  makeBridge,
  openStore,
  Recorder,
  TABLE,
  tempDir,
  waitFor,
} from './support.ts';

const cleanup = cleanupAfterEach();
const OVER = 20;

describe('requests beyond the bound in hand', () => {
  it('are refused busy, and each one in hand is answered across a dropped connection', async () => {
    const broker = await brokerFor(cleanup);
    const relay = cleanup.later(await cuttableRelay(broker.port), (r) => r.close());
    const store = cleanup.later(await openStore(tempDir()), (s) => s.journal.close());
    // A table slow to answer: each request waits until the test lets it go.
    const inHand: Array<() => void> = [];
    const bridge = cleanup.later(
      makeBridge(relay.url, store, {
        onRequest: () => new Promise((resolve) => inHand.push(() => resolve({ done: true }))),
      }),
      (b) => b.stop(),
    );
    const refusals: string[] = [];
    bridge.on('refused', (_op, code) => refusals.push(code));
    await bridge.start();
    await waitFor(() => bridge.isConnected, 'the bridge connected');
    const requester = cleanup.later(await Recorder.connect(broker.url), (r) => r.close());
    const answers = () =>
      requester
        .on('bridge/response/health_check')
        .map((m) => JSON.parse(m.text) as { status: string; code?: string; transaction: string });

    const total = REQUESTS_IN_HAND_MAX + OVER;
    for (let i = 0; i < total; i++) {
      await requester.client.publishAsync(
        `${BASE}/${TABLE}/bridge/request/health_check`,
        JSON.stringify({ transaction: `t-${i}` }),
        { qos: 1 },
      );
    }
    await waitFor(
      () => inHand.length === REQUESTS_IN_HAND_MAX && answers().length === OVER,
      `${REQUESTS_IN_HAND_MAX} requests in hand and ${OVER} refused`,
    );
    // The first ones are in hand; the rest were refused at once, each naming why.
    expect(answers().map((a) => [a.transaction, a.code])).toEqual(
      Array.from({ length: OVER }, (_, i) => [`t-${REQUESTS_IN_HAND_MAX + i}`, 'busy']),
    );
    expect(refusals).toEqual(Array.from({ length: OVER }, () => 'busy'));

    // The connection drops while the table still works on them; they are answered meanwhile.
    relay.refuse(true);
    relay.cut();
    await waitFor(() => !bridge.isConnected, 'the bridge to see the drop');
    for (const answer of inHand.splice(0)) answer();
    relay.refuse(false);
    await waitFor(() => answers().length >= total, 'every request answered', 30_000);
    const ok = answers().filter((a) => a.status === 'ok');
    expect(new Set(ok.map((a) => a.transaction))).toEqual(
      new Set(Array.from({ length: REQUESTS_IN_HAND_MAX }, (_, i) => `t-${i}`)),
    );

    // Nothing stays counted in hand: the next request is taken.
    await requester.client.publishAsync(
      `${BASE}/${TABLE}/bridge/request/health_check`,
      JSON.stringify({ transaction: 'after' }),
      { qos: 1 },
    );
    await waitFor(() => inHand.length === 1, 'the next request in hand');
    inHand.splice(0)[0]!();
    await waitFor(
      () => answers().some((a) => a.transaction === 'after' && a.status === 'ok'),
      'the answer to the next request',
    );
  });
});
