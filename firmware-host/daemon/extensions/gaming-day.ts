/**
 * A table that stays up over midnight opens again on the new gaming day, as
 * one started on a later day does (daemon/gaming-day.ts; 003 § 13(1): closing
 * time closes one working day): a timer for the next UTC day's start asks the
 * table to reopen, and the table reopens only if it is closed since an
 * earlier day. Each firing sets the next one, so a table up for a week
 * reopens each morning.
 */
import type { Logger } from '../../log.ts';
import { type Extension, type ExtensionContext, Teardown } from './extension.ts';

const DAY_MS = 86_400_000;

/** Milliseconds from `now` to the start of the next UTC day (never 0: at midnight, the next one). */
export function msToNextUtcDay(now: number): number {
  return DAY_MS - (((now % DAY_MS) + DAY_MS) % DAY_MS);
}

export class GamingDayExtension implements Extension {
  readonly name = 'gaming-day';
  private readonly teardown = new Teardown();
  private log: Logger | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `reopenIfNewDay` journals the reopen when the table is closed since an earlier day, and says whether it did. */
  constructor(private readonly reopenIfNewDay: (now: number) => Promise<boolean>) {}

  async start({ clock, log }: ExtensionContext): Promise<void> {
    this.log = log;
    const schedule = () => {
      this.timer = setTimeout(() => {
        this.reopenIfNewDay(clock())
          .then((reopened) => {
            if (reopened) log.info('a new gaming day: the closed table opens again');
          })
          .catch((error: unknown) =>
            log.error({ err: error }, 'the new gaming day could not reopen the table'),
          )
          .finally(() => {
            if (this.timer !== undefined) schedule();
          });
        // A timer may fire a little early: the reopen checks the day itself, and the
        // next timer is set from the clock again, so an early firing only costs a check.
      }, msToNextUtcDay(clock()));
      this.timer.unref();
    };
    schedule();
    this.teardown.add(() => {
      clearTimeout(this.timer);
      this.timer = undefined;
    });
  }

  async stop(): Promise<void> {
    if (this.log) await this.teardown.run(this.log);
  }
}
