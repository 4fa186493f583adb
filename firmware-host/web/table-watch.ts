/**
 * What the console keeps of the table between requests: the feeds' change
 * listeners (woken by every journaled batch), the last 50 notices
 * (recovery, refused requests, devices coming and going) for the Devices
 * page, and the watch the table's game keeps for its view, asked of its
 * plug-in (`webWatch`: a wheel's last spins, hot and cold numbers, bias).
 */

import type { GameWebWatch } from '../games/game.ts';
import { gameOf } from '../games/registry.ts';
import type { Notice } from './devices-report.ts';
import type { FeedSource } from './feed.ts';
import { HttpError } from './http.ts';
import type { ConsolePort } from './port.ts';

const KEPT_NOTICES = 50;

export class TableWatch {
  readonly notices: Notice[] = [];
  private readonly changeListeners = new Set<() => void>();
  private readonly unsubscribe: Array<() => void>;
  /** The watch the table's game keeps for its view; undefined where its feed is enough. */
  readonly game: GameWebWatch | undefined;

  constructor(
    private readonly port: ConsolePort,
    private readonly clock: () => number,
    onGameWatchError: (error: unknown) => void = () => {
      // No log given (unit tests): the watch shows nothing until the journal reads again.
    },
  ) {
    const changed = () => {
      for (const listener of this.changeListeners) listener();
    };
    this.game = gameOf(port.ruleset).webWatch({
      ruleset: () => port.ruleset,
      onLoaded: changed,
      onError: onGameWatchError,
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
    this.game?.attach(journal);
    return {
      journal,
      snapshot: () => this.port.snapshot(),
      published: () => this.port.published(),
      // The feed sends the game watch's frame as `wheel` (feed.ts), the one game that keeps one.
      wheel: () => this.game?.payload(),
      onChange: (listener) => {
        this.changeListeners.add(listener);
        return () => this.changeListeners.delete(listener);
      },
    };
  }

  stop(): void {
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.game?.stop();
  }

  private remember(level: string, message: string): void {
    this.notices.push({ ts: this.clock(), level, message });
    if (this.notices.length > KEPT_NOTICES) this.notices.shift();
  }
}
