/**
 * A bet slip as `tableside hand --bets` writes it: bets separated by
 * spaces or commas, each `NAME=STAKE` (`straight:17=10 voisins=9`). The
 * name is kept as written: it is the key the settlement reports under.
 */
import { EngineError } from '../../../engine/errors.ts';

export interface SlipLine {
  /** The bet as written before `=`. */
  readonly bet: string;
  /** Whole chips. */
  readonly stake: number;
}

export function parseSlip(text: string): SlipLine[] {
  const items = text.split(/[\s,]+/).filter((item) => item !== '');
  if (items.length === 0)
    throw new EngineError('bad_input', 'no bets: expected NAME=STAKE, as "straight:17=10 red=5"');
  const seen = new Set<string>();
  return items.map((item) => {
    const match = /^([^=]+)=([^=]*)$/.exec(item);
    if (!match)
      throw new EngineError(
        'bad_input',
        `bet ${JSON.stringify(item)}: expected NAME=STAKE, as straight:17=10`,
      );
    const [, bet = '', stakeText = ''] = match;
    if (!/^[1-9][0-9]{0,8}$/.test(stakeText)) {
      throw new EngineError(
        'bad_input',
        `bet ${JSON.stringify(bet)}: the stake ${JSON.stringify(stakeText)} is not a whole number of chips above 0`,
      );
    }
    if (seen.has(bet))
      throw new EngineError('bad_input', `bet ${JSON.stringify(bet)} is given twice`);
    seen.add(bet);
    return { bet, stake: Number(stakeText) };
  });
}
