/**
 * `tableside decode [FILE]`: a raw capture of a device line (stdin without
 * FILE) to one JSON object per frame or discard on stdout. Exits 0 whenever
 * it could read the input, whatever the input held.
 */
import type { Command } from 'commander';
import type { FrameEvent } from '../../device-protocol/frame.ts';
import { decodeMessage } from '../../device-protocol/messages.ts';

/** The JSON line `decode` prints for one framer event. */
export function describeEvent(event: FrameEvent): Record<string, unknown> {
  if (event.kind === 'discard') {
    return { ok: false, reason: event.reason, raw: event.raw, detail: event.detail };
  }
  const { talker, seq, type, fields } = event.frame;
  const described: Record<string, unknown> = { ok: true, talker, seq, type, fields };
  const decoded = decodeMessage(event.frame);
  if (decoded.kind === 'message') described.message = decoded.message;
  else if (decoded.kind === 'unsupported') described.unsupported = true;
  else described.invalid = decoded.error;
  return described;
}

export function register(program: Command): void {
  program
    .command('decode')
    .description('decode a raw capture of a device line into JSON frames, one per line')
    .argument('[file]', 'capture file (default: stdin)')
    .option('--stats', 'print frame and discard counts as JSON on stderr at the end')
    .addHelpText(
      'after',
      `
Each line of output is one frame or one discard:
  {"ok":true,"talker":"SH","seq":17,"type":"CARD","fields":["AS","red","down"],"message":{...}}
  {"ok":false,"reason":"bad_crc","raw":"$SH,17,CARD,KS,red,down*BBE2","detail":"..."}
A valid frame of an unknown TYPE has "unsupported":true; one of a known TYPE
with bad fields has "invalid":"<why>". Discard reasons: bad_crc, too_long,
malformed, no_start.

Examples:
  tableside decode capture.bin
  socat -u /dev/ttyUSB0,raw,b115200 - | tableside decode`,
    )
    .action(async (file: string | undefined, options: { stats?: boolean }) => {
      const { open } = await import('node:fs/promises');
      const { FrameDecoder } = await import('../../device-protocol/frame-decoder.ts');
      let input: NodeJS.ReadableStream;
      if (file === undefined || file === '-') {
        input = process.stdin;
      } else {
        try {
          const handle = await open(file, 'r');
          const stat = await handle.stat();
          if (stat.isDirectory()) {
            await handle.close();
            throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
          }
          // The handle's own stream keeps the handle and closes it at the end. A stream
          // on its bare fd did not: the unreferenced FileHandle was closed by the garbage
          // collector mid-read, and the stream's own close then hit EBADF.
          input = handle.createReadStream();
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? '';
          const why =
            code === 'ENOENT'
              ? 'no such file'
              : code === 'EACCES'
                ? 'permission denied'
                : code === 'EISDIR'
                  ? 'it is a directory'
                  : (error as Error).message;
          process.stderr.write(`tableside decode: cannot read ${file}: ${why}\n`);
          process.exitCode = 1;
          return;
        }
      }
      const decoder = new FrameDecoder();
      const out: string[] = [];
      const flush = () => {
        if (out.length > 0) process.stdout.write(out.join(''));
        out.length = 0;
      };
      const print = (events: readonly FrameEvent[]) => {
        for (const event of events) {
          out.push(`${JSON.stringify(describeEvent(event))}\n`);
          if (out.length >= 256) flush();
        }
      };
      try {
        for await (const chunk of input) {
          print(decoder.push(typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk));
        }
        // A tail with no CR LF is reported, not silently lost.
        print(decoder.end());
      } catch (error) {
        flush();
        process.stderr.write(`tableside decode: read failed: ${(error as Error).message}\n`);
        process.exitCode = 1;
        return;
      }
      flush();
      if (options.stats) process.stderr.write(`${JSON.stringify(decoder.stats)}\n`);
    });
}
