/**
 * One end-to-end table: a socat pty pair as the shoe's cable, a shoe
 * simulator in this process on the device end, a real broker (mosquitto on
 * a free port), a daemon config pointing at both, and a consumer. Each test
 * builds one, drives it, and closes it in `afterEach`.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatPublicKey } from '../../../device-protocol/auth/keys.ts';
import type { CardCode } from '../../../device-protocol/cards.ts';
import { readJournalRecords } from '../../../firmware-host/journal/journal.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { type DeviceKey, deviceKey, generatedSigner } from '../../../hardware/keys/device-key.ts';
import { SerialTransport } from '../../../hardware/transports/serial.ts';
import { SimulatedDevice } from '../../../simulators/device.ts';
import { parseScenarioText } from '../../../simulators/scenario.ts';
import type { DeviceIdentity } from '../../../simulators/steps.ts';
import { startTestBroker, type TestBroker } from '../../helpers/broker.ts';
import { PtyPair } from '../../integration/hardware/pty-pair.ts';
import { Consumer } from './consumer.ts';
import { type CliProcess, runCli, startDaemon, tempDir, writeConfig } from './daemon.ts';
import { until } from './environment.ts';

export const RULESET = 'tdc-baccarat-no-commission';
export const TABLE = 'e2e-bac';
export const BASE_TOPIC = 'tableside';

export interface DealtCard {
  card: CardCode;
  face: 'up' | 'down';
  back: string;
}

export interface ShoeOptions {
  seed: number;
  /** Cards per second. */
  rate: number;
  /** What the shoe's HELLO says (a rogue copying a genuine shoe's model and firmware hash). */
  identity?: Partial<DeviceIdentity>;
  /** The scenario's steps (YAML list items); default: load, close the lid, deal the whole shoe. */
  steps?: string;
  faults?: readonly string[];
}

/**
 * How the table holds its devices: `paired` (the default, as a live table:
 * each device gets its own key), `bench` (unpaired, allowed by
 * `unpaired: allow`) or `unpaired` (no key, no setting: the table refuses them).
 */
export type E2ePairing = 'paired' | 'bench' | 'unpaired';

/** Extra config of the shoe (`model`, `firmware`, `stalledAfterMs`). */
export type ShoeConfig = Record<string, unknown>;

export class E2eTable {
  readonly dir: string;
  readonly journalDir: string;
  readonly configFile: string;
  readonly broker: TestBroker;
  readonly pty: PtyPair;
  readonly consumer: Consumer;
  daemon: CliProcess | undefined;
  shoe: SimulatedDevice | undefined;
  shoeTransport: SerialTransport | undefined;
  shuffler: SimulatedDevice | undefined;
  /** What the shoe simulator dealt, in order (the cut card as `cut`). */
  readonly dealt: Array<DealtCard | 'cut'> = [];
  private readonly stopped: CliProcess[] = [];

  /** The shuffler's cable, when the table has one. */
  readonly shufflerPty: PtyPair | undefined;

  /** The shoe's own key when the table has it paired (protocol 1.4). */
  readonly shoeKey: DeviceKey | undefined;
  /** The shuffler's own key when the table has it paired. */
  readonly shufflerKey: DeviceKey | undefined;

  private constructor(
    dir: string,
    broker: TestBroker,
    pty: PtyPair,
    consumer: Consumer,
    shufflerPty: PtyPair | undefined,
    devices: {
      shoeKey: DeviceKey | undefined;
      shufflerKey: DeviceKey | undefined;
      pairing: E2ePairing;
      shoeConfig: ShoeConfig;
    },
  ) {
    const { shoeKey, shufflerKey, pairing } = devices;
    this.shoeKey = shoeKey;
    this.shufflerKey = shufflerKey;
    const bench = pairing === 'bench' ? { unpaired: 'allow' } : {};
    this.dir = dir;
    this.journalDir = join(dir, 'journal');
    this.broker = broker;
    this.pty = pty;
    this.shufflerPty = shufflerPty;
    this.consumer = consumer;
    this.configFile = writeConfig(dir, {
      table: TABLE,
      ruleset: RULESET,
      devices: {
        shoe: {
          kind: 'shoe',
          transport: pty.a,
          ...devices.shoeConfig,
          ...(shoeKey ? { key: formatPublicKey(shoeKey.publicKey) } : bench),
        },
        ...(shufflerPty
          ? {
              shuffler: {
                kind: 'shuffler',
                transport: shufflerPty.a,
                ...(shufflerKey ? { key: formatPublicKey(shufflerKey.publicKey) } : bench),
              },
            }
          : {}),
      },
      mqtt: { url: broker.url, baseTopic: BASE_TOPIC, keepalive: 5 },
      journal: { dir: this.journalDir },
      // A shoe-only Punto Banco table: a card between coups starts the next coup.
      session: { autoRound: true },
    });
  }

