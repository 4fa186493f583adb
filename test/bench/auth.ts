/**
 * What device authentication (protocol 1.4) costs: per frame (the device
 * seals, the host opens), per handshake (CHALLENGE to session keys, with
 * an Ed25519 and a P-256 key file), and in card latency over a pty (a
 * paired shoe through the daemon, against the bare relay and against the
 * same daemon with an unpaired shoe, measured in this run).
 */
import { performance } from 'node:perf_hooks';
import { DeviceAuth } from '../../device-protocol/auth/device-side-auth.ts';
import { HostAuth } from '../../device-protocol/auth/host-auth.ts';
import type { KeyType } from '../../device-protocol/auth/keys.ts';
import { encodeFrame, parseFrameLine } from '../../device-protocol/frame.ts';
import { type HelloMessage, messageFrame } from '../../device-protocol/messages.ts';
import {
  deviceKey,
  freshHandshakeSecrets,
  generatedSigner,
  processHostKey,
} from '../../hardware/keys/device-key.ts';

const HELLO: HelloMessage = {
  type: 'HELLO',
  model: 'TS-SHOE-2',
  serial: 'SH0042',
  protocol: '1.7',
  firmware: '2.3.1',
  firmwareSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
};

const round = (value: number, digits = 3) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

/** One handshake, host and device state machines in memory: HELLO to both sides keyed. */
async function handshake(type: KeyType) {
  const signer = generatedSigner(type);
  const publicKey = await signer.publicKey();
  const started = performance.now();
  const host = new HostAuth({
    talker: 'SH',
    hostKey: processHostKey(),
    fresh: freshHandshakeSecrets,
    paired: publicKey,
  });
  const device = new DeviceAuth({ talker: 'SH', publicKey, fresh: freshHandshakeSecrets });
  device.helloSent(HELLO);
  const challenge = host
    .incoming(parseFrameLine(encodeFrame(messageFrame('SH', 0, HELLO))), 0)
    .find((action) => action.kind === 'write');
  if (challenge?.kind !== 'write') throw new Error('no CHALLENGE');
  const sign = device.incoming(parseFrameLine(challenge.line)).find((a) => a.kind === 'sign');
  if (sign?.kind !== 'sign') throw new Error('no signature asked');
  const signature = await signer.sign(sign.digest);
  const proof = device.signed(sign.id, signature).find((action) => action.kind === 'write');
  if (proof?.kind !== 'write') throw new Error('no PROOF');
  const done = host.incoming(parseFrameLine(proof.line), 1);
  if (done.at(-1)?.kind !== 'authenticated')
    throw new Error(`not authenticated: ${JSON.stringify(done.at(-1))}`);
  // 1.7: the host's CONFIRM puts the device's keys into use; its HELLO's ACK lets events go.
  const confirm = done.find((action) => action.kind === 'write');
  if (confirm?.kind !== 'write') throw new Error('no CONFIRM');
  device.incoming(parseFrameLine(confirm.line));
  device.helloAcked(2);
  if (!device.authenticated) throw new Error('the device took no keys');
  return { ms: performance.now() - started, host, device };
}

async function handshakes(type: KeyType, count: number) {
  for (let index = 0; index < 10; index++) await handshake(type); // warm-up
  const samples: number[] = [];
  for (let index = 0; index < count; index++) samples.push((await handshake(type)).ms);
  samples.sort((a, b) => a - b);
  return {
    handshakes: count,
    median_ms: round(percentile(samples, 0.5)),
    p95_ms: round(percentile(samples, 0.95)),
    max_ms: round(samples.at(-1)!),
  };
}

/** Microseconds per CARD frame: sealed by the device and opened by the host, and the plain baseline. */
async function perFrame(frames: number) {
  const { host, device } = await handshake('ed25519');
  const lines = Array.from({ length: frames }, (_, index) =>
    encodeFrame(
      messageFrame('SH', (index + 1) % 65536, {
        type: 'CARD',
        card: 'AS',
        back: 'red',
        face: 'down',
      }),
    ),
  );
  // Best of 5 batches: a shared machine's load only ever adds time.
  let plainUs = Number.POSITIVE_INFINITY;
  let authUs = Number.POSITIVE_INFINITY;
  const batch = Math.floor(frames / 5);
  for (let run = 0; run < 5; run++) {
    const slice = lines.slice(run * batch, (run + 1) * batch);
    // Baseline: what every frame costs without authentication (parse of the line).
    let started = performance.now();
    for (const line of slice) parseFrameLine(line);
    plainUs = Math.min(plainUs, ((performance.now() - started) * 1000) / batch);
    started = performance.now();
    for (const line of slice) {
      const sealed = device.outgoing(line, 'CARD')!;
      const passed = host.incoming(parseFrameLine(sealed), 2);
      if (passed[0]?.kind !== 'pass') throw new Error('a frame did not pass');
    }
    authUs = Math.min(authUs, ((performance.now() - started) * 1000) / batch);
  }
  return {
    frames,
    sealed_and_opened_us: round(authUs, 1),
    plain_parse_us: round(plainUs, 1),
    added_us: round(authUs - plainUs, 1),
  };
}

