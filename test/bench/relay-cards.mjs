// The bare relay's whole work, once for its two callers: reframe the shoe's
// link (the session ACKs at once) and publish each card at QoS 1, nothing
// else. The in-process baseline (pipeline.ts) passes the TypeScript sources'
// session and transport; the relay process (bare-relay.mjs) passes dist/'s,
// so that no TypeScript loader runs where the daemon has none. Plain
// JavaScript for that reason; its types are in relay-cards.d.mts.
import { performance } from 'node:perf_hooks';

export function relayCards({ session, transport, publisher, cardTopic }) {
  let seq = 0;
  transport.on('data', (chunk) => {
    for (const action of session.receiveBytes(chunk, performance.now())) {
      if (action.kind === 'send') {
        transport.write(Buffer.from(action.line, 'latin1')).catch(() => undefined);
      } else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        const { card, back, face } = action.message;
        publisher.publish(
          cardTopic,
          JSON.stringify({ seq: ++seq, ts: Date.now(), type: 'card', card, back, face }),
          { qos: 1 },
        );
      }
    }
  });
}