  /**
   * `persistentBroker`: a mosquitto that keeps sessions and queued messages across a restart;
   * `shuffler`: a card-reading shuffler on a second pty pair reports each shoe;
   * `pairing`: see E2ePairing; `shoeKey`: the shoe's key, when paired.
   */
  static async create(
    label: string,
    options: {
      persistentBroker?: boolean;
      shuffler?: boolean;
      shoeKey?: DeviceKey;
      pairing?: E2ePairing;
      shoe?: ShoeConfig;
    } = {},
  ) {
    const pairing = options.pairing ?? 'paired';
    const newKey = () => deviceKey(generatedSigner('ed25519'));
    const shoeKey = pairing === 'paired' ? (options.shoeKey ?? (await newKey())) : undefined;
    const shufflerKey = pairing === 'paired' && options.shuffler ? await newKey() : undefined;
    const dir = tempDir(label);
    const broker = await startTestBroker({ persistence: options.persistentBroker === true });
    const pty = new PtyPair(dir);
    await pty.start();
    let shufflerPty: PtyPair | undefined;
    if (options.shuffler) {
      shufflerPty = new PtyPair(tempDir(`${label}-shuffler`));
      await shufflerPty.start();
    }
    const consumer = await Consumer.connect({
      url: broker.url,
      root: `${BASE_TOPIC}/${TABLE}`,
    });
    return new E2eTable(dir, broker, pty, consumer, shufflerPty, {
      shoeKey,
      shufflerKey,
      pairing,
      shoeConfig: options.shoe ?? {},
    });
  }

  /** Starts the daemon without waiting for it. */
  spawnDaemon(): CliProcess {
    const daemon = startDaemon(this.configFile);
    this.daemon = daemon;
    return daemon;
  }

  /** Starts the daemon and waits until it has said `online` (again, after a restart). */
  async startDaemon(): Promise<CliProcess> {
    const before = this.consumer.messages.length;
    const daemon = this.spawnDaemon();
    await until(
      () =>
        this.consumer.messages
          .slice(before)
          .some((m) => m.topic.endsWith('/bridge/state') && m.payload === 'online'),
      'the daemon to publish bridge/state online',
      30_000,
      () => daemon.describe(),
    );
    return daemon;
  }

  async killDaemon(signal: NodeJS.Signals = 'SIGKILL') {
    const daemon = this.daemon;
    if (!daemon) return undefined;
    this.daemon = undefined;
    this.stopped.push(daemon);
    return daemon.kill(signal);
  }

  /** Starts the shoe simulator on the device end of the pty pair. */
  startShoe(options: ShoeOptions): SimulatedDevice {
    const { shoe, transport } = shoeSimulator(this.pty.b, options, this.shoeKey);
    shoe.on('played', (step) => {
      if (step.kind === 'card')
        this.dealt.push({ card: step.card, face: step.face, back: step.back });
      else if (step.kind === 'cut') this.dealt.push('cut');
    });
    this.shoe = shoe;
    this.shoeTransport = transport;
    shoe.start();
    return shoe;
  }

  /** A card-reading shuffler on the shuffler's pty that reports one shuffle of `seed` (the shoe's order with the same seed). */
  startShuffler(seed: number): SimulatedDevice {
    if (!this.shufflerPty)
      throw new Error('this table has no shuffler (create it with shuffler: true)');
    const shuffler = new SimulatedDevice({
      kind: 'shuffler',
      transport: new SerialTransport({ path: this.shufflerPty.b, baudRate: 115_200 }),
      ruleset: RULESET,
      seed,
      rate: 50,
      scenario: parseScenarioText('steps:\n  - shuffle\n'),
      ...(this.shufflerKey ? { key: this.shufflerKey } : {}),
    });
    this.shuffler = shuffler;
    shuffler.start();
    return shuffler;
  }

  /** The cards dealt, without the cut card. */
  dealtCards(): DealtCard[] {
    return this.dealt.filter((card): card is DealtCard => card !== 'cut');
  }

  async journal(): Promise<JournalRecord[]> {
    const records: JournalRecord[] = [];
    for await (const record of readJournalRecords(this.journalDir)) records.push(record);
    return records;
  }

  /** `tableside journal verify DIR` */
  verifyJournal() {
    return runCli(['journal', 'verify', this.journalDir]);
  }

  /** Everything the daemons wrote, for assertion messages. */
  describe(): string {
    return [...this.stopped, ...(this.daemon ? [this.daemon] : [])]
      .map((daemon, index) => `=== daemon run ${index + 1} ===\n${daemon.describe()}`)
      .join('\n');
  }

  async close(): Promise<void> {
    await this.shoe?.stop().catch(() => undefined);
    await this.shuffler?.stop().catch(() => undefined);
    await this.daemon?.kill('SIGKILL');
    await this.consumer.close();
    await this.pty.stop();
    await this.shufflerPty?.stop();
    await this.broker.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A Punto Banco shoe simulator on the device end of a pty (not started). */
export function shoeSimulator(
  path: string,
  options: ShoeOptions,
  key?: DeviceKey,
): { shoe: SimulatedDevice; transport: SerialTransport } {
  const steps = options.steps ?? '  - shuffle\n  - lid: closed\n  - deal: rest\n';
  const transport = new SerialTransport({ path, baudRate: 115_200 });
  const shoe = new SimulatedDevice({
    kind: 'shoe',
    transport,
    ruleset: RULESET,
    seed: options.seed,
    rate: options.rate,
    scenario: parseScenarioText(`steps:\n${steps}`),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.identity ? { identity: options.identity } : {}),
    ...(key ? { key } : {}),
  });
  return { shoe, transport };
}

/** The card events a consumer saw, as the shoe dealt them (face-down cards carry no value). */
export function publishedCards(consumer: Consumer) {
  return consumer.ofType('card').map((event) => ({
    card: event.card as string | null,
    face: event.face as string | undefined,
    to: event.to as string,
    index: event.index as number | undefined,
    hidden: event.hidden === true,
  }));
}
