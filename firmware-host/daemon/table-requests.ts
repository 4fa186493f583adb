/**
 * The table's requests (MQTT, the web console, the dealer's lid): validated
 * where they come in, here they become table-log records ingested through the
 * core. A request of another game's table is refused by name, and a request
 * the session would answer with an alarm changes nothing (`refuseIrregular`).
 */

import {
  allRulesetNames,
  findGameOf,
  gameOfRequest,
  rulesetChangeRefusal,
} from '../games/registry.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { Logger } from '../log.ts';
import type { BridgeRequest } from '../mqtt/requests.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';
import { DaemonError } from './errors.ts';
import type { TableCore } from './table-core.ts';

export class TableRequests {
  constructor(
    private readonly core: TableCore,
    private readonly log: Logger,
    /** What `health_check` answers. */
    private readonly health: () => unknown,
  ) {}

  /** MQTT requests: validated by the bridge; here they become table-log records. */
  async handle(request: BridgeRequest, signer?: string): Promise<unknown> {
    // Journaled with who signed it: `mqtt:<supervisor>`.
    const src = signer === undefined ? 'mqtt' : `mqtt:${signer}`;
    switch (request.op) {
      case 'health_check':
        return this.health();
      case 'new_shoe':
        this.requireRequest('new_shoe');
        return this.summarise(await this.newShoe(request.reason ?? 'requested over MQTT', src));
      case 'set_ruleset':
        return this.setRuleset(request.ruleset, src);
      default:
        this.requireRequest(request.op);
        return this.summarise(await this.ingestChecked(recordOf(request, src)));
    }
  }

  /** A new shoe from the ruleset's defaults (a shoe without a card-reading shuffler). */
  newShoe(reason: string, src = 'daemon'): Promise<readonly JournalRecord[]> {
    // A game without shoes (roulette) is refused by name; its plug-in has no shuffle to give.
    const game = this.core.game;
    try {
      this.requireRequest('new_shoe');
    } catch (error) {
      return Promise.reject(error);
    }
    if (!game.nextShuffle) {
      return Promise.reject(
        new DaemonError(
          'refused',
          `a ${game.tableNoun} has no shoe; this table plays ${this.core.ruleset}`,
        ),
      );
    }
    this.log.info({ reason, src }, 'new shoe');
    return this.core.ingest({ ...game.nextShuffle(this.core.session), src });
  }

  /** Changes the ruleset between shoes; `src` (who asked: `mqtt`, `mqtt:<supervisor>`, `web:<user>`) is journaled with it. */
  setRuleset(name: string, src = 'mqtt'): Promise<Record<string, unknown>> {
    const owner = findGameOf(name);
    if (owner === undefined) {
      return Promise.reject(
        new DaemonError(
          'unknown_ruleset',
          `unknown ruleset ${JSON.stringify(name)}; known: ${allRulesetNames().join(', ')}`,
        ),
      );
    }
    // A table plays one game for the life of its journal: the start refuses another game's
    // ruleset by the same rule (journal-resume).
    const refusal = rulesetChangeRefusal(this.core.ruleset, name);
    if (refusal !== undefined) {
      return Promise.reject(
        new DaemonError(
          'other_game',
          `${refusal}: another game needs its own table (a new journal.dir)`,
        ),
      );
    }
    return this.core.setRuleset(name, src);
  }

  /** A request of another game's table is refused, naming the table's ruleset. */
  private requireRequest(op: string): void {
    if (this.core.game.requestOps.includes(op)) return;
    const owner = gameOfRequest(op);
    throw new DaemonError(
      'refused',
      `${op} is for a ${owner?.tableNoun ?? 'table of another game'}; this table plays ${this.core.ruleset}`,
    );
  }

  /**
   * Applies a request's record on a copy of the session first: a request the
   * session would answer with any alarm is refused and changes nothing,
   * journal included (`TableCore.ingest`'s `refuseIrregular`).
   */
  private ingestChecked(record: TableLogRecord): Promise<readonly JournalRecord[]> {
    return this.core.ingest(record, { refuseIrregular: true });
  }

  private summarise(records: readonly JournalRecord[]): Record<string, unknown> {
    return {
      seq: records.at(-1)?.seq ?? this.core.lastSeq,
      events: records.filter((r) => r.kind === 'event').map((r) => (r.data as DomainEvent).type),
      expecting: this.core.session.expecting().text,
    };
  }
}

type RecordRequest = Exclude<BridgeRequest, { op: 'health_check' | 'new_shoe' | 'set_ruleset' }>;

/** The table-log record a request stands for, journaled with who asked (`src`). */
function recordOf(request: RecordRequest, src: string): TableLogRecord {
  switch (request.op) {
    case 'new_round':
      return {
        t: 'round',
        src,
        ...(request.boxes ? { boxes: request.boxes } : {}),
        ...(request.stakes ? { stakes: request.stakes } : {}),
      };
    case 'player_action':
      return {
        t: 'action',
        src,
        action: request.action,
        ...(request.box === undefined ? {} : { box: request.box }),
        ...(request.cards ? { cards: request.cards } : {}),
      };
    case 'void_hand':
      return { t: 'void', src, reason: request.reason };
    case 'no_more_bets':
      return { t: 'no_more_bets', src };
    case 'closing':
      return { t: 'closing', src };
    case 'reopen':
      return { t: 'reopen', src, reason: request.reason };
  }
}
