/**
 * With `--no-view` `tableside run` prints one line per event; each write to
 * stdout may be a round trip to journald, so the events journaled together
 * are one write. Face-down cards stay hidden.
 */
import { expect, it } from 'vitest';
import type { JournalRecord } from '../../../firmware-host/journal/record.ts';
import { fakeDaemon, lineView } from '../../helpers/terminal-view-daemon.ts';

const record = (seq: number, kind: 'input' | 'event', data: Record<string, unknown>) =>
  ({ seq, ts: 0, kind, data }) as unknown as JournalRecord;
const event = (seq: number, data: Record<string, unknown>) => record(seq, 'event', data);
const cardInput = (seq: number) => record(seq, 'input', { type: 'card' });

it('writes the events of one journaled batch in one write, a line each, inputs left out', () => {
  const daemon = fakeDaemon();
  const { view, writes } = lineView(daemon);
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
