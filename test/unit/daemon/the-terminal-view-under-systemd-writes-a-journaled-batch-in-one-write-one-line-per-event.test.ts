/**
 * Under systemd (stdout not a TTY) `tableside run` prints one line per
 * event; each write to stdout is a round trip to journald, so the events
 * journaled together are one write. Face-down cards stay hidden.
 */
import { EventEmitter } from 'node:events';
import { expect, it } from 'vitest';
import type { TableDaemon } from '../../../firmware-host/daemon/table-daemon.ts';
import { TerminalView } from '../../../firmware-host/daemon/view.ts';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';

function fakeDaemon() {
  return Object.assign(new EventEmitter(), {
    config: {
      table: 't1',
      devices: { shoe: { transport: 'simulate' } },
      mqtt: { baseTopic: 'tableside' },
    },
    table: 't1',
    ruleset: 'tdc-baccarat-no-commission',
    brokerAddress: 'mqtt://127.0.0.1:1883',
    brokerConnected: true,
    webAddress: undefined,
    lastSeq: 0,
    deviceStatus: () => [],
    snapshot: () => ({}),
    expecting: () => ({ text: '' }),
  });
}

const record = (seq: number, kind: 'input' | 'event', data: Record<string, unknown>) =>
  ({ seq, ts: 0, kind, data }) as unknown as JournalRecord;
const event = (seq: number, data: Record<string, unknown>) => record(seq, 'event', data);
const cardInput = (seq: number) => record(seq, 'input', { type: 'card' });

it('writes the events of one journaled batch in one write, a line each, inputs left out', () => {
  const daemon = fakeDaemon();
  const writes: string[] = [];
  const view = new TerminalView({
    daemon: daemon as unknown as TableDaemon,
    out: { write: (text: string) => writes.push(text) } as unknown as NodeJS.WriteStream,
    live: false,
  });
  view.start();
  writes.length = 0;

  daemon.emit('journaled', [
    cardInput(48),
    event(49, { type: 'round_start', round: 3 }),
    event(50, { type: 'card', card: 'KD', to: 'player', face: 'up', index: 0 }),
    event(51, { type: 'card', card: 'QS', to: 'banker', face: 'down', index: 1 }),
  ]);

  expect(writes).toEqual(['#49 round 3 started\n#50 KD → player\n#51 ▒▒ → banker\n']);
  expect(writes.join('')).not.toContain('QS');

  // A batch of inputs only prints nothing.
  daemon.emit('journaled', [cardInput(52)]);
  expect(writes).toHaveLength(1);
  view.stop();
});
