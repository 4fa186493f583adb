/**
 * The dealer console's hosted firmware: buttons in, table-log records out;
 * domain events in, light states and buzzer patterns out. No I/O and no
 * clock (time comes in as `now`), and no game logic: it never decides a
 * round, a misdeal or a draw, it shows what the table session decided.
 *
 * Buttons (newRound, voidHand held for longPressMs, confirm) mean what the
 * table's game makes of them (its plug-in's `consolePress`, handed in as
 * `behaviour.press`): a round, a void and the dealer's "next" at a card
 * table, "no more bets" and closing time at a roulette table. A short press
 * of voidHand is never the held one: voiding by a brush of the sleeve is
 * worse than one more second.
 *
 * Lights:
 *   playerDraws / bankerDraws  the next card awaited is a draw for that side
 *   lastHand                   from `last_hand` until the shoe ends or a new one starts
 *   alarm                      blinks after an alarm, a voided hand or a required reshuffle,
 *                              until the next round or shoe starts
 *   deviceFault                while any device is unavailable, quarantined (refused unpaired too),
 *                              faulted or stalled
 */
import type {
  ButtonName,
  BuzzPattern,
  LightName,
  LightState,
  Lights,
} from '../../hardware/console/types.ts';
import type { NextStep } from '../engine/types.ts';
import type { DomainEvent } from '../table/events.ts';
import type { TableLogRecord } from '../table/log.ts';

export type { ButtonName, BuzzPattern, LightName, LightState, Lights };

export interface ConsoleOutput {
  records: TableLogRecord[];
  buzz: BuzzPattern[];
  /** The full light state after this input (compare or just apply). */
  lights: Lights;
}

/** What one press makes at the table: the records to journal and the buzz (the game's plug-in says). */
export type ConsolePressing = (
  button: ButtonName,
  long: boolean,
  at: { readonly ts: number; readonly src: string },
) => { readonly records: TableLogRecord[]; readonly buzz: BuzzPattern[] };

export interface ConsoleBehaviour {
  /** Presses shorter than this, and bounces within it after a release, are contact noise. */
  debounceMs: number;
  /** How long voidHand must be held. */
  longPressMs: number;
  /** `src` of the records the console produces. */
  source: string;
  /** What a press makes at the table's game (its plug-in's `consolePress`). */
  press: ConsolePressing;
}

export const DEFAULT_CONSOLE_BEHAVIOUR: ConsoleBehaviour = {
  debounceMs: 30,
  longPressMs: 1500,
  source: 'console',
  // A console not told its table's game makes no record: every press is refused.
  press: () => ({ records: [], buzz: ['refuse'] }),
};

const ALL_OFF: Lights = {
  playerDraws: 'off',
  bankerDraws: 'off',
  lastHand: 'off',
  alarm: 'off',
  deviceFault: 'off',
};

/**
 * Baccarat deals Player, Banker, Player, Banker before any draw (003 § 24
 * item 3.b; 004): a card due to a side that already holds two is a draw.
 */
const CARDS_BEFORE_A_DRAW = 2;

interface ButtonTrack {
  downAt: number | undefined;
  /** When the last accepted release happened (for bounce after release). */
  upAt: number | undefined;
  longFired: boolean;
}

export class DealerConsoleLogic {
  readonly behaviour: ConsoleBehaviour;
  private readonly buttons: Record<ButtonName, ButtonTrack> = {
    newRound: { downAt: undefined, upAt: undefined, longFired: false },
    voidHand: { downAt: undefined, upAt: undefined, longFired: false },
    confirm: { downAt: undefined, upAt: undefined, longFired: false },
  };
  private cardsTo = { player: 0, banker: 0 };
  private awaiting: NextStep | undefined;
  private lastHand = false;
  private alarmLatched = false;
  private readonly unavailable = new Set<string>();
  private readonly faulted = new Set<string>();

  constructor(behaviour: Partial<ConsoleBehaviour> = {}) {
    this.behaviour = { ...DEFAULT_CONSOLE_BEHAVIOUR, ...behaviour };
  }

  lights(): Lights {
    const lights: Lights = { ...ALL_OFF };
    const step = this.awaiting;
    if (step?.kind === 'card' && (step.to === 'player' || step.to === 'banker')) {
      if (this.cardsTo[step.to] >= CARDS_BEFORE_A_DRAW) {
        lights[step.to === 'player' ? 'playerDraws' : 'bankerDraws'] = 'on';
      }
    }
    if (this.lastHand) lights.lastHand = 'on';
    if (this.alarmLatched) lights.alarm = 'blink';
    if (this.unavailable.size > 0 || this.faulted.size > 0) lights.deviceFault = 'on';
    return lights;
  }