/**
 * Card latency through the driver alone (memory wire, no journal, no
 * broker): from the shoe writing a CARD to the driver's record, paired
 * against unpaired, alternating so that load falls on both alike.
 */
async function driverLatency(cards: number) {
  const [{ DeviceDriver }, { createMemoryPair }, { SimulatedDevice }] = await Promise.all([
    import('../../firmware-host/drivers/driver.ts'),
    import('../../hardware/transports/memory.ts'),
    import('../../simulators/device.ts'),
  ]);
  const lane = async (paired: boolean) => {
    const key = await deviceKey(generatedSigner('ed25519'));
    const wire = createMemoryPair(`bench-auth-${paired}-${Math.random().toString(36).slice(2)}`);
    const sim = new SimulatedDevice({
      kind: 'shoe',
      ruleset: 'tdc-baccarat-no-commission',
      seed: 5,
      transport: wire.device,
      ...(paired ? { key } : {}),
    });
    const driver = new DeviceDriver({
      name: 'shoe',
      kind: 'shoe',
      transport: wire.host,
      ...(paired ? { pairedKey: key.publicKey } : {}),
    });
    let writtenAt: number | undefined;
    let arrived: (() => void) | undefined;
    const samples: number[] = [];
    sim.on('wrote', (line) => {
      if (writtenAt === undefined && line.includes(',CARD,')) writtenAt = performance.now();
    });
    driver.on('record', (observation) => {
      if (writtenAt !== undefined) samples.push(performance.now() - writtenAt);
      observation.ack();
      arrived?.();
    });
    driver.start();
    sim.start();
    try {
      await sim.whenReady();
      while (samples.length < cards) {
        writtenAt = undefined;
        const next = new Promise<void>((resolve) => {
          arrived = resolve;
        });
        const step = sim.upcoming();
        if (!(await sim.step())) break;
        if (step?.kind === 'card') await next;
      }
    } finally {
      await sim.stop();
      await driver.stop();
    }
    return samples;
  };
  const paired: number[] = [];
  const unpaired: number[] = [];
  for (let run = 0; run < 2; run++) {
    unpaired.push(...(await lane(false)));
    paired.push(...(await lane(true)));
  }
  const stats = (samples: number[]) => {
    const sorted = [...samples].sort((a, b) => a - b);
    return {
      cards: sorted.length,
      p50_ms: round(percentile(sorted, 0.5)),
      p99_ms: round(percentile(sorted, 0.99)),
    };
  };
  const ours = stats(paired);
  const baseline = stats(unpaired);
  return {
    paired: ours,
    unpaired: baseline,
    ratio_p50: round(ours.p50_ms / baseline.p50_ms, 2),
    ratio_p99: round(ours.p99_ms / baseline.p99_ms, 2),
  };
}

export async function benchAuth(options: { latency?: boolean } = {}) {
  const { loadavg } = await import('node:os');
  const figures: Record<string, unknown> = {
    load_average_1m: round(loadavg()[0]!, 2),
    per_frame: await perFrame(20_000),
    handshake_ed25519: await handshakes('ed25519', 100),
    handshake_p256: await handshakes('p256', 100),
    driver_latency: await driverLatency(150),
  };
  if (options.latency !== false) {
    const { benchLatency } = await import('./pipeline.ts');
    const key = await deviceKey(generatedSigner('ed25519'));
    // A first pair of runs warms the process, the broker and the disk; the second is reported.
    await benchLatency({ shoes: 1, warmup: 20 });
    await benchLatency({ shoes: 1, warmup: 20, key });
    const unpaired = await benchLatency({ shoes: 1, warmup: 20 });
    const paired = await benchLatency({ shoes: 1, warmup: 20, key });
    figures.latency_paired = paired;
    figures.latency_unpaired = unpaired;
    figures.ratio_p99_paired_to_unpaired = round(paired.p99_ms / unpaired.p99_ms, 2);
  }
  return figures;
}
