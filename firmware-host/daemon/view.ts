/**
 * The live terminal view of `tableside run`: what a technician standing at
 * the table wants to see at a glance. `renderView` is pure (model → lines);
 * `TerminalView` keeps the model from the daemon's bus and redraws at most a
 * few times a second on a TTY, or prints lines elsewhere: one per event
 * (`--no-view`), or under systemd or a pipe only the alarms among them.
 */
import { pairingPolicyOf } from '../config/schema.ts';
import { UNPAIRED_QUARANTINE } from '../drivers/driver.ts';
import { eventTextOf, findGameOf, resultWordsOf } from '../games/registry.ts';
import type { JournalRecord } from '../journal/record.ts';
import type { DomainEvent } from '../table/events.ts';
import type { DeviceLineChange } from './bus.ts';
import type { TableDaemon } from './table-daemon.ts';

export interface ViewModel {
  table: string;
  ruleset: string;
  broker: { url: string; connected: boolean; detail: string };
  devices: Record<string, ViewDevice>;
  snapshot: Record<string, unknown>;
  expecting: string;
  lastSeq: number;
  recentCards: string[];
  results: string[];
  alarms: string[];
  notices: string[];
  subscribe: string;
}

export interface ViewDevice {
  availability: string;
  reason: string;
  /** Why its frames are refused now (the driver's quarantine); absent when they are not. */
  quarantined?: string;
  /** Unpaired and allowed to deal on a bench (`devices.<name>.unpaired: allow`). */
  bench?: boolean;
}

const MAX_RESULTS = 6;
const MAX_ALARMS = 5;
const MAX_CARDS = 8;

/** One line for an event, for logs and the lists of the view. */
export function describeEvent(event: DomainEvent): string {
  switch (event.type) {
    case 'card':
      return `${event.face === 'down' ? '▒▒' : event.card} → ${event.to}`;
    case 'result':
      // The game's own sentences (its plug-in's), as the web console words them.
      return `round ${event.round}: ${(resultWordsOf(event) ?? ['Settled.']).join(' ')}`;
    case 'alarm':
      return `${event.kind}: ${event.message}`;
    case 'hand_voided':
      return `hand voided (${Array.isArray(event.boxes) ? `boxes ${event.boxes.join(',')}` : 'all'}): ${event.reason}`;
    case 'reshuffle_required':
      return `reshuffle required: ${event.reason}`;
    case 'shoe_start':
      return `new shoe: ${event.decks} deck(s), ${event.backs.join('/')} backs, ${event.cards} cards`;
    case 'shoe_end':
      return `shoe ended: ${event.reason}`;
    case 'last_hand':
      return `last hand: ${event.reason}`;
    case 'round_start':
      return `round ${event.round} started${event.boxes ? ` (boxes ${event.boxes.join(',')})` : ''}`;
    default:
      // A game's own events (a wheel's spins, closing time) in its plug-in's words.
      return eventTextOf(event);
  }
}

/**
 * Why a device's line is not open and when it is tried again (the OS's error
 * names the path; a dropped line's reason may not, so the address is added);
 * undefined for a change that says nothing new (opening, open).
 */
