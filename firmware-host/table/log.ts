/**
 * Table-log records: the inputs of the table session. One JSON object per
 * line; this is also what the journal stores as inputs. Every record may
 * carry `ts` (milliseconds since the epoch, stamped at the I/O edge) and
 * `src` (the device or operator it came from).
 */
import { z } from 'zod';
import { isCardCode } from '../../device-protocol/cards.ts';

const cardCode = z.string().refine(isCardCode, {
  message: 'expected a card code: rank A 2-9 T J Q K then suit S H D C (e.g. AS, TD), or JK',
});
const backColour = z.string().regex(/^[a-z][a-z0-9-]{0,15}$/, 'expected a lower-case colour word');
const common = {
  ts: z.number().int().nonnegative().optional(),
  src: z.string().max(64).optional(),
  /** The device's frame seq of this record, so a restarted daemon recognises a retransmission. */
  dseq: z.number().int().min(0).max(65535).optional(),
};

export const shuffleRecord = z.object({
  t: z.literal('shuffle'),
  decks: z.number().int().min(1).max(16),
  backs: z.array(backColour).min(1),
  /** Only where a card-reading shuffler reported the order. Never published. */
  order: z.array(cardCode).optional(),
  ...common,
});
export const roundRecord = z.object({
  t: z.literal('round'),
  boxes: z.array(z.number().int().min(1).max(7)).optional(),
  stakes: z.record(z.string(), z.number().nonnegative()).optional(),
  ...common,
});
export const cardRecord = z.object({
  t: z.literal('card'),
  card: cardCode,
  back: backColour,
  face: z.enum(['up', 'down']),
  ...common,
});
export const cutRecord = z.object({ t: z.literal('cut'), ...common });
export const actionRecord = z.object({
  t: z.literal('action'),
  /** The box deciding; absent for the dealer. */
  box: z.number().int().min(1).max(7).optional(),
  action: z.string().min(1).max(32),
  cards: z.array(z.number().int().min(0).max(6)).optional(),
  ...common,
});
export const voidRecord = z.object({
  t: z.literal('void'),
  reason: z.string().min(1).max(200),
  ...common,
});

/**
 * A misdeal the shoe cannot see, reported by the dealer console, a table
 * reader or the supervisor: a seat holding the wrong number of cards, or a
 * dealer card shown before its time. `box` absent means the dealer; `cards`
 * is how many the seat actually holds; `correctable` is the supervisor's
 * finding that the dealer can take the right number of cards without
 * changing the sequence (the Hold'em Bonus exception, 001 "Errores e
 * infracciones" d).
 */
export const misdealRecord = z.object({
  t: z.literal('misdeal'),
  kind: z.enum(['wrong_card_count', 'dealer_card_exposed']),
  box: z.number().int().min(1).max(7).optional(),
  cards: z.number().int().min(0).max(52).optional(),
  correctable: z.boolean().optional(),
  ...common,
});

// ------------------------------------------------------------- roulette

const spinDirection = z.enum(['cw', 'ccw'], { message: 'expected cw or ccw' });

/**
 * A spin of the roulette wheel and where the ball came to rest. `rotor` and
 * `ball` are the directions the wheel reported (absent: it saw no rotor
 * spin or no ball launch before the result: a result with no spin);
 * `revolutions` the ball's turns before it dropped.
 */
export const spinRecord = z.object({
  t: z.literal('spin'),
  rotor: spinDirection.optional(),
  ball: spinDirection.optional(),
  number: z.number().int().min(0, 'no pocket below 0').max(36, 'no pocket above 36'),
  revolutions: z.number().int().min(0).max(999).optional(),
  /** Rotor speed, revolutions per minute, where the wheel reported it. */
  rpm: z.number().positive().max(100).optional(),
  ...common,
});
/** The spin does not count (a chip in the wheel, the ball dropped without a spin): 003 § 11(5). */
export const noSpinRecord = z.object({
  t: z.literal('no_spin'),
  reason: z.string().min(1).max(200),
  /** The rotor direction of the voided spin, where the wheel saw one (the next spin turns the other way). */
  rotor: spinDirection.optional(),
  ...common,
});
/** The dealer closed the betting (the wheel's sensor, a console button, an MQTT request). */
export const noMoreBetsRecord = z.object({ t: z.literal('no_more_bets'), ...common });
/** Closing time: the last games are announced (003 § 13(2)). */
export const closingRecord = z.object({ t: z.literal('closing'), ...common });
/**
 * A closed table opens again (issue 35): a supervisor's request or a new
 * gaming day (the ruleset's `closing.reopen` says which article allows it).
 */
export const reopenRecord = z.object({
  t: z.literal('reopen'),
  reason: z.string().min(1).max(200),
  ...common,
});

export const tableLogRecord = z.discriminatedUnion('t', [
  shuffleRecord,
  roundRecord,
  cardRecord,
  cutRecord,
  actionRecord,
  voidRecord,
  misdealRecord,
  spinRecord,
  noSpinRecord,
  noMoreBetsRecord,
  closingRecord,
  reopenRecord,
]);

export type TableLogRecord = z.infer<typeof tableLogRecord>;
export type ShuffleRecord = z.infer<typeof shuffleRecord>;
export type RoundRecord = z.infer<typeof roundRecord>;
export type CardRecord = z.infer<typeof cardRecord>;
export type ActionRecord = z.infer<typeof actionRecord>;
export type VoidRecord = z.infer<typeof voidRecord>;
export type MisdealRecord = z.infer<typeof misdealRecord>;
export type SpinRecord = z.infer<typeof spinRecord>;
export type NoSpinRecord = z.infer<typeof noSpinRecord>;
export type NoMoreBetsRecord = z.infer<typeof noMoreBetsRecord>;
export type ClosingRecord = z.infer<typeof closingRecord>;
export type ReopenRecord = z.infer<typeof reopenRecord>;
/** The records of a roulette table. */
export type RouletteRecord =
  | SpinRecord
  | NoSpinRecord
  | NoMoreBetsRecord
  | ClosingRecord
  | ReopenRecord;
