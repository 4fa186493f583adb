/**
 * A PN532 as a TagSource: SAMConfiguration once, then InListPassiveTarget
 * over and over (each aborted with an ACK after `pollMs` if no tag came). A
 * tag still in the field on the next poll is the same arrival and is not
 * reported again; a poll that finds the field empty ends it.
 *
 * A failing PN532 is reported once per episode (naming the part and what to
 * do), then retried with a growing pause; a link that closed is reopened.
 * The first read after it recovers reports the tag that was waiting, so a
 * transient fault loses nothing.
 */
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { reasonOf } from '../errors.ts';
import { isPn532Error, type Pn532 } from '../pn532/index.ts';
import {
  helloName,
  type TagSource,
  type TagSourceEvents,
  type TagSourceFault,
  type TagSourceIdentity,
  uidHex,
} from './tag-source.ts';

/** One live connection to a PN532; `closed` resolves when its link drops by itself. */
export interface Pn532Connection {
  pn532: Pn532;
  closed: Promise<string>;
  close(): Promise<void>;
}

export interface Pn532PollerOptions {
  /** Opens the link and returns the driver on it (HSU: a serial port; I2C: a Firmata bus). */
  connect: () => Promise<Pn532Connection>;
  /** For HELLO: the model and the serial. */
  model: string;
  serial: string;
  description: string;
  /** How long one InListPassiveTarget waits for a tag before it is aborted (ms). */
  pollMs?: number;
  /** Pause after a read while a tag stays in the field (ms): spares the CPU and the link. */
  restMs?: number;
  /** First and longest pause after a fault (ms). */
  retryMs?: number;
  maxRetryMs?: number;
}

export class Pn532Poller extends EventEmitter<TagSourceEvents> implements TagSource {
  readonly description: string;
  private connection: Pn532Connection | undefined;
  private linkDown: string | undefined;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly options: Pn532PollerOptions) {
    super();
    this.description = options.description;
  }

  async start(): Promise<TagSourceIdentity> {
    if (this.running) throw new Error(`${this.description}: already started`);
    const connection = await this.options.connect();
    let identity: TagSourceIdentity;
    try {
      identity = await this.configure(connection);
    } catch (error) {
      // The configure failure is the one handled below; the close only releases the port.
      await connection.close().catch(() => undefined);
      throw error;
    }
    this.use(connection);
    this.running = true;
    this.loop = this.run();
    return identity;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
    this.loop = undefined;
    const connection = this.connection;
    this.connection = undefined;
    // Stopping: a connection already gone is closed enough.
    await connection?.close().catch(() => undefined);
  }

  private async configure(connection: Pn532Connection): Promise<TagSourceIdentity> {
    const version = await connection.pn532.firmwareVersion();
    await connection.pn532.samConfiguration();
    const firmware = `PN532-${version.ver}.${version.rev}`;
    return {
      model: helloName(this.options.model),
      serial: helloName(this.options.serial),
      firmware,
      // What an allow-list pins: this reader software on this PN532 firmware.
      firmwareSha256: createHash('sha256')
        .update(
          `tableside pn532 reader ${this.options.model} ic=${version.ic} ${firmware} support=${version.support}`,
        )
        .digest('hex'),
    };
  }

  private use(connection: Pn532Connection): void {
    this.connection = connection;
    this.linkDown = undefined;
    connection.closed.then((reason) => {
      if (this.connection === connection) {
        this.linkDown = reason;
        this.wake?.();
      }
    });
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }

  private async run(): Promise<void> {
    const pollMs = this.options.pollMs ?? 100;
    const restMs = this.options.restMs ?? 20;
    const firstRetry = this.options.retryMs ?? 200;
    const maxRetry = this.options.maxRetryMs ?? 1_000;
    let retryMs = firstRetry;
    let inField: string | undefined;
    let faulted = false;
    // After a fault the link is reopened and the PN532 configured again: a
    // module that was power-cycled needs its wake-up and SAMConfiguration.
    let stale = false;
    while (this.running) {
      try {
        if (stale || this.linkDown !== undefined || !this.connection) {
          await this.reconnect();
          stale = false;
        }
        const uid = await (this.connection as Pn532Connection).pn532.readPassiveTarget(pollMs);
        if (!this.running) break;
        if (faulted) {
          faulted = false;
          retryMs = firstRetry;
          this.emit('recovered');
        }
        const hex = uid ? uidHex(uid) : undefined;
        if (uid && hex !== inField) this.emit('tag', uid);
        inField = hex;
        if (uid) await this.pause(restMs);
      } catch (error) {
        if (!this.running) break;
        // `inField` survives the fault: a tag still on the antenna afterwards is the same arrival.
        stale = true;
        if (!faulted) {
          faulted = true;
          this.emit('fault', this.faultOf(error));
        }
        await this.pause(retryMs);
        retryMs = Math.min(maxRetry, retryMs * 2);
      }
    }
  }

  private async reconnect(): Promise<void> {
    const old = this.connection;
    this.connection = undefined;
    // Reconnecting because the old connection failed: its close may fail too.
    await old?.close().catch(() => undefined);
    const connection = await this.options.connect();
    try {
      await this.configure(connection);
    } catch (error) {
      // The configure failure is the one handled below; the close only releases the port.
      await connection.close().catch(() => undefined);
      throw error;
    }
    this.use(connection);
  }

  private faultOf(error: unknown): TagSourceFault {
    if (this.linkDown !== undefined && !isPn532Error(error)) {
      return {
        code: 'pn532_link_lost',
        message: `${this.description}: link lost (${this.linkDown}); ${reasonOf(error)}: plug the reader back in; it is retried`,
      };
    }
    if (isPn532Error(error)) {
      // The ERROR frame's detail is short: the code and the alarm already name the reader.
      const detail = error.message.replace(this.description, 'PN532');
      return { code: `pn532_${error.code}`, message: error.message, detail };
    }
    return { code: 'pn532_link_lost', message: `${this.description}: ${reasonOf(error)}` };
  }
}
