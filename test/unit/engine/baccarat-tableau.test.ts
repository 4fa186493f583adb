import { describe, expect, it } from 'vitest';
import type { StandardCard } from '../../../device-protocol/cards.ts';
import type { PuntoBancoRuleset } from '../../../firmware-host/engine/rulesets/schema.ts';
import { createPuntoBancoEngine } from '../../../firmware-host/games/cards/baccarat/engine.ts';
import {
  bankerDraws,
  cardPoints,
  handTotal,
  playerDraws,
} from '../../../firmware-host/games/cards/baccarat/tableau.ts';
import { getRuleset } from '../../../firmware-host/games/rulesets.ts';

/*
 * The drawing table, copied by hand from 004 (Baccarat: "Таблица набора
 * карт" and its note), not from the code. One row per Banker two-card total;
 * columns are the Player's third card 0 1 2 3 4 5 6 7 8 9, then `|` and the
 * Banker's move when the Player stood. D draws, S stands.
 */
const BANKER_ROWS: Record<number, string> = {
  0: 'DDDDDDDDDD|D',
  1: 'DDDDDDDDDD|D',
  2: 'DDDDDDDDDD|D',
  3: 'DDDDDDDDSD|D', // any card except 8
  4: 'SSDDDDDDSS|D', // 2 to 7
  5: 'SSSSDDDDSS|D', // 4 to 7
  6: 'SSSSSSDDSS|S', // 6 or 7
  7: 'SSSSSSSSSS|S', // stands
};
/*
 * The scheme of 003 § 24 ("СХЕМА НА ИГРАТА"), copied by hand from the text:
 * the same but for the Banker 5, which draws on a third card of 4, 5, 6.
 */
const BANKER_ROWS_003: Record<number, string> = {
  ...BANKER_ROWS,
  5: 'SSSSDDDSSS|D', // 4, 5, 6
};
/** Player two-card total → draws (D) or stands (S), 004 Player table. */
const PLAYER_ROW = 'DDDDDDSS'; // totals 0..7; 8 and 9 are naturals

const RANK_FOR_POINTS = ['K', 'A', '2', '3', '4', '5', '6', '7', '8', '9'] as const;

function cardWith(points: number, suit = 'S'): StandardCard {
  return `${RANK_FOR_POINTS[points]!}${suit}` as StandardCard;
}
/** Two cards making `total`: the total's card and a king (0 points). */
function twoCards(total: number, suits: [string, string]): [StandardCard, StandardCard] {
  return [cardWith(total, suits[0]), `K${suits[1]}` as StandardCard];
}

interface Cell {
  player: number;
  banker: number;
  third: number | null;
}

/** Every (Player two-card total, Banker two-card total, Player third card or none) cell. */
function cells(): Cell[] {
  const all: Cell[] = [];
  for (let player = 0; player <= 9; player++) {
    for (let banker = 0; banker <= 9; banker++) {
      all.push({ player, banker, third: null });
      for (let third = 0; third <= 9; third++) all.push({ player, banker, third });
    }
  }
  return all;
}

/** What the hand-written table says for a cell: cards to Player and Banker, or 'n/a'. */
function expected(
  cell: Cell,
  rows: Record<number, string>,
): { player: number; banker: number } | 'n/a' {
  const natural = cell.player >= 8 || cell.banker >= 8;
  const playerDrawsByTable = !natural && PLAYER_ROW[cell.player] === 'D';
  // A third card only exists where the Player draws; "none" only where it stands.
  if (playerDrawsByTable !== (cell.third !== null)) return 'n/a';
  if (natural) return { player: 2, banker: 2 };
  const row = rows[cell.banker]!;
  const column = cell.third === null ? 11 : cell.third;
  return { player: cell.third === null ? 2 : 3, banker: row[column] === 'D' ? 3 : 2 };
}

