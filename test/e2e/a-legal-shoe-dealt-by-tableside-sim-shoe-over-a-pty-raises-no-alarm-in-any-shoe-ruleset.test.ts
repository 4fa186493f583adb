/**
 * `tableside sim shoe` deals a legal shoe the way a dealer does: it stops
 * where the table ends the shoe (the coups after the last-hand marker, a
 * coup the shoe cannot complete) and leaves the rest in the shoe, so the
 * real daemon, reading it over a pty, raises no alarm, shoe after shoe.
 * The shoe rulesets are those a shoe deals alone: Punto Banco, where a card
 * between coups starts the next coup (session.autoRound); a blackjack round
 * needs the console's boxes and decisions.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { formatPublicKey } from '../../device-protocol/auth/keys.ts';
import { getRuleset, rulesetNames } from '../../firmware-host/games/rulesets.ts';
import { createKeyFile, deviceKey } from '../../hardware/keys/device-key.ts';
import { startTestBroker, type TestBroker } from '../helpers/broker.ts';
import { PtyPair } from '../integration/hardware/pty-pair.ts';
import { Consumer } from './helpers/consumer.ts';
import { type CliProcess, runCli, startDaemon, tempDir, writeConfig } from './helpers/daemon.ts';
import { mosquittoMissing, skipReason, socatMissing, until } from './helpers/environment.ts';

const missing = skipReason(socatMissing(), mosquittoMissing());
const BASE_TOPIC = 'tableside';
const TABLE = 'legal-shoes';
const SEEDS = [3, 17];
const SHOES_PER_RUN = 2;

const SHOE_RULESETS = rulesetNames().filter((name) => getRuleset(name).game === 'punto-banco');

/** Shoe after shoe: the lid opens, a fresh shuffle goes in, the lid closes, the dealer deals. */
const SCENARIO = `steps:\n${'  - lid: open\n  - shuffle\n  - lid: closed\n  - deal: rest\n'.repeat(SHOES_PER_RUN)}`;

if (missing !== undefined) console.log(`skipped: ${missing}`);

describe.skipIf(missing !== undefined)(
  'a legal shoe dealt by tableside sim shoe over a pty raises no alarm in any shoe ruleset',
  () => {
    let dir: string | undefined;
    let broker: TestBroker | undefined;
    let pty: PtyPair | undefined;
    let consumer: Consumer | undefined;
    let daemon: CliProcess | undefined;

    afterEach(async () => {
      await daemon?.kill('SIGKILL');
      await consumer?.close();
      await pty?.stop();
      await broker?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
      daemon = consumer = pty = broker = dir = undefined;
    });

    it('covers every Punto Banco ruleset', () => {
      expect(SHOE_RULESETS.length).toBeGreaterThanOrEqual(3);
    });

    it.each(SHOE_RULESETS)(
      '%s: every shoe of every seed ends on the table with no alarm and nothing dealt after it',
      async (ruleset) => {
        dir = tempDir(`legal-shoes-${ruleset}`);
        broker = await startTestBroker();
        pty = new PtyPair(dir);
        await pty.start();
        consumer = await Consumer.connect({ url: broker.url, root: `${BASE_TOPIC}/${TABLE}` });
        // Paired, as on a live table: the shoe proves its key file's key.
        const keyFile = join(dir, 'shoe.key');
        const key = await deviceKey(await createKeyFile(keyFile, 'ed25519'));
        const configFile = writeConfig(dir, {
          table: TABLE,
          ruleset,
          devices: {
            shoe: { kind: 'shoe', transport: pty.a, key: formatPublicKey(key.publicKey) },
          },
          mqtt: { url: broker.url, baseTopic: BASE_TOPIC, keepalive: 5 },
          journal: { dir: join(dir, 'journal') },
          session: { autoRound: true },
        });
        const scenarioFile = join(dir, 'shoes.yaml');
        writeFileSync(scenarioFile, SCENARIO);
        const started = startDaemon(configFile);
        daemon = started;
        const seen = consumer;
        await until(
          () =>
            seen.messages.some((m) => m.topic.endsWith('/bridge/state') && m.payload === 'online'),
          'the daemon online',
          30_000,
          () => started.describe(),
        );

        let shoes = 0;
        for (const seed of SEEDS) {
          const sim = await runCli([
            'sim',
            'shoe',
            '--link',
            pty.b,
            '--ruleset',
            ruleset,
            '--seed',
            String(seed),
            '--scenario',
            scenarioFile,
            '--rate',
            '400',
            '--key',
            keyFile,
          ]);
          expect(sim.code, sim.stderr).toBe(0);
          shoes += SHOES_PER_RUN;
          await until(
            () => seen.ofType('shoe_end').length === shoes,
            `${shoes} shoe_end events (${ruleset}, seed ${seed})`,
            30_000,
            () => `${JSON.stringify(seen.ofType('alarm'))}\n${started.describe()}`,
          );
        }
        // Every shoe ended by the table's own rule after its last coup, not by a new shuffle.
        const ends = seen.ofType('shoe_end');
        expect(ends).toHaveLength(SEEDS.length * SHOES_PER_RUN);
        for (const end of ends) expect(String(end.reason)).not.toMatch(/replaced/);
        expect(seen.ofType('result').length).toBeGreaterThan(40 * ends.length);
        expect(seen.ofType('alarm')).toEqual([]);
      },
      180_000,
    );
  },
);
