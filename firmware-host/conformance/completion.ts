/**
 * When the device's report is whole, per talker (§ 7.2-7.5): what the
 * messages check waits for after the withheld event is ACKed.
 */
import { type DeviceTalker, encodeFrame, type Frame } from '../../device-protocol/frame.ts';
import { decodeMessage } from '../../device-protocol/messages.ts';

/** When a talker's report is whole (§ 7.2-7.4, § 7.5): the detail to print, or undefined. */
export function completion(talker: DeviceTalker): {
  what: string;
  done: (frames: readonly Frame[]) => string | undefined;
} {
  const first = (frames: readonly Frame[], types: readonly string[]) =>
    frames.find((frame) => types.includes(frame.type) && decodeMessage(frame).kind === 'message');
  // The latest card or tag: the one the device went on to after the withheld one.
  const latest = (frames: readonly Frame[], types: readonly string[]) =>
    frames.findLast(
      (frame) => types.includes(frame.type) && decodeMessage(frame).kind === 'message',
    );
  switch (talker) {
    case 'SH':
      return {
        what: 'CARD (or FOREIGN, NOTAG) from the shoe',
        done: (frames) => {
          const card = latest(frames, ['CARD', 'FOREIGN', 'NOTAG']);
          return card ? `${encodeFrame(card).trimEnd()}` : undefined;
        },
      };
    case 'RD':
      return {
        what: 'CARD or TAG from the reader',
        done: (frames) => {
          const read = latest(frames, ['CARD', 'TAG']);
          return read ? `${encodeFrame(read).trimEnd()}` : undefined;
        },
      };
    case 'RW':
      return {
        what: 'RESULT (or NOSPIN) from the wheel',
        done: (frames) => {
          const end = first(frames, ['RESULT', 'NOSPIN']);
          if (end === undefined) return undefined;
          const before = frames.slice(0, frames.indexOf(end)).map((frame) => frame.type);
          const spin = ['ROTOR', 'BALL'].filter((type) => before.includes(type));
          return `${[...spin, end.type].join(', ')}: ${encodeFrame(end).trimEnd()}`;
        },
      };
    case 'SF':
      return {
        what: 'SHUFFLED (or SHUFFLED2) with its ORDER chunks from the shuffler',
        done: (frames) => shuffleDone(frames),
      };
  }
}

/** A SHUFFLED whose ORDER chunks (if it said `order`) cover positions 0 to count-1 once (§ 7.3). */
function shuffleDone(frames: readonly Frame[]): string | undefined {
  const seen = new Set<number>();
  const unique = frames.filter((frame) => {
    if (seen.has(frame.seq)) return false;
    seen.add(frame.seq);
    return true;
  });
  for (const [index, frame] of unique.entries()) {
    if (frame.type !== 'SHUFFLED' && frame.type !== 'SHUFFLED2') continue;
    if (decodeMessage(frame).kind !== 'message') continue;
    const count = Number(frame.fields[0]);
    const withOrder = frame.fields[1] === 'order';
    if (!withOrder) return `${frame.type} of ${count} cards, no order`;
    let covered = 0;
    for (const chunk of unique.slice(index + 1)) {
      if (chunk.type !== 'ORDER') continue;
      if (Number(chunk.fields[0]) !== covered) break;
      covered += chunk.fields.length - 1;
      if (covered >= count) {
        return `${frame.type} of ${count} cards with ORDER chunks covering 0-${count - 1}`;
      }
    }
  }
  return undefined;
}
