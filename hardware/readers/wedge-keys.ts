/**
 * Keyboard-wedge readers (the common RFID and barcode readers that "type"
 * the UID and Enter) as a USB boot keyboard: every input report is 8 bytes
 * (HID 1.11 Appendix B.1): a modifier byte (bit 0 left Ctrl, 1 left Shift,
 * 2 left Alt, 3 left GUI, 4-7 the right ones), a reserved byte, then up to
 * six usage IDs of the keys held down, from the Keyboard/Keypad page 0x07 of
 * the USB HID Usage Tables (§ 10): 0x04-0x1D a-z, 0x1E-0x27 1-9 and 0,
 * 0x28 Return, 0x2A Backspace, 0x58 Keypad Enter, 0x59-0x62 Keypad 1-9 and 0;
 * 0x01 in every slot is ErrorRollOver (too many keys: the report says
 * nothing about which are down).
 *
 * A key is typed when its usage ID appears in a report and was not in the
 * previous one (key down); a key still held is not typed again. Pure: no I/O.
 */

const USAGE_ERROR_ROLL_OVER = 0x01;
const USAGE_RETURN = 0x28;
const USAGE_BACKSPACE = 0x2a;
const USAGE_KEYPAD_ENTER = 0x58;
const SHIFT_BITS = 0x02 | 0x20;
/** No UID format needs more; a longer line is a reader set up wrong (or a person typing). */
const MAX_LINE = 40;

/** What a usage ID types, or undefined for keys a UID never contains. */
function characterOf(usage: number, shifted: boolean): string | undefined {
  if (usage >= 0x04 && usage <= 0x1d) {
    const letter = String.fromCharCode(0x61 + usage - 0x04);
    return shifted ? letter.toUpperCase() : letter;
  }
  if (usage >= 0x1e && usage <= 0x27 && !shifted)
    return usage === 0x27 ? '0' : String(usage - 0x1d);
  if (usage >= 0x59 && usage <= 0x62) return usage === 0x62 ? '0' : String(usage - 0x58);
  return undefined;
}

export type WedgeEvent =
  /** A line ended by Enter. */
  | { kind: 'line'; text: string }
  /** Something that cannot be a UID: an unknown key, a report of the wrong size, a runaway line. */
  | { kind: 'bad'; why: string };

export class BootKeyboardDecoder {
  private held = new Set<number>();
  private line = '';
  private spoiled: string | undefined;

  /**
   * One input report: 8 bytes, or 9 when the host stack puts a report ID
   * byte in front (hidapi on some systems).
   */
  push(report: Uint8Array): WedgeEvent[] {
    const bytes = report.length === 9 ? report.subarray(1) : report;
    if (bytes.length !== 8) {
      return [
        {
          kind: 'bad',
          why: `a ${report.length}-byte input report is not a boot keyboard report (8 bytes)`,
        },
      ];
    }
    const keys = Array.from(bytes.subarray(2)).filter((usage) => usage !== 0x00);
    if (keys.length > 0 && keys.every((usage) => usage === USAGE_ERROR_ROLL_OVER)) return [];
    const shifted = ((bytes[0] ?? 0) & SHIFT_BITS) !== 0;
    const events: WedgeEvent[] = [];
    for (const usage of keys) {
      if (this.held.has(usage)) continue;
      const event = this.type(usage, shifted);
      if (event) events.push(event);
    }
    this.held = new Set(keys);
    return events;
  }

  private type(usage: number, shifted: boolean): WedgeEvent | undefined {
    if (usage === USAGE_RETURN || usage === USAGE_KEYPAD_ENTER) {
      const text = this.line;
      const spoiled = this.spoiled;
      this.line = '';
      this.spoiled = undefined;
      if (spoiled) return { kind: 'bad', why: spoiled };
      return text ? { kind: 'line', text } : undefined;
    }
    if (usage === USAGE_BACKSPACE) {
      this.line = this.line.slice(0, -1);
      return undefined;
    }
    const character = characterOf(usage, shifted);
    if (character === undefined) {
      this.spoiled ??= `key 0x${usage.toString(16).padStart(2, '0')}${shifted ? ' with Shift' : ''} cannot be part of a UID`;
      return undefined;
    }
    if (this.line.length >= MAX_LINE) {
      this.spoiled ??= `more than ${MAX_LINE} characters without Enter`;
      return undefined;
    }
    this.line += character;
    return undefined;
  }
}

/** How the reader is set to type a UID. */
export interface WedgeFormat {
  /** Hex digits (either case) or one decimal number. */
  format: 'hex' | 'dec';
  /** `msb`: UID0 first, as the tag sends it (and a PN532 reports it); `reversed`: last byte first. */
  order: 'msb' | 'reversed';
  /** Decimal only: the UID length in bytes; default the smallest of 4, 7, 10 the number fits. */
  bytes?: 4 | 7 | 10;
}

export const DEFAULT_WEDGE_FORMAT: WedgeFormat = { format: 'hex', order: 'msb' };

/** The UID a typed line stands for, or a sentence saying why it stands for none. */
export function uidFromLine(text: string, format: WedgeFormat): Uint8Array | string {
  let bytes: number[];
  if (format.format === 'hex') {
    if (!/^[0-9A-Fa-f]+$/.test(text)) return `"${text}" is not hex digits`;
    if (![8, 14, 20].includes(text.length)) {
      return `"${text}" has ${text.length} hex digits; a UID has 8, 14 or 20 (4, 7 or 10 bytes)`;
    }
    bytes = (text.match(/../g) ?? []).map((pair) => Number.parseInt(pair, 16));
  } else {
    if (!/^[0-9]+$/.test(text)) return `"${text}" is not a decimal number`;
    const value = BigInt(text);
    const length =
      format.bytes ?? ([4, 7, 10] as const).find((n) => value < 1n << BigInt(8 * n)) ?? 0;
    if (!length || value >= 1n << BigInt(8 * length)) {
      return `"${text}" does not fit a UID of ${format.bytes ?? 10} bytes`;
    }
    bytes = [];
    for (let i = length - 1; i >= 0; i--) bytes.push(Number((value >> BigInt(8 * i)) & 0xffn));
  }
  if (format.order === 'reversed') bytes.reverse();
  return Uint8Array.from(bytes);
}