export function describeLineWait(change: DeviceLineChange): string | undefined {
  const reason = change.reason.includes(change.url.replace(/^[a-z]+:\/\//, ''))
    ? change.reason
    : `${change.url}: ${change.reason}`;
  if (change.state === 'failed') return `given up: ${reason}`;
  if (change.state !== 'reopening') return undefined;
  const wait = change.delayMs === undefined ? '' : `; next try in ${secondsOf(change.delayMs)}`;
  return `${reason}${wait} (attempt ${change.attempt})`;
}

function secondsOf(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A device's line: connected or not, and whether the table takes what it sends. */
function deviceLine(name: string, device: ViewDevice): string {
  const online = device.availability === 'online';
  const state = `${device.availability}${device.reason ? ` (${device.reason})` : ''}`;
  const quarantined = device.quarantined;
  if (online && quarantined !== undefined) {
    // Connected but refused: nothing it sends is dealt, whatever its link says.
    const why = quarantined.startsWith(UNPAIRED_QUARANTINE)
      ? `UNPAIRED, REFUSED: ${quarantined.slice(UNPAIRED_QUARANTINE.length)}`
      : `QUARANTINED: ${quarantined}`;
    return `  ✕ ${name.padEnd(10)} ${why}`;
  }
  const unpaired =
    online && device.bench ? ' · unpaired: its cards are not authenticated (a bench)' : '';
  return `  ${online ? '●' : '○'} ${name.padEnd(10)} ${state}${unpaired}`;
}

export function renderView(model: ViewModel): string[] {
  const rule = '─'.repeat(64);
  const devices = Object.entries(model.devices).map(([name, device]) => deviceLine(name, device));
  return [
    `tableside — table ${model.table} — ${model.ruleset}`,
    rule,
    `broker  ${model.broker.connected ? '● connected' : '○ not connected'}  ${model.broker.url}${model.broker.detail && !model.broker.connected ? ` (${model.broker.detail})` : ''}`,
    'devices',
    ...(devices.length > 0 ? devices : ['  (none configured)']),
    rule,
    // The table as its game draws it (the shoe and the hand, the wheel's game).
    ...(findGameOf(model.ruleset)?.viewLines(model.snapshot) ?? []),
    `next: ${model.expecting}`,
    // The cards met since the start, where the table has met any.
    ...(model.recentCards.length > 0 ? [`cards: ${model.recentCards.join('  ')}`] : []),
    rule,
    'results',
    ...(model.results.length > 0 ? model.results.map((line) => `  ${line}`) : ['  —']),
    'alarms',
    ...(model.alarms.length > 0 ? model.alarms.map((line) => `  ! ${line}`) : ['  none']),
    ...(model.notices.length > 0 ? ['notices', ...model.notices.map((line) => `  ${line}`)] : []),
    rule,
    `journal seq ${model.lastSeq}   watch: ${model.subscribe}`,
    'Ctrl-C stops the table cleanly.',
  ];
}

function push(list: string[], line: string, max: number): void {
  list.push(line);
  if (list.length > max) list.splice(0, list.length - max);
}

export interface TerminalViewOptions {
  daemon: TableDaemon;
  out: NodeJS.WriteStream;
  /** Redraw in place (a TTY); otherwise one line per event. */
  live: boolean;
  /**
   * Which events get a line when not live (default all): `alarms` under
   * systemd or a pipe, where a line per card is a journald record each.
   */
  eventLines?: 'all' | 'alarms';
  /** Where the logs go while the view owns the terminal (shown in its footer). */
  logFile?: string;
}

export class TerminalView {
  private readonly model: ViewModel;
  private readonly daemon: TableDaemon;
  private readonly out: NodeJS.WriteStream;
  private readonly live: boolean;
  private readonly eventLines: 'all' | 'alarms';
  private readonly logFile: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dirty = true;
  /** The reason line mode last printed for each device whose line is not open. */
  private readonly lineReasons = new Map<string, string>();

  constructor(options: TerminalViewOptions) {
    this.daemon = options.daemon;
    this.out = options.out;
    this.live = options.live;
    this.eventLines = options.eventLines ?? 'all';
    this.logFile = options.logFile;
    const { config } = options.daemon;
    this.model = {
      table: config.table,
      ruleset: options.daemon.ruleset,
      broker: { url: options.daemon.brokerAddress, connected: false, detail: '' },
      devices: Object.fromEntries(
        Object.entries(config.devices).map(([name, device]) => [
          name,
          {
            availability: 'offline',
            reason: 'starting',
            ...(pairingPolicyOf(device) === 'bench' ? { bench: true } : {}),
          },
        ]),
      ),
      snapshot: {},
      expecting: '',
      lastSeq: 0,
      recentCards: [],
      results: [],
      alarms: [],
      notices: [],
      subscribe: '',
    };
  }

  start(): void {
    const { daemon } = this;
    const url = new URL(daemon.brokerAddress.replace(/^mqtts?:/, 'http:'));
    this.model.broker.url = daemon.brokerAddress;
    this.model.broker.connected = daemon.brokerConnected;
    for (const status of daemon.deviceStatus()) {
      const line = status.line;
      const wait =
        line &&
        describeLineWait({
          state: status.link,
          reason: line.reason,
          attempt: line.attempt,
          url: status.url,
          ...(line.nextTryInMs === undefined ? {} : { delayMs: line.nextTryInMs }),
        });
      this.setAvailability(status.name, status.availability, wait ?? status.link);
    }
    this.model.subscribe = `mosquitto_sub -h ${url.hostname} -p ${url.port || 1883} -t '${daemon.config.mqtt.baseTopic}/${daemon.table}/#' -v`;
    // The live view redraws the screen: the console's address stays in it rather than scroll away.
    if (daemon.webAddress) this.model.subscribe += `   web console: ${daemon.webAddress}`;
    if (daemon.webLoginLink)
      this.model.subscribe += `\nsupervisor login (once): ${daemon.webLoginLink}`;
    if (this.logFile) this.model.subscribe += `\nlogs: ${this.logFile}`;
    daemon.on('journaled', (records) => this.onRecords(records));
    daemon.on('availability', (device, availability, reason) => {
      this.setAvailability(device, availability, reason);
      this.line(`device ${device} ${availability} (${reason})`);
    });
    daemon.on('deviceLine', (device, change) => this.lineChanged(device, change));
    daemon.on('broker', (connected, detail) => {
      this.model.broker.connected = connected;
      this.model.broker.detail = detail;
      this.line(connected ? `broker connected ${detail}` : `broker lost: ${detail}`);
    });
    daemon.on('notice', (level, message) => {
      push(this.model.notices, `${level}: ${message}`, 3);
      this.line(`${level}: ${message}`);
    });
    if (this.live) {
      this.out.write('\x1b[?25l');
      this.timer = setInterval(() => this.draw(), 200);
      this.draw();
    } else {
      this.out.write(`${renderView(this.refresh()).join('\n')}\n`);
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.live) {
      this.draw();
      this.out.write('\x1b[?25h\n');
    }
  }

  /** Availability changes; what the view knows of the device's pairing and quarantine stays. */
  private setAvailability(name: string, availability: string, reason: string): void {
    const device = this.model.devices[name];
    if (device === undefined) this.model.devices[name] = { availability, reason };
    else Object.assign(device, { availability, reason });
  }

  /**
   * An offline device shows why its line is not open and when it is tried
   * again; line mode prints it when the reason changes, not at every retry.
   */
  private lineChanged(name: string, change: DeviceLineChange): void {
    if (change.state === 'open') {
      this.lineReasons.delete(name);
      return;
    }
    const wait = describeLineWait(change);
    const device = this.model.devices[name];
    if (wait === undefined || device === undefined || device.availability === 'online') return;
    device.reason = wait;
    this.dirty = true;
    if (this.lineReasons.get(name) === change.reason) return;
    this.lineReasons.set(name, change.reason);
    if (!this.live) this.out.write(`device ${name} line not open: ${wait}\n`);
  }

  private refresh(): ViewModel {
    this.model.ruleset = this.daemon.ruleset;
    // A quarantine comes and goes with no availability change: read at each redraw.
    for (const status of this.daemon.deviceStatus()) {
      const device = this.model.devices[status.name];
      if (device === undefined) continue;
      if (status.quarantined === undefined) delete device.quarantined;
      else device.quarantined = status.quarantined;
    }
    this.model.snapshot = this.daemon.snapshot();
    this.model.expecting = this.daemon.expecting().text;
    this.model.lastSeq = this.daemon.lastSeq;
    return this.model;
  }

  private onRecords(records: readonly JournalRecord[]): void {
    // One write for the batch: under systemd each write is a journald round trip.
    let text = '';
    for (const record of records) {
      if (record.kind !== 'event') continue;
      const event = record.data as DomainEvent;
      // Not live, the model is drawn only at start: an event no line is printed for costs nothing.
      if (!this.live && this.eventLines === 'alarms' && event.type !== 'alarm') continue;
      const line = describeEvent(event);
      if (event.type === 'card') push(this.model.recentCards, line.replace(' → ', '→'), MAX_CARDS);
      else if (event.type === 'alarm') push(this.model.alarms, line, MAX_ALARMS);
      else if (
        event.type === 'result' ||
        event.type === 'hand_voided' ||
        event.type === 'spin' ||
        event.type === 'game_voided'
      ) {
        push(this.model.results, line, MAX_RESULTS);
      }
      text += `#${record.seq} ${line}\n`;
    }
    this.dirty = true;
    if (text && !this.live) this.out.write(text);
  }

  private line(text: string): void {
    this.dirty = true;
    if (!this.live) this.out.write(`${text}\n`);
  }

  private draw(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const lines = renderView(this.refresh());
    this.out.write(`\x1b[H\x1b[2J${lines.join('\n')}\n`);
  }
}
