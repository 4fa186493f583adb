/**
 * Under systemd or a pipe (stdout not a TTY, no `--no-view`) `tableside run`
 * prints what an operator reads (the table at start, devices, the broker,
 * notices, alarms) but no line per card: each was a write for the daemon and
 * a journald record on the SD card, for what the journal and MQTT carry.
 * `--no-view` still asks for a line per event, on a terminal or not.
 */
import { expect, it } from 'vitest';
import { terminalViewMode } from '../../../firmware-host/cli/run.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { fakeDaemon, lineView } from '../../helpers/terminal-view-daemon.ts';

const event = (seq: number, data: Record<string, unknown>) =>
  ({ seq, ts: 0, kind: 'event', data }) as unknown as JournalRecord;

it('picks the live view on a terminal, lines with --no-view, and the quiet lines elsewhere', () => {
  expect(terminalViewMode({ asked: true, terminal: true })).toBe('live');
  expect(terminalViewMode({ asked: true, terminal: false })).toBe('quiet');
  expect(terminalViewMode({ asked: false, terminal: false })).toBe('lines');
  expect(terminalViewMode({ asked: false, terminal: true })).toBe('lines');
});

it('prints the alarms, notices, devices and broker of a quiet view, and no card or result', () => {
  const daemon = fakeDaemon();
  const { view, writes } = lineView(daemon, { eventLines: 'alarms' });
  // The table's view once at start, as before: where to subscribe, what it expects.
  expect(writes).toHaveLength(1);
  expect(writes[0]).toContain('mosquitto_sub');
  writes.length = 0;

  daemon.emit('journaled', [
    event(49, { type: 'round_start', round: 3 }),
    event(50, { type: 'card', card: 'KD', to: 'player', face: 'up', index: 0 }),
    event(51, { type: 'result', round: 3, outcome: 'banker' }),
  ]);
  expect(writes).toEqual([]);

  daemon.emit('journaled', [
    event(52, { type: 'card', card: 'QS', to: 'banker', face: 'up', index: 1 }),
    event(53, { type: 'alarm', kind: 'card_illegal', message: 'a fourth card to player' }),
  ]);
  daemon.emit('notice', 'warn', 'journal: cut 12 bytes of a torn record');
  daemon.emit('availability', 'shoe', 'offline', 'link closed');
  daemon.emit('broker', false, 'connection refused');
  expect(writes).toEqual([
    '#53 card_illegal: a fourth card to player\n',
    'warn: journal: cut 12 bytes of a torn record\n',
    'device shoe offline (link closed)\n',
    'broker lost: connection refused\n',
  ]);
  view.stop();
});