function tableauCases(ruleset: PuntoBancoRuleset, rows: Record<number, string>): void {
  const engine = createPuntoBancoEngine(ruleset);
  const applicable = cells().filter((cell) => expected(cell, rows) !== 'n/a');

  it('covers all 10 x 10 two-card totals with the third card where the Player draws', () => {
    // Player 0-5 (6 totals) x 8 non-natural Banker totals x 10 third cards, plus
    // Player 6-7 stood (2 x 8), plus every natural cell (100 - 64 = 36).
    expect(applicable.length).toBe(6 * 8 * 10 + 2 * 8 + 36);
  });

  for (const cell of applicable) {
    const want = expected(cell, rows) as { player: number; banker: number };
    const name = `Player ${cell.player}, Banker ${cell.banker}, third card ${cell.third ?? 'none'}: Player ${want.player} cards, Banker ${want.banker} cards`;
    it(name, () => {
      const [p1, p2] = twoCards(cell.player, ['S', 'H']);
      const [b1, b2] = twoCards(cell.banker, ['D', 'C']);
      const shoe: StandardCard[] = [p1, b1, p2, b2];
      if (cell.third !== null) shoe.push(cardWith(cell.third, 'D'));
      // A spare card the Banker takes only if the table says so.
      shoe.push('5H');
      let state = engine.start({});
      let used = 0;
      while (engine.next(state).kind === 'card') state = engine.deal(state, shoe[used++]!);
      expect(state.player.length).toBe(want.player);
      expect(state.banker.length).toBe(want.banker);
      // The pure functions agree with the engine's deal.
      if (cell.player < 8 && cell.banker < 8) {
        expect(playerDraws(cell.player)).toBe(cell.third !== null);
        expect(bankerDraws(cell.banker, cell.third, ruleset.tableau)).toBe(want.banker === 3);
      }
    });
  }
}

describe('Punto Banco third-card tableau (004 table and note; tdc-baccarat-no-commission)', () => {
  tableauCases(getRuleset('tdc-baccarat-no-commission') as PuntoBancoRuleset, BANKER_ROWS);
});

describe('Punto Banco by the letter of 003 § 24 (bulgaria-punto-banco: Banker 5 draws on 4, 5, 6)', () => {
  const bulgaria = getRuleset('bulgaria-punto-banco') as PuntoBancoRuleset;
  tableauCases(bulgaria, BANKER_ROWS_003);

  it('differs from the universal tableau only at Banker 5 against a Player third card of 7', () => {
    for (let banker = 0; banker <= 7; banker++) {
      for (let third = 0; third <= 9; third++) {
        const letter = bankerDraws(banker, third, bulgaria.tableau);
        const universal = bankerDraws(banker, third);
        expect(letter === universal).toBe(!(banker === 5 && third === 7));
      }
    }
    expect(bulgaria.tableau.source).toMatch(/^003 § 24/);
  });

  describe('with the named option bankerFiveDrawsOnSeven: true (the usual table)', () => {
    tableauCases(
      { ...bulgaria, tableau: { ...bulgaria.tableau, bankerFiveDrawsOnSeven: true } },
      BANKER_ROWS,
    );
  });
});

describe('Punto Banco tableau inputs', () => {
  it('rejects totals outside 0-9', () => {
    expect(() => playerDraws(10)).toThrow(/0-9/);
    expect(() => bankerDraws(3, 11)).toThrow(/0-9/);
    expect(() => bankerDraws(-1, null)).toThrow(/0-9/);
  });

  it('counts 10 J Q K as 0 and the ace as 1, totals modulo 10 (004 card values)', () => {
    expect(['TS', 'JH', 'QD', 'KC'].map((c) => cardPoints(c as StandardCard))).toEqual([
      0, 0, 0, 0,
    ]);
    expect(cardPoints('AS')).toBe(1);
    expect(cardPoints('9D')).toBe(9);
    expect(handTotal(['6S', 'TD'])).toBe(6);
    expect(handTotal(['9S', '8D', '7C'])).toBe(4);
  });
});
