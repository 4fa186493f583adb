// The relays' whole work, once for their callers: reframe the shoe's link
// and publish each card at QoS 1. The bare relay ACKs a card as it arrives
// and writes nothing; the durable relay (`store` given) first appends the
// card to its file, with the journal's durability (O_DSYNC, or fdatasync),
// and ACKs it only then: the least any daemon can do if it never loses a card
// it has ACKed (issue 36's baseline). The in-process baseline (pipeline.ts)
// passes the TypeScript sources' session and transport; the relay process
// (bare-relay.mjs) passes dist/'s, so that no TypeScript loader runs where
// the daemon has none. Plain JavaScript for that reason; its types are in
// relay-cards.d.mts.
import { performance } from 'node:perf_hooks';

export function relayCards({ session, transport, publisher, cardTopic, store }) {
  let seq = 0;
  const send = (actions) => {
    for (const action of actions) {
      if (action.kind === 'send')
        transport.write(Buffer.from(action.line, 'latin1')).catch(() => undefined);
    }
  };
  const publish = (message) => {
    const { card, back, face } = message;
    publisher.publish(
      cardTopic,
      JSON.stringify({ seq: ++seq, ts: Date.now(), type: 'card', card, back, face }),
      { qos: 1 },
    );
  };
  // One append at a time, in the order the cards came, as the journal's.
  let stored = Promise.resolve();
  transport.on('data', (chunk) => {
    for (const action of session.receiveBytes(chunk, performance.now())) {
      if (action.kind === 'send') send([action]);
      else if (action.kind === 'deliver' && action.message.type === 'CARD') {
        const { message, seq: frameSeq, talker } = action;
        if (!store) {
          publish(message);
          continue;
        }
        const line = `${JSON.stringify({ seq: frameSeq, card: message.card, back: message.back, face: message.face })}\n`;
        stored = stored
          .then(() => store.append(line))
          .then(
            () => {
              send(session.ack(frameSeq, talker));
              publish(message);
            },
            (error) => send(session.reject(frameSeq, String(error), talker)),
          );
      }
    }
  });
}
