/**
 * Seals the journal's chain head with the table's key: at start (covering
 * what the last run left), `sealIntervalSeconds` after records come in, and
 * once more at stop, before the bridge stops, so the last head of a run is
 * published too. Without a key the heads are not signed, and it says so.
 */
import type { Logger } from '../../log.ts';
import { fingerprint } from '../../trust/keys.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

export class JournalSealingExtension implements Extension {
  readonly name = 'journal-sealing';
  private readonly teardown = new Teardown();
  private log: Logger | undefined;

  async start({ journal, tableKey, config, log, bus }: ExtensionContext): Promise<void> {
    this.log = log;
    if (!tableKey) {
      const message = 'journal.signingKey is not set: the journal heads are not signed';
      log.warn(message);
      bus.emit('notice', 'warn', message);
      return;
    }
    log.info({ key: fingerprint(tableKey) }, 'journal heads signed with the table key');
    await journal.seal();
    const { sealWhileAppending } = await import('../../journal/seal-timer.ts');
    const stopSealing = sealWhileAppending(
      journal,
      config.journal.sealIntervalSeconds * 1000,
      (error) => log.error({ err: error }, 'journal seal failed'),
    );
    this.teardown.add(async () => {
      stopSealing();
      await journal
        .seal()
        .catch((error: unknown) => log.error({ err: error }, 'journal seal failed at stop'));
    });
  }

  async stop(): Promise<void> {
    if (this.log) await this.teardown.run(this.log);
  }
}
