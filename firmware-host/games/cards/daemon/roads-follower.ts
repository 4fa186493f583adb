/**
 * Keeps the scoreboard roads of the shoe in play, from the journal's events:
 * a new shoe clears them, each Punto Banco result adds its coup (with the
 * pairs its cards show). Fed the replayed events at start and each durable
 * batch after, so the roads survive a restart exactly like the table does.
 */
import type { JournalRecord } from '../../../journal/record.ts';
import type { DomainEvent } from '../../../table/events.ts';
import { type Coup, computeRoads, coupFromOutcome, type Roads } from '../baccarat/roads.ts';

export class RoadsFollower {
  private coups: Coup[] = [];
  private cached: Roads | undefined;
  /** The seq of the last event that changed the roads. */
  private changedAt = 0;
  /** The seq of the shoe in play's `shoe_start` (0 before the first). */
  private shoeStart = 0;

  /** Follows records in journal order; true when the roads changed. */
  follow(records: Iterable<JournalRecord>): boolean {
    let changed = false;
    for (const record of records) {
      if (record.kind !== 'event') continue;
      const event = record.data as DomainEvent;
      if (event.type === 'shoe_start') {
        this.coups = [];
        this.shoeStart = record.seq;
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

  get shoeStartSeq(): number {
    return this.shoeStart;
  }

  roads(): Roads {
    this.cached ??= computeRoads(this.coups);
    return this.cached;
  }

  /** What the retained `roads` topic and the console carry. */
  payload(): Record<string, unknown> {
    return { seq: this.changedAt, ...this.roads() };
  }
}
