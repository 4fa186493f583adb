/**
 * What the console keeps of the table between requests: the feeds' change
 * listeners (woken by every journaled batch) and the last 50 notices
 * (recovery, refused requests, devices coming and going) for the Devices page.
 */

import { WheelWatch } from '../games/roulette/web/wheel-watch.ts';
import type { Notice } from './devices-report.ts';
import type { FeedSource } from './feed.ts';
import { HttpError } from './http.ts';
import type { ConsolePort } from './port.ts';
import { rouletteRulesetOf } from './table-view.ts';

const KEPT_NOTICES = 50;

export class TableWatch {
  readonly notices: Notice[] = [];
  private readonly changeListeners = new Set<() => void>();
  private readonly unsubscribe: Array<() => void>;
  /** The wheel watch of a roulette table (wheel-watch.ts): last spins, hot and cold, bias verdicts. */
  readonly wheel: WheelWatch;

  constructor(
    private readonly port: ConsolePort,
    private readonly clock: () => number,
    onWheelError: (error: unknown) => void = () => {
      // No log given (unit tests): the watch shows nothing until the journal reads again.
    },
  ) {
    const changed = () => {
      for (const listener of this.changeListeners) listener();
    };
    this.wheel = new WheelWatch({
      ruleset: () => rouletteRulesetOf(port.ruleset),
      onLoaded: changed,
      onError: onWheelError,
    });
    this.unsubscribe = [
      port.subscribe('journaled', changed),
      port.subscribe('notice', (level, message) => this.remember(level, message)),
      port.subscribe('availability', (device, availability, reason) =>
        this.remember(
          availability === 'online' ? 'info' : 'warn',
          `${device}: ${availability} (${reason})`,
        ),
      ),
    ];
  }

  /** The journal and table a feed reads; 503 until the journal is open. */
  source(): FeedSource {
    const journal = this.port.journalFeed;
    if (!journal) throw new HttpError(503, 'not_ready', 'the journal is not open yet');
    this.wheel.attach(journal);
    return {
      journal,
      snapshot: () => this.port.snapshot(),
      published: () => this.port.published(),
      wheel: () => this.wheel.payload(),
      onChange: (listener) => {
        this.changeListeners.add(listener);
        return () => this.changeListeners.delete(listener);
      },
    };
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.wheel.stop();
  }

  private remember(level: string, message: string): void {
    this.notices.push({ ts: this.clock(), level, message });
    if (this.notices.length > KEPT_NOTICES) this.notices.shift();
  }
}
