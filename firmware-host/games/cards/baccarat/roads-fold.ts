/**
 * Keeps the scoreboard roads of the shoe in play, from the journal's events:
 * a new shoe clears them, each Punto Banco result adds its coup (with the
 * pairs its cards show). Fed the replayed events at start and each durable
 * batch after, so the roads survive a restart exactly like the table does.
 * The daemon publishes it as `roads` (retained on MQTT, a frame of the
 * console's feed) at a table whose ruleset keeps roads.
 */
import type { DomainEvent } from '../../../table/events.ts';
import type { FoldedRecord, PublishedFold } from '../../game.ts';
import { type Coup, computeRoads, coupFromOutcome, type Roads } from './roads.ts';

export class RoadsFold implements PublishedFold {
  readonly name = 'roads';
  private coups: Coup[] = [];
  private cached: Roads | undefined;
  /** The seq of the last event that changed the roads. */
  private changedAt = 0;

  /** `keepsRoads`: whether a ruleset's table shows them (practice: baccarat's do). */
  constructor(private readonly keepsRoads: (ruleset: string) => boolean) {}

  /** Follows records in journal order; true when the roads changed. */
  follow(records: Iterable<FoldedRecord>): boolean {
    let changed = false;
    for (const record of records) {
      if (record.kind !== 'event') continue;
      const event = record.data as DomainEvent;
      if (event.type === 'shoe_start') {
        this.coups = [];
      } else if (event.type === 'result') {
        const coup = coupFromOutcome(event.outcome);
        if (!coup) continue;
        this.coups.push(coup);
      } else {
        continue;
      }
      this.changedAt = record.seq;
      this.cached = undefined;
      changed = true;
    }
    return changed;
  }

  roads(): Roads {
    this.cached ??= computeRoads(this.coups);
    return this.cached;
  }

  /** What the retained `roads` topic and the console carry; undefined where the ruleset keeps none. */
  payload(ruleset: string): Record<string, unknown> | undefined {
    return this.keepsRoads(ruleset) ? { seq: this.changedAt, ...this.roads() } : undefined;
  }
}
