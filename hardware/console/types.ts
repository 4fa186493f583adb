/** Names shared by the console board glue (hardware/) and its hosted logic (firmware-host/console/). */
export const BUTTON_NAMES = ['newRound', 'voidHand', 'confirm'] as const;
export const LIGHT_NAMES = [
  'playerDraws',
  'bankerDraws',
  'lastHand',
  'alarm',
  'deviceFault',
] as const;
export type ButtonName = (typeof BUTTON_NAMES)[number];
export type LightName = (typeof LIGHT_NAMES)[number];
export type LightState = 'off' | 'on' | 'blink';
export type Lights = Record<LightName, LightState>;
export type BuzzPattern = 'ack' | 'refuse' | 'alarm';

/** Buzzer timings: on, off, on, ... in milliseconds. */
export const BUZZ_PATTERNS: Record<BuzzPattern, readonly number[]> = {
  ack: [60],
  refuse: [60, 80, 60],
  alarm: [400, 150, 400, 150, 400],
};
