/**
 * The cost of trust: verifying one signed MQTT request (next to the schema
 * validation every request already pays, as the baseline), and signing one
 * chain head at a checkpoint (next to one fsync'ed journal append, which
 * every card already pays). Short: a few seconds.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Journal } from '../../firmware-host/journal/journal.ts';
import { signHead } from '../../firmware-host/journal/seal.ts';
import { parseRequest } from '../../firmware-host/mqtt/requests.ts';
import { generateKeyPair } from '../../firmware-host/trust/keys.ts';
import { RequestVerifier, signRequest } from '../../firmware-host/trust/signed-request.ts';

const TOPIC = 'tableside/t1/bridge/request/new_round';

const WARM_UP = 200;

/** Each call gets its own index (a signed request is used once: a second use is a replay). */
function perCallUs(count: number, run: (index: number) => void): number {
  for (let index = 0; index < WARM_UP; index++) run(index);
  const started = performance.now();
  for (let index = WARM_UP; index < WARM_UP + count; index++) run(index);
  return ((performance.now() - started) * 1000) / count;
}

const round = (value: number) => Math.round(value * 10) / 10;

export async function benchSigning() {
  const supervisor = generateKeyPair();
  const table = generateKeyPair();
  const now = Date.now();
  const verifier = new RequestVerifier({
    supervisors: new Map([['alice', supervisor.publicKey]]),
    maxSkewMs: 30_000,
    notBefore: now - 60_000,
    clock: () => now,
  });
  const fields = { transaction: 'bench', boxes: [1, 2, 3], stakes: { '1': 100, '2': 50 } };
  const count = 2000;
  const payloads = Array.from({ length: count + WARM_UP }, (_, index) =>
    signRequest(TOPIC, fields, supervisor.privateKey, {
      ts: now,
      nonce: `bench-nonce-${String(index).padStart(8, '0')}`,
    }),
  );
  const texts = payloads.map((payload) => JSON.stringify(payload));
  const plain = JSON.stringify(fields);
  const schemaUs = perCallUs(count, () => parseRequest('new_round', plain));
  let refused = 0;
  const verifyUs = perCallUs(count, (index) => {
    const check = verifier.check(TOPIC, JSON.parse(texts[index]!) as Record<string, unknown>);
    if (!check.ok) refused++;
  });
  const head = { seq: 1234, hash: 'ab'.repeat(32), ts: now };
  const signUs = perCallUs(count, () => signHead(table.privateKey, 't1', head));

  const dir = await mkdtemp(join(tmpdir(), 'tableside-bench-seal-'));
  let appendUs = 0;
  let sealUs = 0;
  try {
    const journal = await Journal.open({ dir, clock: Date.now, rotateDaily: false });
    const appends = 200;
    const started = performance.now();
    for (let index = 0; index < appends; index++) {
      await journal.append([{ kind: 'event', data: { type: 'card', card: 'AS', to: 'player' } }]);
    }
    appendUs = ((performance.now() - started) * 1000) / appends;
    await journal.close();
    // A seal between checkpoints (the timer's, every sealIntervalSeconds while cards come in):
    // the signature and one fsynced write of the head, after a card each time.
    const sealed = await Journal.open({
      dir,
      clock: Date.now,
      rotateDaily: false,
      seal: (chainHead) => ({ ...signHead(table.privateKey, 't1', chainHead) }),
    });
    const seals = 100;
    for (let index = 0; index < seals; index++) {
      await sealed.append([{ kind: 'event', data: { type: 'card', card: 'AS', to: 'player' } }]);
      const sealStarted = performance.now();
      await sealed.seal();
      sealUs += (performance.now() - sealStarted) * 1000;
    }
    sealUs /= seals;
    await sealed.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    verify_request_us: round(verifyUs),
    schema_only_us: round(schemaUs),
    verify_ratio_to_schema: round(verifyUs / schemaUs),
    refused_in_bench: refused,
    sign_head_us: round(signUs),
    fsynced_append_us: round(appendUs),
    sign_head_share_of_append: Math.round((signUs / appendUs) * 1000) / 1000,
    seal_us: round(sealUs),
    seal_share_of_append: Math.round((sealUs / appendUs) * 1000) / 1000,
  };
}
