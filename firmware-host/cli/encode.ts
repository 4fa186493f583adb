/**
 * `tableside encode TALKER SEQ TYPE [FIELD...]`: one framed line with its
 * CRC, ready to write to a device line. Bad arguments exit 2 with the reason.
 */
import type { Command, CommanderError } from 'commander';

export function register(program: Command): void {
  program
    .command('encode')
    .description('frame a message with its CRC (prints the line, CR LF included)')
    .argument('<talker>', 'SH shoe, SF shuffler, RD reader, HO host')
    .argument('<seq>', 'sequence number 0-65535')
    .argument('<type>', 'message TYPE, e.g. CARD')
    .argument('[fields...]', 'message fields')
    .option('--raw', 'frame any TYPE and fields, checking the grammar only, not the message')
    .option('--lf', 'end the line with LF instead of CR LF (for reading on a terminal)')
    .addHelpText(
      'after',
      `
Examples:
  tableside encode SH 17 CARD AS red down      # $SH,17,CARD,AS,red,down*BBE2
  tableside encode HO 3 INDICATE green blink
  tableside encode SF 9 COUNT 310 2 0 -AS -KH
  tableside encode --raw SH 4 FOO x             # a TYPE the host does not know`,
    )
    // Fields such as -AS (a missing card in COUNT) are fields, not options.
    .allowUnknownOption(true)
    .exitOverride((error: CommanderError) => {
      // Usage errors exit 2, like the argument checks below; help exits 0.
      process.exit(error.exitCode === 0 ? 0 : 2);
    })
    .action(
      async (
        talker: string,
        seqText: string,
        type: string,
        fields: string[],
        options: { raw?: boolean; lf?: boolean },
      ) => {
        const { isTalker, isSeq, isFrameType, tryEncodeFrame, TALKERS, MAX_SEQ } = await import(
          '../../device-protocol/frame.ts'
        );
        const { decodeMessage, isMessageType, sendersOf } = await import(
          '../../device-protocol/messages.ts'
        );
        const fail = (message: string) => {
          process.stderr.write(`tableside encode: ${message}\n`);
          process.exitCode = 2;
        };
        if (!isTalker(talker))
          return fail(`bad talker ${JSON.stringify(talker)}: expected one of ${TALKERS.join(' ')}`);
        const seq = /^(0|[1-9][0-9]*)$/.test(seqText) ? Number(seqText) : Number.NaN;
        if (!isSeq(seq))
          return fail(`bad seq ${JSON.stringify(seqText)}: expected a whole number 0-${MAX_SEQ}`);
        if (!isFrameType(type)) {
          return fail(
            `bad type ${JSON.stringify(type)}: expected an upper-case word of 1-16 letters and digits`,
          );
        }
        const frame = { talker, seq, type, fields };
        const encoded = tryEncodeFrame(frame);
        if (!encoded.ok) return fail(encoded.error);
        if (!options.raw) {
          if (!isMessageType(type)) {
            return fail(`unknown type ${type} (use --raw to frame it anyway)`);
          }
          const decoded = decodeMessage(frame);
          if (decoded.kind === 'invalid') {
            return fail(
              `${decoded.error} (senders of ${type}: ${sendersOf(type)?.join(' ')}; use --raw to frame it anyway)`,
            );
          }
        }
        const line = options.lf ? `${encoded.line.slice(0, -2)}\n` : encoded.line;
        process.stdout.write(line);
      },
    );
}