  /** The raw contact closed (after the board's own few-ms debounce). */
  buttonDown(button: ButtonName, now: number): ConsoleOutput {
    const track = this.buttons[button];
    if (track.downAt !== undefined) return this.output();
    if (track.upAt !== undefined && now - track.upAt < this.behaviour.debounceMs) {
      return this.output();
    }
    track.downAt = now;
    track.longFired = false;
    return this.output();
  }

  buttonUp(button: ButtonName, now: number): ConsoleOutput {
    const track = this.buttons[button];
    const downAt = track.downAt;
    if (downAt === undefined) return this.output();
    // A blip shorter than the debounce is noise: forget it, as if never pressed.
    if (now - downAt < this.behaviour.debounceMs) {
      track.downAt = undefined;
      return this.output();
    }
    const out = this.tick(now);
    track.downAt = undefined;
    track.upAt = now;
    if (track.longFired) return out;
    return merge(out, this.press(button, now - downAt >= this.behaviour.longPressMs, now));
  }

  /** Call every ~50 ms: fires long presses while the button is still held (the dealer hears it). */
  tick(now: number): ConsoleOutput {
    const out = this.output();
    for (const button of ['voidHand'] as const) {
      const track = this.buttons[button];
      if (
        track.downAt !== undefined &&
        !track.longFired &&
        now - track.downAt >= this.behaviour.longPressMs
      ) {
        track.longFired = true;
        const fired = this.press(button, true, now);
        out.records.push(...fired.records);
        out.buzz.push(...fired.buzz);
      }
    }
    out.lights = this.lights();
    return out;
  }

  /** A domain event from the table session. */
  event(event: DomainEvent): ConsoleOutput {
    const buzz: BuzzPattern[] = [];
    switch (event.type) {
      case 'shoe_start':
        this.lastHand = false;
        this.alarmLatched = false;
        this.resetRound();
        break;
      case 'round_start':
        this.alarmLatched = false;
        this.resetRound();
        break;
      case 'card':
        if (event.to === 'player' || event.to === 'banker') this.cardsTo[event.to]++;
        break;
      case 'result':
        this.awaiting = undefined;
        break;
      case 'last_hand':
        this.lastHand = true;
        buzz.push('ack');
        break;
      case 'shoe_end':
        this.lastHand = false;
        this.awaiting = undefined;
        break;
      case 'hand_voided':
      case 'reshuffle_required':
        this.alarmLatched = true;
        this.awaiting = undefined;
        buzz.push('alarm');
        break;
      case 'alarm':
        if (
          event.kind === 'link_resumed' ||
          event.kind === 'device_requalified' ||
          event.kind === 'device_reachable' ||
          event.kind === 'line_attack_ended'
        ) {
          // A stalled device's events flow again, a quarantined one proved its key again, an
          // unreachable one's line is open again, or an attack on its line ended with it
          // proven: its light goes out, nothing to act on.
          this.faulted.delete(typeof event.device === 'string' ? event.device : 'device');
          break;
        }
        if (
          event.kind === 'device_fault' ||
          event.kind === 'device_quarantined' ||
          event.kind === 'link_stalled' ||
          event.kind === 'device_unreachable' ||
          // Within an attack only its first quarantine is alarmed: the minute's count says it.
          (event.kind === 'line_attack_counted' && event.quarantined === true) ||
          // Refused for want of a pairing: nothing it sends is dealt, as for a quarantine. On
          // a bench that allows it (`dealt`), its cards are dealt: an alarm, not a fault.
          (event.kind === 'device_unpaired' && event.dealt === false)
        ) {
          const device = typeof event.device === 'string' ? event.device : 'device';
          this.faulted.add(device);
        } else {
          this.alarmLatched = true;
        }
        buzz.push('alarm');
        break;
    }
    return { records: [], buzz, lights: this.lights() };
  }

  /** What the table session awaits next (engine `next()`), after each event it handled. */
  nextStep(step: NextStep | undefined): ConsoleOutput {
    this.awaiting = step;
    return this.output();
  }

  /** A device's availability (the driver's view). Coming back clears its fault. */
  deviceAvailability(device: string, available: boolean): ConsoleOutput {
    if (available) {
      this.unavailable.delete(device);
      this.faulted.delete(device);
    } else {
      this.unavailable.add(device);
    }
    return this.output();
  }

  private press(button: ButtonName, long: boolean, now: number): ConsoleOutput {
    const made = this.behaviour.press(button, long, { ts: now, src: this.behaviour.source });
    return { records: [...made.records], buzz: [...made.buzz], lights: this.lights() };
  }

  private resetRound(): void {
    this.cardsTo = { player: 0, banker: 0 };
    this.awaiting = undefined;
  }

  private output(): ConsoleOutput {
    return { records: [], buzz: [], lights: this.lights() };
  }
}

function merge(a: ConsoleOutput, b: ConsoleOutput): ConsoleOutput {
  return { records: [...a.records, ...b.records], buzz: [...a.buzz, ...b.buzz], lights: b.lights };
}
