/**
 * What a forger on a paired line writes to the host: cards without a MAC,
 * with the MAC of a key of no session, genuine lines of the shoe replayed as
 * they were, and genuine lines with their card changed and their CRC made
 * right (only the MAC can tell). Forged cards have blue backs: the shoe
 * deals only red ones, so one in the journal shows.
 */
import { sealLine } from '../../../device-protocol/auth/frame-mac.ts';
import { encodeFrame, parseFrameLine } from '../../../device-protocol/frame.ts';
import { type CardMessage, type Message, messageFrame } from '../../../device-protocol/messages.ts';
import type { Random } from '../../../simulators/random.ts';
import { card } from '../../property/protocol/window-drill.ts';

export interface Forgery {
  readonly line: string;
  /** False for a genuine line replayed as it was (delivering it again shows as a card journaled twice). */
  readonly forged: boolean;
}

/** One burst of one to three lines; `genuine` holds the shoe's sealed CARD lines so far. */
export function forgeries(
  random: Random,
  genuine: readonly string[],
  rogueKey: Uint8Array,
): Forgery[] {
  const forgedCard = (): Message => card(52 + random.int(52));
  const burst: Forgery[] = [];
  for (let count = 1 + random.int(3); count > 0; count--) {
    const seq = random.int(200);
    const kind = random.int(4);
    if (kind === 0) {
      burst.push({ line: encodeFrame(messageFrame('SH', seq, forgedCard())), forged: true });
      continue;
    }
    if (kind === 1) {
      const line = sealLine(encodeFrame(messageFrame('SH', seq, forgedCard())), rogueKey);
      burst.push({ line, forged: true });
      continue;
    }
    const original = genuine[random.int(Math.max(1, genuine.length))];
    if (original === undefined) continue;
    if (kind === 2) {
      burst.push({ line: original, forged: false });
      continue;
    }
    const event = parseFrameLine(original);
    if (event.kind !== 'frame') continue;
    const fields = [...event.frame.fields];
    fields[0] = (card(52 + random.int(52)) as CardMessage).card;
    fields[1] = 'blue';
    burst.push({ line: encodeFrame({ ...event.frame, fields }), forged: true });
  }
  return burst;
}
