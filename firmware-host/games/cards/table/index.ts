/**
 * The card table reducer (validator + game engine), from one place: the
 * rest of the program imports it from here, never from its parts.
 */
export { reduce } from './reducer.ts';
export { cardsToDeal, SHOE_EXHAUSTED } from './shoe-life.ts';
export {
  initialState,
  type Reduction,
  type RoundState,
  type SessionConfig,
  type SessionOptions,
  type SessionOptionsInput,
  type SessionState,
  type ShoeState,
  sessionOptionsSchema,
} from './state.ts';
export { type Expectation, expecting, snapshot } from './view.ts';
